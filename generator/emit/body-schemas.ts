import type { AttributeModel, ResourceModel, ToOneModel } from '../model.js';

/**
 * JSON Schemas of create and update request bodies, compiled by Ajv into standalone validators.
 * Read-only attributes and non-writable relationships are left out here; the engine refuses
 * them by name before validation, with a clearer message than "additional property".
 */

type JsonSchema = Record<string, unknown>;

const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;

/** Formats Ajv checks; `html` is documentation only. */
const CHECKED_FORMATS = new Set(['date-time', 'date', 'email', 'uri']);

function scalarSchema(
  type: string,
  options: { format?: string | undefined; maxLength?: number | undefined },
): JsonSchema {
  const schema: JsonSchema = { type };
  if (type === 'integer') Object.assign(schema, { minimum: INT4_MIN, maximum: INT4_MAX });
  if (options.format && CHECKED_FORMATS.has(options.format)) schema.format = options.format;
  if (options.maxLength !== undefined) schema.maxLength = options.maxLength;
  return schema;
}

export function attributeValueSchema(a: AttributeModel): JsonSchema {
  let schema: JsonSchema;
  if (a.type === 'array') {
    schema = { type: 'array', items: scalarSchema(a.items!.type, a.items!), maxItems: a.maxItems ?? 1000 };
  } else {
    schema = scalarSchema(a.type, a);
    if (a.minimum !== undefined) schema.minimum = a.minimum;
    if (a.maximum !== undefined) schema.maximum = a.maximum;
    if (a.pattern !== undefined) schema.pattern = a.pattern;
  }
  if (a.enum) schema.enum = a.required ? a.enum : [...a.enum, null];
  if (!a.required) schema.type = [schema.type, 'null'];
  return schema;
}

const ID_SCHEMA = {
  anyOf: [
    { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    { type: 'string', pattern: '^[1-9][0-9]{0,14}$' },
  ],
};

function toOneSchema(rel: ToOneModel): JsonSchema {
  const identifier = {
    type: 'object',
    required: ['type', 'id'],
    additionalProperties: false,
    properties: { type: { const: rel.target }, id: ID_SCHEMA, meta: { type: 'object' } },
  };
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data: rel.required ? identifier : { anyOf: [{ type: 'null' }, identifier] }, meta: { type: 'object' } },
  };
}

function bodySchema(resource: ResourceModel, operation: 'create' | 'update'): JsonSchema {
  const attributes = resource.attributes.filter((a) => !a.readOnly);
  const relationships = resource.relationships.filter(
    (r): r is ToOneModel => r.kind === 'toOne' && (operation === 'create' ? r.writableOnCreate : r.writableOnUpdate),
  );
  const requiredAttributes = operation === 'create' ? attributes.filter((a) => a.required).map((a) => a.name) : [];
  const requiredRelationships = operation === 'create' ? relationships.filter((r) => r.required).map((r) => r.name) : [];
  const data: JsonSchema = {
    type: 'object',
    required: [
      'type',
      ...(operation === 'update' ? ['id'] : []),
      ...(requiredAttributes.length ? ['attributes'] : []),
      ...(requiredRelationships.length ? ['relationships'] : []),
    ],
    additionalProperties: false,
    properties: {
      type: { type: 'string' },
      id: operation === 'update' ? ID_SCHEMA : {},
      attributes: {
        type: 'object',
        required: requiredAttributes,
        additionalProperties: false,
        properties: Object.fromEntries(attributes.map((a) => [a.name, attributeValueSchema(a)])),
      },
      relationships: {
        type: 'object',
        required: requiredRelationships,
        additionalProperties: false,
        properties: Object.fromEntries(relationships.map((r) => [r.name, toOneSchema(r)])),
      },
      meta: { type: 'object' },
      links: { type: 'object' },
    },
  };
  return { $id: operation, type: 'object', required: ['data'], properties: { data } };
}

export function createBodySchema(resource: ResourceModel): JsonSchema {
  return bodySchema(resource, 'create');
}

export function updateBodySchema(resource: ResourceModel): JsonSchema {
  return bodySchema(resource, 'update');
}
