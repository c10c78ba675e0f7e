import { isObject, validationError, type FieldError } from '../jsonapi/index.js';

/** SPEC.md "Bulk upsert" rule 5: what a record carrying the id of an existing record does. */
export const DUPE_METHODS = ['skip', 'missing', 'overwrite', 'overwriteNoCreate'] as const;
export type DupeMethod = (typeof DUPE_METHODS)[number];

/** The two bulk upsert actions: standard resources, and the org's custom objects. */
export type UpsertAction = 'bulkUpsert' | 'customObjectBulkUpsert';

/** A bulk upsert request whose shape is right; each record's own body is checked later, alone. */
export interface UpsertRequest {
  readonly dupeMethod: DupeMethod;
  /** The one resource type of every record. */
  readonly type: string;
  /** Each record as submitted: `{data: {id?, type, attributes, relationships, meta?}}`. */
  readonly records: readonly Record<string, unknown>[];
}

const RECORDS = '/data/attributes/records';

/**
 * Reads `{data: {attributes: {dupeMethod?, records: [...]}}}`. Problems with the request as a
 * whole are a 422: no records, an unknown dupeMethod, a record that is not `{data: {type}}`, or
 * records of more than one type. A record that is a bad create or update body is not: it
 * becomes a batch item in state `error`, and its neighbours go ahead.
 */
export function parseUpsertRequest(body: Record<string, unknown>): UpsertRequest {
  const data = body.data;
  if (!isObject(data)) throw validationError([{ pointer: '/data', detail: 'The body must have a "data" object' }]);
  const attributes = data.attributes;
  if (!isObject(attributes)) throw validationError([{ pointer: '/data/attributes', detail: 'data.attributes must be an object with "records"' }]);
  const unknown = Object.keys(attributes).filter((name) => name !== 'dupeMethod' && name !== 'records');
  if (unknown.length) {
    throw validationError(
      unknown.map((name) => ({ pointer: `/data/attributes/${name}`, detail: `"${name}" is not a known attribute; a bulk upsert takes dupeMethod and records` })),
    );
  }
  const dupeMethod = attributes.dupeMethod ?? 'skip';
  if (!DUPE_METHODS.includes(dupeMethod as DupeMethod)) {
    throw validationError([{ pointer: '/data/attributes/dupeMethod', detail: `dupeMethod must be one of ${DUPE_METHODS.join(', ')}` }]);
  }
  const records = attributes.records;
  if (!Array.isArray(records) || records.length === 0) {
    throw validationError([{ pointer: RECORDS, detail: 'records must be a non-empty array of {data: {type, ...}} objects' }]);
  }
  return { dupeMethod: dupeMethod as DupeMethod, type: commonType(records), records: records as Record<string, unknown>[] };
}

/** The type every record names; each record must at least be `{data: {type: <string>}}`. */
function commonType(records: readonly unknown[]): string {
  const problems: FieldError[] = [];
  let type: string | undefined;
  for (const [index, record] of records.entries()) {
    const data = isObject(record) ? record.data : undefined;
    if (!isObject(data)) {
      problems.push({ pointer: `${RECORDS}/${index}/data`, detail: 'Each record must be an object with a "data" object' });
    } else if (typeof data.type !== 'string') {
      problems.push({ pointer: `${RECORDS}/${index}/data/type`, detail: 'Each record must name its type' });
    } else if (type === undefined) {
      type = data.type;
    } else if (data.type !== type) {
      problems.push({ pointer: `${RECORDS}/${index}/data/type`, detail: `All records of one request must have the same type: "${data.type}" is not "${type}"` });
    }
    // A handful of pointers says what is wrong; thousands would only be a larger answer.
    if (problems.length === 10) break;
  }
  if (problems.length) throw validationError(problems);
  return type!;
}
