import { resourceRoutes, routeShapeOf, type ResourceRoute } from '../engine/routes.js';
import type { ActionDescriptor, PolymorphicToOneDescriptor, RelationshipDescriptor } from '../model/descriptor.js';
import { MEDIA_TYPE } from '../jsonapi/media-type.js';
import { actionParameters, collectionParameters, singleReadParameters, writeParameters, type Parameters } from './parameters.js';
import { parameterRef, responseRef, schemaNames, schemaRef } from './refs.js';
import type { JsonSchema, OpenApiResource, OutlineLookup } from './shapes.js';

/**
 * The path items of one resource: the operations its schema declares, its actions (on one
 * record and on the collection) and its related-resource URLs, as the engine routes them. Every operation is tagged with the
 * resource type.
 */

export function collectionPath(collection: string): string {
  return `/api/v2/${collection}`;
}

export function memberPath(collection: string): string {
  return `${collectionPath(collection)}/{id}`;
}

export function actionPath(collection: string, action: string): string {
  return `${memberPath(collection)}/actions/${action}`;
}

export function collectionActionPath(collection: string, action: string): string {
  return `${collectionPath(collection)}/actions/${action}`;
}

/** Error responses by status; components/responses holds one per status. */
const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': { name: 'BadRequest', description: 'A query parameter or the body is not acceptable; source names which.' },
  '401': { name: 'Unauthorized', description: 'No access token, or one that is unknown, expired or revoked.' },
  '403': { name: 'Forbidden', description: 'The token lacks a scope this request needs (the detail names it), or the request is not allowed.' },
  '404': { name: 'NotFound', description: 'No such record in the organisation.' },
  '406': { name: 'NotAcceptable', description: 'Accept lists the JSON:API media type only with parameters.' },
  '409': { name: 'Conflict', description: 'data.type or data.id does not match the path, or a unique value is taken.' },
  '413': { name: 'PayloadTooLarge', description: 'The body is larger than the server accepts.' },
  '415': { name: 'UnsupportedMediaType', description: 'The body is neither application/vnd.api+json nor application/json.' },
  '422': { name: 'UnprocessableEntity', description: 'The body fails validation (source.pointer names the field), or the change is not possible.' },
  '429': {
    name: 'TooManyRequests',
    description: 'The organisation’s allowance of bulk items cannot take the request now; Retry-After, when given, says when it can.',
  },
  default: { name: 'Error', description: 'Any other failure.' },
};

export function errorResponseComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description,
        ...(status === '401' && { headers: { 'WWW-Authenticate': { schema: { type: 'string' } } } }),
        content: { [MEDIA_TYPE]: { schema: schemaRef('ErrorDocument') } },
      },
    ]),
  );
}

const READ_ERRORS = ['400', '401', '403', '404', '406', 'default'];
const WRITE_ERRORS = ['400', '401', '403', '404', '406', '409', '413', '415', '422', 'default'];
const CHANGE_ERRORS = ['400', '401', '403', '404', '406', '422', 'default'];
const COLLECTION_ACTION_ERRORS = ['400', '401', '403', '404', '406', '413', '415', '422', '429', 'default'];

function errors(statuses: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(statuses.map((status) => [status, responseRef(ERROR_RESPONSES[status]!.name)]));
}

function ok(description: string, schema: JsonSchema, statuses: readonly string[], status = '200'): Record<string, JsonSchema> {
  return { [status]: { description, content: { [MEDIA_TYPE]: { schema } } }, ...errors(statuses) };
}

/** An access token holding every one of `scopes` (or their stems' .all), as a bearer or through OAuth. */
function security(scopes: readonly string[]): JsonSchema[] {
  return [{ bearerAuth: [] }, { oauth2: [...new Set(scopes)].sort() }];
}

function requestBody(schema: JsonSchema, example?: JsonSchema): JsonSchema {
  const content = { schema, ...(example && { example }) };
  return { required: true, content: { [MEDIA_TYPE]: content, 'application/json': content } };
}

export interface PathContext {
  readonly lookup: OutlineLookup;
  readonly parameters: Parameters;
}

function relatedOperation(resource: OpenApiResource, relationship: RelationshipDescriptor, context: PathContext): JsonSchema | undefined {
  if (relationship.kind === 'polymorphicToOne') return polymorphicRelatedOperation(resource, relationship, context);
  const target = context.lookup(relationship.target);
  if (!target) return undefined;
  const common = {
    operationId: `${resource.type}.related.${relationship.name}`,
    tags: [resource.type],
    security: security([`${resource.scope}.read`, `${target.scope}.read`]),
  };
  if (relationship.kind === 'toOne') {
    const schema = {
      type: 'object',
      required: ['data'],
      properties: { data: { anyOf: [schemaRef(schemaNames.resource(target.type)), { type: 'null' }] }, included: schemaRef('Included') },
    };
    return {
      summary: `The ${relationship.name} of a ${resource.type}`,
      ...common,
      parameters: [parameterRef('Id'), ...singleReadParameters(context.parameters, target, context.lookup)],
      responses: ok(`The ${target.type}, or data null when there is none.`, schema, READ_ERRORS),
    };
  }
  return {
    summary: `The ${relationship.name} of a ${resource.type}: a page of ${target.collection}`,
    ...common,
    parameters: [parameterRef('Id'), ...collectionParameters(context.parameters, target, context.lookup, relationship.inverse)],
    responses: ok(`A page of ${target.collection} whose ${relationship.inverse} is this ${resource.type}.`, schemaRef(schemaNames.collection(target.type)), READ_ERRORS),
  };
}

