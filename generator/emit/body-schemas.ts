import { writeBodySchema, type JsonSchema } from '../../runtime/engine/body-schema.js';
import type { AttributeModel, PolymorphicToOneModel, ResourceModel, ToOneModel } from '../model.js';

/**
 * JSON Schemas of create and update request bodies, compiled by Ajv into standalone validators.
 * Read-only attributes and non-writable relationships are left out here; the engine refuses
 * them by name before validation, with a clearer message than "additional property".
 */

const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;

/** Formats Ajv checks; `html` is documentation only. */
const CHECKED_FORMATS = new Set(['date-time', 'date', 'email', 'uri']);

function scalarSchema(type: string, options: { format?: string | undefined; maxLength?: number | undefined }): JsonSchema {
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

function bodySchema(resource: ResourceModel, operation: 'create' | 'update'): JsonSchema {
  const relationships = resource.relationships.filter(
    (r): r is ToOneModel | PolymorphicToOneModel => r.kind !== 'toMany' && (operation === 'create' ? r.writableOnCreate : r.writableOnUpdate),
  );
  const shape = writeBodySchema({
    operation,
    attributes: resource.attributes.filter((a) => !a.readOnly).map((a) => ({ name: a.name, schema: attributeValueSchema(a), required: a.required })),
    relationships: relationships.map((r) => ({ name: r.name, target: r.kind === 'toOne' ? r.target : r.targets, required: r.required })),
  });
  return { $id: operation, ...shape };
}

export function createBodySchema(resource: ResourceModel): JsonSchema {
  return bodySchema(resource, 'create');
}

export function updateBodySchema(resource: ResourceModel): JsonSchema {
  return bodySchema(resource, 'update');
}
