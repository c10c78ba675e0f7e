import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { failBatch, recordFinalItems } from '../bulk/batch-store.js';
import type { RecordWriter } from '../engine/index.js';
import { ApiError } from '../jsonapi/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { InvalidCsv, openCsv, type CsvRow } from './csv-records.js';
import { Claims, writeSegment, type Predecessor, type SegmentContext } from './import-segment.js';
import { countIntoImport, endImport, loadImportRun, type ImportRun } from './import-store.js';
import { IMPORT_SUBJECTS } from './import-subjects.js';
import { resolveMappings } from './mappings.js';
import { uploadedChunks } from './upload-chunks.js';

export interface ImportTaskDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  readonly log: Logger;
}

/**
 * Rows per transaction: one record-writer set (or a few, where rows duplicate each other), as
 * many as a bulk action's chunk. While the writer spent most of its time per row, 250 rows were
 * as fast as 500 or 1,000; once that time was cut, the statements per segment counted, and
 * 1,000 gave 0.39-0.48x COPY against 0.35-0.39x for 250 (four alternating rounds of 30,000
 * rows in `npm run bench`), for about 15 MB more of the worker's memory.
 */
export const SEGMENT_ROWS = 1000;

/**
 * Segments written at once, each in its own transaction (a database connection each), committing
 * in order. In the benchmark two gave 0.18-0.19x COPY, three 0.19-0.21x, four no more.
 */
export const SEGMENTS_IN_FLIGHT = 3;

/** The import cannot go on, whatever runs it again: the reason is the import's errorReason. */
class ImportFailure extends Error {}

/** Another run of the same import has written rows this one was about to: this one stops. */
class Superseded extends Error {}

/**
 * The graphile-worker task of a CSV import (SPEC.md "CSV import" steps 4-5): reads the uploaded
 * file from PostgreSQL as a stream and writes its rows in segments of SEGMENT_ROWS, each in one
 * transaction with its batch items, the batch's and the import's counters, the records' events
 * and their webhook jobs. A worker killed mid-import loses only the segment it was writing; the
 * job runs again and starts after the rows stored as items, so no row is applied twice. At the
 * end the import is `finished`; when it cannot go on (its file is gone or no longer matches its
 * mappings, or it kept failing), `failed` with the reason.
 */
export function csvImportTask(deps: ImportTaskDependencies): Task {
  return async (payload, helpers) => {
    const { orgId, importId } = payload as { orgId: number; importId: number };
    try {
      await runImport(deps, orgId, importId);
    } catch (error) {
      if (error instanceof Superseded) return;
      const fatal = error instanceof ImportFailure;
      if (!fatal && helpers.job.attempts < helpers.job.max_attempts) throw error;
      const reason = fatal ? error.message : `The import stopped ${helpers.job.attempts} times; the last error: ${(error as Error).message}`;
      deps.log.error({ err: error, orgId, importId, task: helpers.job.task_identifier }, 'import failed');
      await orgScopedTransaction(deps.sql, orgId, async (tx) => {
        const run = await loadImportRun(tx, orgId, importId);
        if (!run || run.state !== 'progressing') return;
        await failBatch(tx, deps.writer, orgId, run.batchId, reason, deps.clock());
        await endImport(tx, deps.writer, run, orgId, reason);
      });
    }
  };
}

/** The rows after the first `skip`, in segments of `size`. */
async function* segments(rows: AsyncIterable<CsvRow>, skip: number, size: number): AsyncGenerator<CsvRow[]> {
  let seen = 0;
  let segment: CsvRow[] = [];
  for await (const row of rows) {
    if (seen++ < skip) continue;
    segment.push(row);
    if (segment.length === size) {
      yield segment;
      segment = [];
    }
  }
  if (segment.length) yield segment;
}

/**
 * Locks the import's batch for this segment and checks no other run got ahead: the rows done
 * must be the ones this run counted. Answers the batch's state.
 */
async function claimSegment(tx: Transaction, orgId: number, run: ImportRun, rowsDone: number): Promise<string> {
  const [batch] = await tx<{ state: string; done: number }[]>`
    select state, total - pending as done from batches where org_id = ${orgId} and id = ${run.batchId} for no key update`;
  if (!batch || batch.done !== rowsDone) throw new Superseded();
  return batch.state;
}

/** A segment being written: what it writes, once planned, and its commit. */
interface InFlight {
  readonly claims: Promise<Claims>;
  readonly committed: Promise<void>;
}

/** The import's batch was canceled: the segment that finds it rolls back and the import ends. */
class Canceled extends Error {}

/**
 * Starts writing one segment in a transaction of its own: its rows (after `predecessor`'s, which
 * it waits for where it touches what that one writes), then, after `predecessor` has committed,
 * its items and counters, checking that the rows done are the ones before it.
 */
