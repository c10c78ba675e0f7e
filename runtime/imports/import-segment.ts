import type { Actor, AttributeDescriptor, RecordWriter, WriteOperation, WriteOutcome } from '../engine/index.js';
import { readWriteBody, type WriteInput } from '../engine/write-input.js';
import { ApiError, resourceNotFound, type ErrorObject } from '../jsonapi/index.js';
import { changesOf, fillingEmpty } from '../bulk/record-plan.js';
import type { Transaction } from '../tenancy/index.js';
import type { CsvRow } from './csv-records.js';
import { findExisting, keyValues, type ExistingRecords } from './duplicates.js';
import type { ImportDupeMethod } from './import-request.js';
import type { ImportSubject } from './import-subjects.js';
import type { ColumnMapping } from './mappings.js';
import { rowValues, type RowValues } from './row-values.js';

/**
 * One segment of an import's rows, written in the caller's transaction (import-task.ts): each
 * row converted, checked for duplicates (SPEC.md "CSV import" rules 3-5) and written through
 * the record writer with its neighbours, one set per table. What each row came to is its batch
 * item.
 *
 * Rows are applied as if one after the other: a row that duplicates an earlier row of the
 * file finds the record that row made. Rows written together keep that because a row that
 * touches what an earlier row of the same set writes (the same record, or one of the key values
 * it gives a record) ends the set: it and the rows after it go into the next set, which looks
 * duplicates up again and so sees the earlier rows' records. A row that touches what segments
 * still in flight write (their transactions' rows are not visible here yet) ends the set too,
 * and the next set waits for them to commit.
 */

export interface SegmentContext {
  readonly tx: Transaction;
  readonly orgId: number;
  readonly actor: Actor;
  readonly writer: RecordWriter;
  readonly subject: ImportSubject;
  readonly headers: readonly string[];
  readonly columns: readonly ColumnMapping[];
  readonly dupeMethod: ImportDupeMethod;
}

/** What a row came to, as its batch item. `dupe`: it duplicates a record (counted in the import's `dupes`). */
export interface RowResult {
  readonly data: string;
  readonly state: 'success' | 'skipped' | 'error';
  readonly itemId: number | null;
  readonly errors?: readonly ErrorObject[];
  readonly info?: string;
  readonly dupe: boolean;
}

/** A row whose cells converted, waiting to be written. */
interface Candidate {
  readonly position: number;
  /** The row as its batch item stores it. */
  readonly data: string;
  readonly line: number;
  readonly values: RowValues;
  /** Lower-cased values of every import key the row sets. */
  readonly keys: ReadonlyMap<AttributeDescriptor, readonly string[]>;
}

function rowData(headers: readonly string[], row: CsvRow): string {
  if (!('values' in row)) return JSON.stringify({ line: row.line });
  return JSON.stringify({ line: row.line, values: Object.fromEntries(headers.map((header, i) => [header, row.values[i] ?? ''])) });
}

function rowError(line: number, detail: string, pointer?: string): ErrorObject {
  return { id: 'invalidRow', status: '422', title: 'Invalid Row', detail: `Line ${line}: ${detail}`, ...(pointer && { source: { pointer } }) };
}

/** A row that failed, with why, and no record. */
function failedRow(data: string, errors: readonly ErrorObject[]): RowResult {
  return { data, state: 'error', itemId: null, errors, dupe: false };
}

/** A write refusal's errors, their details saying the line and, where it is one, the column. */
function rowErrors(line: number, errors: readonly ErrorObject[], columns: readonly ColumnMapping[]): ErrorObject[] {
  return errors.map((error) => {
    const pointer = error.source?.pointer;
    const field = pointer?.match(/^\/data\/(?:attributes|relationships)\/([^/]+)/)?.[1];
    const column = field === undefined ? undefined : columns.find((c) => c.fieldName === field);
    const where = column ? `column "${column.header}" (${column.fieldName}): ` : '';
    return { ...error, detail: `Line ${line}: ${where}${error.detail ?? ''}` };
  });
}

function keysOf(subject: ImportSubject, values: RowValues): Map<AttributeDescriptor, string[]> {
  const keys = new Map<AttributeDescriptor, string[]>();
  for (const attribute of subject.keys) {
    const found = keyValues(attribute, values.attributes[attribute.name]);
    if (found.length) keys.set(attribute, found);
  }
  return keys;
}

