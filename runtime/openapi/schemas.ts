import { writeBodySchema } from '../engine/body-schema.js';
import type { PolymorphicToOneDescriptor, RelationshipDescriptor, ToOneDescriptor } from '../model/descriptor.js';
import { schemaNames, schemaRef } from './refs.js';
import type { JsonSchema, OpenApiAttribute, OpenApiResource } from './shapes.js';

/** JSON Schemas (2020-12, as OpenAPI 3.1 uses) of documents and request bodies. */

const URL_STRING: JsonSchema = { type: 'string', format: 'uri' };

/** The schemas every resource refers to: generic resource objects, links, errors. */
export function sharedSchemas(): Record<string, JsonSchema> {
  return {
    CollectionMeta: {
      type: 'object',
      required: ['count'],
      properties: {
        count: { type: ['integer', 'null'], description: 'The number of matches with count=true (null otherwise); counting stops at 2000000.' },
        count_truncated: { type: 'boolean', description: 'True when counting stopped before the end.' },
      },
    },
    Error: {
      type: 'object',
      required: ['id', 'status', 'title', 'detail'],
      properties: {
        id: { type: 'string', description: 'A stable identifier of the kind of error, e.g. validationError.' },
        status: { type: 'string', description: 'The HTTP status as a string.' },
        title: { type: 'string' },
        detail: { type: 'string' },
        source: {
          type: 'object',
          properties: {
            pointer: { type: 'string', description: 'JSON pointer into the request body, e.g. /data/attributes/email.' },
            parameter: { type: 'string', description: 'The query parameter at fault.' },
          },
        },
      },
    },
    ErrorDocument: {
      type: 'object',
      required: ['errors'],
      properties: { errors: { type: 'array', minItems: 1, items: schemaRef('Error') } },
    },
    Included: {
      type: 'array',
      description: 'Resource objects named by include, each once.',
      items: schemaRef('Resource'),
    },
    PageLinks: {
      type: 'object',
      required: ['first'],
      description: 'Follow next until it is absent; cursors are signed, so take them from here.',
      properties: { first: URL_STRING, prev: URL_STRING, next: URL_STRING, last: URL_STRING },
    },
    Resource: {
      type: 'object',
      description: 'A resource object of any type.',
      required: ['type', 'id', 'attributes', 'relationships', 'links'],
      properties: {
        type: { type: 'string' },
        id: { type: 'integer' },
        attributes: { type: 'object' },
        relationships: { type: 'object' },
        links: selfLinks(),
        meta: { type: 'object' },
      },
    },
    ToManyRelationship: {
      type: 'object',
      required: ['links'],
      description: 'A link-only to-many relationship: links.related is the target collection filtered by this record.',
      properties: { links: { type: 'object', required: ['related'], properties: { related: URL_STRING } } },
    },
  };
}

function selfLinks(): JsonSchema {
  return { type: 'object', required: ['self'], properties: { self: URL_STRING } };
}

function identifier(target: string): JsonSchema {
  return {
    type: 'object',
    required: ['type', 'id'],
    properties: { type: { type: 'string', const: target }, id: { type: 'integer' } },
  };
}

function relationshipSchema(relationship: RelationshipDescriptor): JsonSchema {
  if (relationship.kind === 'toMany') return schemaRef('ToManyRelationship');
  const targets = relationship.kind === 'toOne' ? [relationship.target] : relationship.targets;
  return {
    type: 'object',
    required: ['data'],
    properties: { data: { anyOf: [...targets.map(identifier), { type: 'null' }] } },
  };
}

function renderedSchema(a: OpenApiAttribute): JsonSchema {
  const schema = a.rendered ?? a.schema;
  return a.readOnly ? { ...schema, readOnly: true } : schema;
}

/** A resource object as responses render it. */
function resourceObject(resource: OpenApiResource): JsonSchema {
  return {
    type: 'object',
    description: resource.description,
    required: ['type', 'id', 'attributes', 'relationships', 'links'],
    properties: {
      type: { type: 'string', const: resource.type },
      id: { type: 'integer' },
      attributes: {
        type: 'object',
        description: `Every attribute, null ones too, unless fields[${resource.type}] names fewer.`,
        // Write-only attributes (passwords) are taken on writes and never rendered.
        properties: Object.fromEntries(resource.attributes.filter((a) => !a.writeOnly).map((a) => [a.name, renderedSchema(a)])),
      },
      relationships: {
        type: 'object',
        properties: Object.fromEntries(resource.relationships.map((r) => [r.name, relationshipSchema(r)])),
      },
      links: selfLinks(),
      meta: { type: 'object' },
    },
  };
}

/**
 * A create or update body: the schema the server validates with (one builder for both), with
 * `type` narrowed to the resource's own and, on create, no `id` (ids are assigned).
 */
function writeBody(resource: OpenApiResource, operation: 'create' | 'update'): JsonSchema {
  const relationships = resource.relationships.filter(
    (r): r is ToOneDescriptor | PolymorphicToOneDescriptor => r.kind !== 'toMany' && (operation === 'create' ? r.writableOnCreate : r.writableOnUpdate),
  );
  const body = writeBodySchema({
    operation,
    attributes: resource.attributes.filter((a) => !a.readOnly).map((a) => ({ name: a.name, schema: a.schema, required: a.required })),
    relationships: relationships.map((r) => ({ name: r.name, target: r.kind === 'toOne' ? r.target : r.targets, required: r.required })),
  });
  const data = (body.properties as Record<string, JsonSchema>).data!;
  const { id, ...others } = data.properties as Record<string, JsonSchema>;
  const properties = { ...others, type: { type: 'string', const: resource.type }, ...(operation === 'update' && { id }) };
  return { ...body, properties: { data: { ...data, properties } } };
}

/** The components one resource adds: its resource object, documents and request bodies. */
export function resourceSchemas(resource: OpenApiResource): Record<string, JsonSchema> {
  const { type, operations } = resource;
  return {
    [schemaNames.resource(type)]: resourceObject(resource),
    [schemaNames.document(type)]: {
      type: 'object',
      required: ['data'],
      properties: { data: schemaRef(schemaNames.resource(type)), included: schemaRef('Included') },
    },
    [schemaNames.collection(type)]: {
      type: 'object',
      required: ['data', 'links', 'meta'],
      properties: {
        data: { type: 'array', items: schemaRef(schemaNames.resource(type)) },
        included: schemaRef('Included'),
        links: schemaRef('PageLinks'),
        meta: schemaRef('CollectionMeta'),
      },
    },
    ...(operations.create && { [schemaNames.create(type)]: writeBody(resource, 'create') }),
    ...(operations.update && { [schemaNames.update(type)]: writeBody(resource, 'update') }),
  };
}
