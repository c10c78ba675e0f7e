import { turnOfEventLoop } from '../slices.js';
import { badRequest } from './errors.js';

/** Nesting deeper than this is refused: no resource needs it and deep documents cost stack. */
const MAX_DEPTH = 32;

/** A JSON object: not null, not an array. The members of a request body are checked with it. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Values checked between two turns of the event loop in parseLargeRequestBody: about a millisecond's work. */
const CHECK_SLICE = 10_000;

/**
 * Parses a JSON:API request body. Malformed JSON, a non-object top level, nesting deeper than
 * MAX_DEPTH and NUL characters (PostgreSQL text cannot hold them) are 400s. JSON.parse makes
 * `__proto__` an own property, never the prototype, and the engine copies only known names.
 */
export function parseRequestBody(text: string): Record<string, unknown> {
  const parsed = parseJson(text);
  for (const slice of checkedSlices(parsed)) void slice;
  return parsed;
}

/**
 * parseRequestBody for bodies far larger than a record (a bulk upsert's 2 MB): JSON.parse runs
 * in one go (about 10-20 ms for 2 MB), the checks of its values in slices with a turn of the
 * event loop between them, so that other requests are answered meanwhile (issue #25).
 */
export async function parseLargeRequestBody(text: string): Promise<Record<string, unknown>> {
  const parsed = parseJson(text);
  for (const slice of checkedSlices(parsed)) {
    void slice;
    await turnOfEventLoop();
  }
  return parsed;
}

function parseJson(text: string): Record<string, unknown> {
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
  return parsed;
}

/**
 * Checks every key and value of the body depth-first in document order, throwing at the first
 * it refuses; yields after every CHECK_SLICE of them. The walk keeps its own stack, so that it
 * can stop between any two values.
 */
function* checkedSlices(root: Record<string, unknown>): Generator<void> {
  const values: unknown[] = [root];
  const depths: number[] = [0];
  for (let checked = 1; values.length; checked++) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (checked % CHECK_SLICE === 0) yield;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw badRequest('invalidBody', 'Strings must not contain the NUL character (\\u0000)');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) throw badRequest('invalidBody', `The request body is nested deeper than ${MAX_DEPTH} levels`);
    // Pushed last to first, so that they are popped, and checked, first to last.
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        values.push(value[index]);
        depths.push(depth + 1);
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let index = keys.length - 1; index >= 0; index--) {
      values.push((value as Record<string, unknown>)[keys[index]!], keys[index]);
      depths.push(depth + 1, depth + 1);
    }
  }
}