/** The record a row duplicates: the one with its id, else with its first import key's value. */
function duplicateOf(subject: ImportSubject, candidate: Candidate, existing: ExistingRecords): number | undefined {
  if (candidate.values.id !== undefined) return candidate.values.id;
  for (const attribute of subject.keys) {
    const values = candidate.keys.get(attribute);
    if (!values) continue;
    const ids = values.map((v) => existing.byKey.get(attribute)?.get(v)).filter((id): id is number => id !== undefined);
    return ids.length ? Math.min(...ids) : undefined;
  }
  return undefined;
}

/**
 * What a set of rows writes: the records it updates and the key values it gives records. A row
 * that touches either must wait until they are written, or it could not see them.
 */
export class Claims {
  private readonly records = new Set<number>();
  private readonly keys = new Map<AttributeDescriptor, Set<string>>();

  touches(candidate: Candidate, duplicate: number | undefined): boolean {
    if (duplicate !== undefined && this.records.has(duplicate)) return true;
    return [...candidate.keys].some(([a, values]) => values.some((v) => this.keys.get(a)?.has(v)));
  }

  add(candidate: Candidate, record: number | undefined): void {
    if (record !== undefined) this.records.add(record);
    for (const [a, values] of candidate.keys) this.claimKeys(a, values);
  }

  addAll(other: Claims): void {
    for (const id of other.records) this.records.add(id);
    for (const [a, values] of other.keys) this.claimKeys(a, values);
  }

  private claimKeys(attribute: AttributeDescriptor, values: Iterable<string>): void {
    const claimed = this.keys.get(attribute) ?? new Set<string>();
    for (const v of values) claimed.add(v);
    this.keys.set(attribute, claimed);
  }
}

/**
 * The segments before this one still in flight, each written by a transaction of its own that
 * has not committed yet (import-task.ts). Their records are invisible here until they commit,
 * so a row that touches what they write waits for that.
 */
export interface Predecessor {
  readonly claims: Claims;
  /** Settles once the last of them has committed (they commit in order); rejects if one failed. */
  readonly committed: Promise<unknown>;
}

export interface SegmentOptions {
  readonly predecessor?: Predecessor | undefined;
  /** Told, once every row is planned and before the last set is written, what the segment writes. */
  readonly planned?: (claims: Claims) => void;
}

/** Writes one segment's rows; answers each row's result in their order. */
export async function writeSegment(context: SegmentContext, rows: readonly CsvRow[], options: SegmentOptions = {}): Promise<RowResult[]> {
  const results: RowResult[] = new Array<RowResult>(rows.length);
  let waiting: Candidate[] = [];
  rows.forEach((row, position) => {
    const data = rowData(context.headers, row);
    if ('malformed' in row) {
      results[position] = failedRow(data, [rowError(row.line, row.malformed)]);
      return;
    }
    const values = rowValues(context.columns, row.values);
    if (values.problems.length) {
      const errors = values.problems.map((p) => rowError(row.line, `column "${p.header}" (${p.fieldName}): ${p.detail}`, p.pointer));
      results[position] = failedRow(data, errors);
      return;
    }
    waiting.push({ position, data, line: row.line, values, keys: keysOf(context.subject, values) });
  });
  const segmentClaims = new Claims();
  if (waiting.length === 0) options.planned?.(segmentClaims);
  let predecessor = options.predecessor;
  while (waiting.length) {
    const set = await planSet(context, waiting, results, predecessor?.claims);
    segmentClaims.addAll(set.claims);
    if (set.rest.length === 0) options.planned?.(segmentClaims);
    await writePlanned(context, set.planned, results);
    if (set.waitsForPredecessor) {
      await predecessor!.committed;
      predecessor = undefined;
    }
    waiting = set.rest;
  }
  return results;
}

/** What a written candidate comes to once the writer answers. */
interface Planned {
  readonly candidate: Candidate;
  readonly operation: WriteOperation;
  /** The record it duplicates, for an update. */
  readonly duplicate?: number;
}

interface PlannedSet {
  readonly planned: readonly Planned[];
  readonly claims: Claims;
  /** Rows left for the next set, from the first that touches what this set or the segment before writes. */
  readonly rest: Candidate[];
  /** The next set must wait for the segment before to commit. */
  readonly waitsForPredecessor: boolean;
}

