import { badRequest } from './errors.js';

/** Nesting deeper than this is refused: no resource needs it and deep documents cost stack. */
const MAX_DEPTH = 32;

/** A JSON object: not null, not an array. The members of a request body are checked with it. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Parses a JSON:API request body. Malformed JSON, a non-object top level, nesting deeper than
 * MAX_DEPTH and NUL characters (PostgreSQL text cannot hold them) are 400s. JSON.parse makes
 * `__proto__` an own property, never the prototype, and the engine copies only known names.
 */
export function parseRequestBody(text: string): Record<string, unknown> {
  if (text.trim() === '') throw badRequest('invalidBody', 'The request body is empty; a JSON:API document is required');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest('invalidJson', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) {
    throw badRequest('invalidBody', 'The request body must be a JSON object with a top-level "data" member');
  }
  checkValue(parsed, 0);
  return parsed;
}

function checkValue(value: unknown, depth: number): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw badRequest('invalidBody', 'Strings must not contain the NUL character (\\u0000)');
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_DEPTH) throw badRequest('invalidBody', `The request body is nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (const item of value) checkValue(item, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    checkValue(key, depth + 1);
    checkValue((value as Record<string, unknown>)[key], depth + 1);
  }
}
