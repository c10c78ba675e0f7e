import { openApiDocument, type JsonSchema, type OpenApiAttribute, type OpenApiResource } from '../../runtime/openapi/index.js';
import type { AttributeModel, ResourceModel, SchemaModel } from '../model.js';
import { attributeValueSchema } from './body-schemas.js';
import { createExampleOf } from './create-example.js';

/**
 * generated/openapi.json: the OpenAPI 3.1 document of the standard resources, built by the
 * runtime's own builder (which adds custom objects per organisation when it serves it), from
 * the same value schemas the request validators check.
 */

/** Epoch seconds as text (`"1767225600"`): a client must not read it as an ISO 8601 date-time. */
function renderedSchema(a: AttributeModel): JsonSchema | undefined {
  if (a.renderedAs !== 'epochSeconds') return undefined;
  return {
    type: a.required ? 'string' : ['string', 'null'],
    pattern: '^-?[0-9]+$',
    ...(a.description !== undefined && { description: a.description }),
  };
}

function attributeOf(a: AttributeModel): OpenApiAttribute {
  const rendered = renderedSchema(a);
  return {
    name: a.name,
    type: a.type,
    schema: {
      ...attributeValueSchema(a),
      ...(a.format === 'html' && { contentMediaType: 'text/html' }),
      ...(a.default !== undefined && { default: a.default }),
      ...(a.examples !== undefined && { examples: a.examples }),
      ...(a.description !== undefined && { description: a.description }),
    },
    ...(rendered && { rendered }),
    readOnly: a.readOnly,
    ...(a.writeOnly && { writeOnly: true }),
    required: a.required,
    filterable: a.filterable,
    sortable: a.sortable,
    search: a.search,
  };
}

export function openApiResourceOf(resource: ResourceModel): OpenApiResource {
  const createExample = createExampleOf(resource);
  return {
    type: resource.type,
    collection: resource.collection,
    scope: resource.scope,
    description: resource.description,
    attributes: resource.attributes.map(attributeOf),
    relationships: resource.relationships,
    operations: resource.operations,
    actions: resource.actions,
    collectionActions: resource.collectionActions,
    ...(resource.createBody && { createBody: resource.createBody }),
    ...(createExample && { createExample }),
  };
}

export function emitOpenApi(model: SchemaModel): string {
  return `${JSON.stringify(openApiDocument(model.resources.map(openApiResourceOf)), null, 2)}\n`;
}