/**
 * Looks up the duplicates of the waiting rows and plans as many of them, in order, as can be
 * written together; the rest wait for the next set.
 */
async function planSet(context: SegmentContext, waiting: readonly Candidate[], results: RowResult[], before: Claims | undefined): Promise<PlannedSet> {
  const { subject } = context;
  const ids = waiting.flatMap((c) => (c.values.id === undefined ? [] : [c.values.id]));
  const wanted = new Map<AttributeDescriptor, string[]>(subject.keys.map((a) => [a, waiting.flatMap((c) => c.keys.get(a) ?? [])]));
  const existing = await findExisting(context.tx, context.orgId, subject, ids, wanted);

  const planned: Planned[] = [];
  const claims = new Claims();
  for (const [n, candidate] of waiting.entries()) {
    const { position, line, values } = candidate;
    const duplicate = duplicateOf(subject, candidate, existing);
    const waitsForPredecessor = before?.touches(candidate, duplicate) ?? false;
    if (waitsForPredecessor || claims.touches(candidate, duplicate)) return { planned, claims, rest: waiting.slice(n), waitsForPredecessor };
    if (duplicate !== undefined && !existing.ids.has(duplicate) && values.id !== undefined) {
      results[position] = failedRow(candidate.data, [rowError(line, `no ${subject.descriptor.type} has id ${values.id}`, '/data/id')]);
      continue;
    }
    if (duplicate !== undefined && context.dupeMethod === 'skip') {
      const info = `Line ${line}: a duplicate of ${subject.descriptor.type} ${duplicate}; skipped`;
      results[position] = { data: candidate.data, state: 'skipped', itemId: duplicate, info, dupe: true };
      continue;
    }
    let input: WriteInput;
    try {
      input = readBody(context, values, duplicate);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results[position] = failedRow(candidate.data, rowErrors(line, error.errors, context.columns));
      continue;
    }
    const type = subject.descriptor.type;
    if (duplicate === undefined) {
      planned.push({ candidate, operation: { kind: 'create', type, changes: changesOf(input) } });
    } else {
      const changes = context.dupeMethod === 'missing' ? fillingEmpty(input) : changesOf(input);
      planned.push({ candidate, operation: { kind: 'update', type, id: duplicate, changes }, duplicate });
    }
    claims.add(candidate, duplicate);
  }
  return { planned, claims, rest: [], waitsForPredecessor: false };
}

/** The row as a create body, or as an update body of the record it duplicates, checked by the resource's validator. */
function readBody(context: SegmentContext, values: RowValues, duplicate: number | undefined): WriteInput {
  const { descriptor, validateCreate, validateUpdate } = context.subject;
  const data = { type: descriptor.type, attributes: values.attributes, relationships: values.relationships };
  if (duplicate === undefined) return readWriteBody(descriptor, { data }, 'create', validateCreate);
  return readWriteBody(descriptor, { data: { ...data, id: String(duplicate) } }, 'update', validateUpdate, duplicate);
}

async function writePlanned(context: SegmentContext, planned: readonly Planned[], results: RowResult[]): Promise<void> {
  if (planned.length === 0) return;
  const scope = { tx: context.tx, orgId: context.orgId, actor: context.actor, isolated: true };
  const outcomes = await context.writer.write(
    scope,
    planned.map((p) => p.operation),
  );
  planned.forEach((p, i) => (results[p.candidate.position] = resultOf(context, p, outcomes[i]!)));
}

function resultOf(context: SegmentContext, planned: Planned, outcome: WriteOutcome): RowResult {
  const { line, data } = planned.candidate;
  const type = context.subject.descriptor.type;
  const dupe = planned.duplicate !== undefined;
  if (outcome.status === 'written') {
    const info = dupe
      ? `Line ${line}: a duplicate of ${type} ${planned.duplicate}; ${context.dupeMethod === 'missing' ? 'its empty fields filled' : 'overwritten'}`
      : undefined;
    return { data, state: 'success', itemId: outcome.row.id, dupe, ...(info && { info }) };
  }
  if (outcome.status === 'missing') {
    const { errors } = resourceNotFound(`Line ${line}: ${type} ${planned.duplicate} was deleted while the row was imported`);
    return { data, state: 'error', itemId: null, errors, dupe: false };
  }
  return { data, state: 'error', itemId: null, errors: rowErrors(line, outcome.error.errors, context.columns), dupe: false };
}
