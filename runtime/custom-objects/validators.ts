import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { writeBodySchema } from '../engine/body-schema.js';
import type { BodyValidator } from '../engine/index.js';
import type { Definition, FieldDefinition } from './definition.js';

const addFormats = addFormatsModule.default;

/** Strings of custom objects are bounded like standard resources' long text. */
const MAX_STRING = 32000;

/** The JSON Schema of a field's value in a write (also what the OpenAPI document shows). */
export function fieldSchema(field: FieldDefinition): Record<string, unknown> {
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

function bodySchema(definition: Definition, operation: 'create' | 'update') {
  return writeBodySchema({
    operation,
    attributes: definition.fields.map((f) => ({ name: f.name, schema: fieldSchema(f), required: f.required })),
    relationships: definition.relationships.flatMap((r) => ('slot' in r ? [{ name: r.name, target: r.target, required: false }] : [])),
  });
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
