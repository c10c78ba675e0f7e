import { MEDIA_TYPE } from '../jsonapi/media-type.js';
import { sharedParameters, type Parameters } from './parameters.js';
import { errorResponseComponents, resourcePaths } from './paths.js';
import { sortedByKey } from './refs.js';
import { resourceSchemas, sharedSchemas } from './schemas.js';
import type { JsonSchema, OpenApiResource, OutlineLookup } from './shapes.js';

/**
 * The OpenAPI 3.1 document of the API: the generator writes it for the standard resources
 * (generated/openapi.json) and the server adds an organisation's custom objects with
 * withResources. Paths are absolute (`/api/v2/...`), so a client's base URL is the server's
 * origin, as for clients of the real service.
 */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: JsonSchema;
  readonly servers: readonly JsonSchema[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, JsonSchema>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly parameters: Readonly<Record<string, JsonSchema>>;
    readonly responses: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: {
      readonly bearerAuth: JsonSchema;
      readonly oauth2: OAuth2Scheme;
    };
  };
}

interface OAuth2Scheme {
  readonly type: 'oauth2';
  readonly description: string;
  readonly flows: {
    readonly authorizationCode: {
      readonly authorizationUrl: string;
      readonly tokenUrl: string;
      readonly refreshUrl: string;
      readonly scopes: Readonly<Record<string, string>>;
    };
  };
}

/** What a set of resources adds to a document. */
interface Parts {
  readonly paths: Record<string, JsonSchema>;
  readonly schemas: Record<string, JsonSchema>;
  readonly parameters: Record<string, JsonSchema>;
  readonly tags: { name: string; description: string }[];
  readonly scopes: Record<string, string>;
}

function scopesOf(stem: string): Record<string, string> {
  return {
    [`${stem}.all`]: `Read, write and delete ${stem}`,
    [`${stem}.delete`]: `Delete ${stem}`,
    [`${stem}.read`]: `Read ${stem}`,
    [`${stem}.write`]: `Create and update ${stem}, and run their actions`,
  };
}

function partsOf(resources: readonly OpenApiResource[], lookup: OutlineLookup): Parts {
  const parameters: Parameters = new Map();
  const parts: Parts = { paths: {}, schemas: {}, parameters: {}, tags: [], scopes: {} };
  for (const resource of resources) {
    Object.assign(parts.paths, resourcePaths(resource, { lookup, parameters }));
    Object.assign(parts.schemas, resourceSchemas(resource));
    Object.assign(parts.scopes, scopesOf(resource.scope));
    parts.tags.push({ name: resource.type, description: resource.description });
  }
  Object.assign(parts.parameters, Object.fromEntries(parameters));
  return parts;
}

/** The documents about the API itself, which need no token. */
function schemaPaths(): Record<string, JsonSchema> {
  const anyone = [{}, { bearerAuth: [] }];
  const document = (description: string, mediaType: string) => ({ description, content: { [mediaType]: { schema: { type: 'object' } } } });
  return {
    '/api/v2/schema': {
      get: {
        summary: 'The JSON hyper-schema (draft-07) of every resource; with a token, the organisation’s custom objects too',
        operationId: 'getSchema',
        tags: ['Schema'],
        security: anyone,
        responses: { '200': document('The hyper-schema.', MEDIA_TYPE) },
      },
    },
    '/api/v2/schema/openapi.json': {
      get: {
        summary: 'This OpenAPI document; with a token, the organisation’s custom objects too',
        operationId: 'getOpenApiDocument',
        tags: ['Schema'],
        security: anyone,
        responses: { '200': document('The OpenAPI 3.1 document.', 'application/json') },
      },
    },
  };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The whole document for `resources`, every map in key order. */
export function openApiDocument(resources: readonly OpenApiResource[]): OpenApiDocument {
  const byType = new Map(resources.map((r) => [r.type, r]));
  const parts = partsOf(resources, (type) => byType.get(type));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cadence',
      version: 'v2',
      description:
        'A multi-tenant sales-engagement API speaking JSON:API 1.0 (application/vnd.api+json; request bodies may also be sent as application/json). Paths are absolute: the base URL is the server’s origin.',
    },
    servers: [{ url: '/', description: 'The server that serves this document.' }],
    tags: [...parts.tags, { name: 'Schema', description: 'Machine-readable descriptions of the API.' }].sort(byName),
    paths: sortedByKey({ ...schemaPaths(), ...parts.paths }),
    components: {
      schemas: sortedByKey({ ...sharedSchemas(), ...parts.schemas }),
      parameters: sortedByKey({ ...sharedParameters(), ...parts.parameters }),
      responses: sortedByKey(errorResponseComponents()),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An access token: one made by `cadence token create`, an OAuth access token, or an application’s server-to-server access token. It holds scopes <resource>.read, .write, .delete or .all.',
        },
        oauth2: {
          type: 'oauth2',
          description: 'Authorization code with PKCE (S256 only); the client authenticates at the token endpoint with HTTP Basic or client_id and client_secret.',
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth/authorize',
              tokenUrl: '/oauth/token',
              refreshUrl: '/oauth/token',
              scopes: sortedByKey(parts.scopes),
            },
          },
        },
      },
    },
  };
}

/**
 * `document` with more resources (an organisation's custom objects) added, shaped exactly as
 * the generator shapes standard ones. `lookup` finds every resource the added ones refer to.
 */
export function withResources(document: OpenApiDocument, resources: readonly OpenApiResource[], lookup: OutlineLookup): OpenApiDocument {
  if (resources.length === 0) return document;
  const parts = partsOf(resources, lookup);
  const { components } = document;
  const oauth2 = components.securitySchemes.oauth2;
  const flow = oauth2.flows.authorizationCode;
  return {
    ...document,
    tags: [...document.tags, ...parts.tags].sort(byName),
    paths: sortedByKey({ ...document.paths, ...parts.paths }),
    components: {
      ...components,
      schemas: sortedByKey({ ...components.schemas, ...parts.schemas }),
      parameters: sortedByKey({ ...components.parameters, ...parts.parameters }),
      securitySchemes: {
        ...components.securitySchemes,
        oauth2: { ...oauth2, flows: { ...oauth2.flows, authorizationCode: { ...flow, scopes: sortedByKey({ ...flow.scopes, ...parts.scopes }) } } },
      },
    },
  };
}
