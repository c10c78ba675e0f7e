/**
 * Resource ids are bigint columns but plain numbers in JS and in documents: the sequences keep
 * them far below 2^53. An id a client sends (in a path, a token) is read here, as text, and only
 * the canonical decimal form of a safe integer can name a record. Anything else (zero, leading
 * zeros, a value past Number.MAX_SAFE_INTEGER that a JS number would round to another id, or
 * past what bigint holds) names no record: the caller answers 404, never a database error.
 */

/** The largest id the API accepts anywhere: beyond it a JS number could no longer tell ids apart. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

/** The id `text` names, or undefined when it can name no record. */
export function parseId(text: string | undefined): number | undefined {
  if (text === undefined || !CANONICAL_ID.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_ID ? id : undefined;
}

/**
 * Whether a body's `data.id` names the record in the path: a JSON:API string id or a bare
 * number, never another JSON value that happens to print the same (the array [5]).
 */
export function isPathId(given: unknown, pathId: number | undefined): boolean {
  return (typeof given === 'string' || typeof given === 'number') && String(given) === String(pathId);
}
