import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { BodyValidator } from '../engine/index.js';
import type { Definition, FieldDefinition } from './definition.js';

const addFormats = addFormatsModule.default;

/** Strings of custom objects are bounded like standard resources' long text. */
const MAX_STRING = 32000;
const ID_SCHEMA = { anyOf: [{ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, { type: 'string', pattern: '^[1-9][0-9]{0,14}$' }] };

function fieldSchema(field: FieldDefinition): Record<string, unknown> {
  const base: Record<string, unknown> =
    field.type === 'date-time'
      ? { type: 'string', format: 'date-time' }
      : field.type === 'string'
        ? { type: 'string', maxLength: MAX_STRING }
        : field.type === 'integer'
          ? { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }
          : { type: field.type };
  return field.required ? base : { ...base, type: [base.type, 'null'] };
}

function bodySchema(definition: Definition, operation: 'create' | 'update'): Record<string, unknown> {
  const required = operation === 'create' ? definition.fields.filter((f) => f.required).map((f) => f.name) : [];
  const identifier = (target: string) => ({
    type: 'object',
    required: ['type', 'id'],
    additionalProperties: false,
    properties: { type: { const: target }, id: ID_SCHEMA, meta: { type: 'object' } },
  });
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['type', ...(operation === 'update' ? ['id'] : []), ...(required.length ? ['attributes'] : [])],
        additionalProperties: false,
        properties: {
          type: { type: 'string' },
          id: operation === 'update' ? ID_SCHEMA : {},
          attributes: {
            type: 'object',
            required,
            additionalProperties: false,
            properties: Object.fromEntries(definition.fields.map((f) => [f.name, fieldSchema(f)])),
          },
          relationships: {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(
              definition.relationships.map((r) => [
                r.name,
                { type: 'object', required: ['data'], additionalProperties: false, properties: { data: { anyOf: [{ type: 'null' }, identifier(r.target)] }, meta: { type: 'object' } } },
              ]),
            ),
          },
          meta: { type: 'object' },
          links: { type: 'object' },
        },
      },
    },
  };
}

/**
 * Create and update validators compiled from a definition at run time: the same checks the
 * generator compiles ahead of time for standard resources. Callers cache them per definition
 * version, since compiling costs milliseconds.
 */
export function compileValidators(definition: Definition): { validateCreate: BodyValidator; validateUpdate: BodyValidator } {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  return {
    validateCreate: ajv.compile(bodySchema(definition, 'create')) as BodyValidator,
    validateUpdate: ajv.compile(bodySchema(definition, 'update')) as BodyValidator,
  };
}