/** The record a polymorphic to-one names, of whichever of its target types it is. */
function polymorphicRelatedOperation(resource: OpenApiResource, relationship: PolymorphicToOneDescriptor, context: PathContext): JsonSchema | undefined {
  const targets = relationship.targets.flatMap((type) => context.lookup(type) ?? []);
  if (targets.length === 0) return undefined;
  const names = targets.map((t) => t.type).join(', ');
  const schema = {
    type: 'object',
    required: ['data'],
    properties: { data: { anyOf: [...targets.map((t) => schemaRef(schemaNames.resource(t.type))), { type: 'null' }] } },
  };
  return {
    summary: `The ${relationship.name} of a ${resource.type}: one of ${names}`,
    description: `Needs the read scope of the record's own type too.`,
    operationId: `${resource.type}.related.${relationship.name}`,
    tags: [resource.type],
    security: security([`${resource.scope}.read`]),
    parameters: [parameterRef('Id')],
    responses: ok(`The ${relationship.name} (${names}), or data null when there is none.`, schema, READ_ERRORS),
  };
}

function listOperation(resource: OpenApiResource, context: PathContext): JsonSchema {
  const { type, scope, collection } = resource;
  return {
    summary: `List ${collection}`,
    operationId: `${type}.list`,
    tags: [type],
    security: security([`${scope}.read`]),
    parameters: collectionParameters(context.parameters, resource, context.lookup),
    responses: ok(`A page of ${collection}.`, schemaRef(schemaNames.collection(type)), READ_ERRORS),
  };
}

function createOperation(resource: OpenApiResource, context: PathContext): JsonSchema {
  const { type, scope } = resource;
  if (resource.createBody) return nonStandardCreateOperation(resource, resource.createBody);
  return {
    summary: `Create a ${type}`,
    operationId: `${type}.create`,
    tags: [type],
    security: security([`${scope}.write`]),
    parameters: writeParameters(context.parameters, resource),
    requestBody: requestBody(schemaRef(schemaNames.create(type)), resource.createExample),
    responses: {
      '201': {
        description: `The ${type} created.`,
        headers: { Location: { description: 'Its URL.', schema: { type: 'string', format: 'uri' } } },
        content: { [MEDIA_TYPE]: { schema: schemaRef(schemaNames.document(type)) } },
      },
      ...errors(WRITE_ERRORS),
    },
  };
}

/**
 * A create that is no JSON:API create (schema `x-createBody`, SPEC.md's compliance request):
 * its own attributes in, `{data: {...}}` with no type or id out.
 */
function nonStandardCreateOperation(resource: OpenApiResource, body: NonNullable<OpenApiResource['createBody']>): JsonSchema {
  const { type, scope } = resource;
  const document = {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['attributes'],
        properties: {
          type: { type: 'string', enum: [type] },
          attributes: { type: 'object', properties: { ...body.attributes }, required: [...body.required] },
        },
      },
    },
  };
  return {
    summary: `Create a ${type}`,
    description: 'Not a JSON:API create: the attributes below, and an answer whose data has neither type nor id.',
    operationId: `${type}.create`,
    tags: [type],
    security: security([`${scope}.write`]),
    requestBody: requestBody(document),
    responses: {
      '201': {
        description: `The ${type} was created; it is processed asynchronously.`,
        content: {
          [MEDIA_TYPE]: {
            schema: { type: 'object', required: ['data'], properties: { data: { type: 'object', properties: { ...body.answer }, required: Object.keys(body.answer) } } },
          },
        },
      },
      ...errors(WRITE_ERRORS),
    },
  };
}

function getOperation(resource: OpenApiResource, context: PathContext): JsonSchema {
  const { type, scope } = resource;
  return {
    summary: `Get a ${type}`,
    operationId: `${type}.get`,
    tags: [type],
    security: security([`${scope}.read`]),
    parameters: [parameterRef('Id'), ...singleReadParameters(context.parameters, resource, context.lookup)],
    responses: ok(`The ${type}.`, schemaRef(schemaNames.document(type)), READ_ERRORS),
  };
}

function updateOperation(resource: OpenApiResource, context: PathContext): JsonSchema {
  const { type, scope } = resource;
  return {
    summary: `Update a ${type}: only the attributes and relationships given change`,
    operationId: `${type}.update`,
    tags: [type],
    security: security([`${scope}.write`]),
    parameters: [parameterRef('Id'), ...writeParameters(context.parameters, resource)],
    requestBody: requestBody(schemaRef(schemaNames.update(type))),
    responses: ok(`The ${type} as updated.`, schemaRef(schemaNames.document(type)), WRITE_ERRORS),
  };
}