function writeInFlight(
  deps: ImportTaskDependencies,
  context: Omit<SegmentContext, 'tx'> & { importId: number; run: ImportRun },
  rows: readonly CsvRow[],
  rowsBefore: number,
  predecessor: Predecessor | undefined,
): InFlight {
  let announce!: (claims: Claims) => void;
  const claims = new Promise<Claims>((resolve) => (announce = resolve));
  const { orgId, importId, run } = context;
  const committed = orgScopedTransaction(deps.sql, orgId, async (tx) => {
    const startedAt = deps.clock();
    const results = await writeSegment({ ...context, tx }, rows, { predecessor, planned: announce });
    if (predecessor) await predecessor.committed;
    if ((await claimSegment(tx, orgId, run, rowsBefore)) === 'canceled') throw new Canceled();
    const now = deps.clock();
    await recordFinalItems(tx, deps.writer, orgId, run.batchId, results, startedAt, now);
    const failures = results.filter((r) => r.state === 'error').length;
    await countIntoImport(tx, orgId, importId, { dupes: results.filter((r) => r.dupe).length, failures }, now);
  });
  // Whoever waits on the claims learns of a failure before they were announced from the commit.
  const announced = Promise.race([claims, committed.then(() => claims)]);
  committed.catch(() => undefined);
  announced.catch(() => undefined);
  return { claims: announced, committed };
}

/**
 * What the segments still in flight write, together, and the commit of the last of them (which
 * commits after the others): a row touching any of it waits for that.
 */
async function predecessorOf(inFlight: readonly InFlight[]): Promise<Predecessor | undefined> {
  if (inFlight.length === 0) return undefined;
  const claims = new Claims();
  for (const segment of inFlight) claims.addAll(await segment.claims);
  return { claims, committed: inFlight[inFlight.length - 1]!.committed };
}

async function runImport(deps: ImportTaskDependencies, orgId: number, importId: number): Promise<void> {
  const run = await orgScopedTransaction(deps.sql, orgId, (tx) => loadImportRun(tx, orgId, importId), { readOnly: true });
  if (!run || run.state !== 'progressing') return;
  const subject = IMPORT_SUBJECTS.get(run.action);
  if (!subject) throw new ImportFailure(`${run.action} is not an import action of this version of Cadence`);

  let file;
  let columns;
  try {
    file = await openCsv(uploadedChunks(deps.sql, orgId, run.storageKey));
    columns = resolveMappings(subject.descriptor, file.headers, run.mappings);
  } catch (error) {
    if (error instanceof InvalidCsv) throw new ImportFailure(`The uploaded file can no longer be read: ${error.message}`);
    if (error instanceof ApiError) throw new ImportFailure(`The mappings no longer fit: ${error.errors.map((e) => e.detail).join('; ')}`);
    throw error;
  }

  const context = { orgId, actor: run.actor, writer: deps.writer, subject, headers: file.headers, columns, dupeMethod: run.dupeMethod };
  const pieces = segments(file.rows, run.rowsDone, SEGMENT_ROWS)[Symbol.asyncIterator]();
  let rowsDone = run.rowsDone;
  // Segments overlap, each in a transaction of its own: the next is planned and written while
  // the ones before finish, and commits after them (so the items stored are always the file's
  // first rows, where a run resumes). The next one starts once the ones before have planned
  // their rows, so that it knows what they write and waits for them where it touches that.
  const inFlight: InFlight[] = [];
  try {
    for (;;) {
      const piece = await pieces.next();
      if (piece.done) break;
      const rows = piece.value;
      if (inFlight.length >= SEGMENTS_IN_FLIGHT) await inFlight.shift()!.committed;
      const predecessor = await predecessorOf(inFlight);
      const first = rowsDone;
      rowsDone += rows.length;
      inFlight.push(writeInFlight(deps, { ...context, importId, run }, rows, first, predecessor));
    }
    await Promise.all(inFlight.map((f) => f.committed));
  } catch (error) {
    // No transaction of this run outlives it: the next attempt starts from what committed.
    await Promise.allSettled(inFlight.map((f) => f.committed));
    if (error instanceof Canceled) throw new ImportFailure("The import's batch was canceled; the rows imported before then stay imported (its items say which)");
    throw error;
  }
  await orgScopedTransaction(deps.sql, orgId, async (tx) => {
    await claimSegment(tx, orgId, run, rowsDone);
    const failure = rowsDone === run.total ? undefined : `The file has ${rowsDone} rows, not the ${run.total} it was validated with`;
    if (failure) await failBatch(tx, deps.writer, orgId, run.batchId, failure, deps.clock());
    await endImport(tx, deps.writer, run, orgId, failure);
  });
}
