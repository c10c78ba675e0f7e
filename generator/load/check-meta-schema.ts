import { Ajv, type ErrorObject } from 'ajv';
import metaSchema from './meta-schema.json' with { type: 'json' };
import { SchemaFileError } from '../model.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const validateResourceFile = ajv.compile(metaSchema);

/**
 * Checks one parsed schema file against the meta-schema. The fault reported is the deepest
 * one, because with `oneOf` branches the shallow errors only say "no branch matched".
 */
export function checkMetaSchema(file: string, json: unknown): void {
  if (validateResourceFile(json)) return;
  const errors = validateResourceFile.errors ?? [];
  const deepest = errors.reduce<ErrorObject | undefined>((best, error) => (!best || error.instancePath.length > best.instancePath.length ? error : best), undefined);
  const pointer = deepest?.instancePath || '';
  const detail = deepest ? describe(deepest) : 'does not match the meta-schema';
  throw new SchemaFileError(file, pointer, detail);
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `unknown key "${String(params.additionalProperty)}"`;
  if (error.keyword === 'required') return `missing key "${String(params.missingProperty)}"`;
  if (error.keyword === 'enum') return `${error.message} (${JSON.stringify(params.allowedValues)})`;
  if (error.keyword === 'const') return `must be ${JSON.stringify(params.allowedValue)}`;
  return error.message ?? 'does not match the meta-schema';
}