function deleteOperation(resource: OpenApiResource): JsonSchema {
  const { type, scope } = resource;
  return {
    summary: `Delete a ${type}`,
    operationId: `${type}.delete`,
    tags: [type],
    security: security([`${scope}.delete`]),
    parameters: [parameterRef('Id')],
    responses: { '204': { description: 'Deleted.' }, ...errors(CHANGE_ERRORS) },
  };
}

function actionOperation(resource: OpenApiResource, action: ActionDescriptor): JsonSchema {
  const { type, scope } = resource;
  return {
    summary: `The ${action.name} action of a ${type}`,
    operationId: `${type}.actions.${action.name}`,
    tags: [type],
    security: security([`${scope}.write`]),
    parameters: [parameterRef('Id'), ...actionParameters(action)],
    responses: ok(`The ${type} after the action.`, schemaRef(schemaNames.document(type)), CHANGE_ERRORS),
  };
}

/** What a collection action takes as its body: its own parameters as data.attributes. */
const COLLECTION_ACTION_BODY: JsonSchema = {
  type: 'object',
  properties: {
    data: {
      type: 'object',
      properties: { type: { type: 'string' }, attributes: { type: 'object', additionalProperties: true, description: 'The action’s own parameters.' } },
    },
  },
};

/**
 * An action on the collection (a bulk action): it answers with its target's document (the
 * batch it started), so the caller needs read on that as well as read and write here.
 */
function collectionActionOperation(resource: OpenApiResource, action: ActionDescriptor, context: PathContext): JsonSchema {
  const { type, scope } = resource;
  const target = action.target ?? type;
  const targetScope = context.lookup(target)?.scope ?? scope;
  const content = { schema: COLLECTION_ACTION_BODY };
  return {
    summary: `The ${action.name} action on ${resource.collection}`,
    description: 'Acts on the collection rather than one record. Some actions also need a scope of the records they change (a 403 names it).',
    operationId: `${type}.collectionActions.${action.name}`,
    tags: [type],
    security: security([`${scope}.read`, `${scope}.write`, `${targetScope}.read`]),
    parameters: actionParameters(action),
    requestBody: {
      required: false,
      description: 'A JSON:API document whose data.attributes are the action’s parameters; actions without any take no body.',
      content: { [MEDIA_TYPE]: content, 'application/json': content },
    },
    responses: action.answer
      ? ok(`The ${action.answer.type} answer: data with a type and attributes, and no id.`, answerDocument(action.answer), COLLECTION_ACTION_ERRORS)
      : ok(`The ${target} the action answers with.`, schemaRef(schemaNames.document(target)), COLLECTION_ACTION_ERRORS),
  };
}

/** The document of an action that answers no record (SPEC.md "Upload and validation results"): its data has no id. */
function answerDocument(answer: NonNullable<ActionDescriptor['answer']>): JsonSchema {
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['type', 'attributes'],
        properties: {
          type: { type: 'string', enum: [answer.type] },
          attributes: { type: 'object', properties: { ...answer.attributes }, required: Object.keys(answer.attributes) },
        },
      },
    },
  };
}

/**
 * The OpenAPI paths and operations of one route: a route with a parameter OpenAPI cannot
 * express (`:action`, `:relationship`) becomes one path per action or relationship.
 */
function routeOperations(resource: OpenApiResource, route: ResourceRoute, context: PathContext): [string, JsonSchema][] {
  const { collection } = resource;
  switch (route.handler) {
    case 'list':
      return [[collectionPath(collection), listOperation(resource, context)]];
    case 'create':
      return [[collectionPath(collection), createOperation(resource, context)]];
    case 'get':
      return [[memberPath(collection), getOperation(resource, context)]];
    case 'update':
      return [[memberPath(collection), updateOperation(resource, context)]];
    case 'destroy':
      return [[memberPath(collection), deleteOperation(resource)]];
    case 'collectionAction':
      return resource.collectionActions.map((action) => [collectionActionPath(collection, action.name), collectionActionOperation(resource, action, context)]);
    case 'action':
      return resource.actions.map((action) => [actionPath(collection, action.name), actionOperation(resource, action)]);
    case 'related':
      return resource.relationships.flatMap((relationship): [string, JsonSchema][] => {
        const get = relatedOperation(resource, relationship, context);
        return get ? [[`${memberPath(collection)}/${relationship.name}`, get]] : [];
      });
  }
}

/** Every path of one resource with the operations the router serves there, keyed by path. */
export function resourcePaths(resource: OpenApiResource, context: PathContext): Record<string, JsonSchema> {
  const paths: Record<string, JsonSchema> = {};
  for (const route of resourceRoutes(routeShapeOf(resource), collectionPath(resource.collection))) {
    for (const [path, operation] of routeOperations(resource, route, context)) paths[path] = { ...paths[path], [route.method]: operation };
  }
  return paths;
}
