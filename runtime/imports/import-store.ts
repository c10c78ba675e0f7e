import { changesByName } from '../engine/record-rules.js';
import { createBatchRecord } from '../bulk/batch-records.js';
import { descriptors } from '../../generated/resources/index.js';
import type { Actor, RecordWriter } from '../engine/index.js';
import { enqueueJobs } from '../jobs/enqueue.js';
import type { Transaction } from '../tenancy/index.js';
import type { ImportDupeMethod } from './import-request.js';
import type { ImportAction } from './import-subjects.js';

/**
 * An import's records (SPEC.md "Import"): the `import` row clients track, and the batch it runs
 * in (`contextId` = the import id), whose items are the file's rows. The import row is written
 * through the record writer where it changes state (so `import.created` and `import.finished`
 * are events and webhooks like any), its counters by SQL with each segment of rows.
 */

export const IMPORT_TASK = 'csv_import';

/**
 * Attempts of an import job before the import fails. A worker killed mid-import costs one; the
 * next attempt resumes after the last segment that committed.
 */
export const IMPORT_MAX_ATTEMPTS = 10;

const importDescriptor = descriptors.get('import')!;

export interface NewImport {
  readonly orgId: number;
  readonly action: ImportAction;
  readonly resourceType: string;
  readonly importType: string;
  readonly storageKey: string;
  readonly fileSize: number;
  readonly recordCount: number;
  readonly dupeMethod: ImportDupeMethod;
  readonly mappings: Readonly<Record<string, unknown>>;
  readonly descriptive: Readonly<Record<string, string>>;
  readonly actor: Actor;
  readonly now: Date;
}

/**
 * Creates the import (state `progressing`), its batch and its job, in the caller's transaction.
 * Answers the import's id.
 */
export async function createImport(tx: Transaction, writer: RecordWriter, created: NewImport): Promise<number> {
  const at = created.now.toISOString();
  const values = {
    ...created.descriptive,
    state: 'progressing',
    stateChangedAt: at,
    importType: created.importType,
    dupeMethod: created.dupeMethod,
    mappings: created.mappings,
    fileSize: created.fileSize,
    total: created.recordCount,
    dupes: 0,
    failures: 0,
    frequency: 'once',
    recurring: false,
    loadFromPlugin: false,
  };
  const [outcome] = await writer.write({ tx, orgId: created.orgId, actor: created.actor }, [
    { kind: 'create', type: 'import', changes: changesByName(importDescriptor, values) },
  ]);
  if (outcome?.status !== 'written') throw new Error(`the import record was not written: ${JSON.stringify(outcome)}`);
  const importId = outcome.row.id;
  const finished = created.recordCount === 0;
  await createBatchRecord({ tx, writer, orgId: created.orgId, actor: created.actor }, created.now, {
    action: created.action,
    resourceType: created.resourceType,
    dupeMethod: created.dupeMethod,
    actor: created.actor,
    state: finished ? 'finished' : 'pending',
    total: created.recordCount,
    pending: created.recordCount,
    failures: 0,
    contextId: importId,
    contextType: 'import',
    payload: { storageKey: created.storageKey },
    startedAt: at,
    finishedAt: finished ? at : null,
  });
  await tx`update uploads set state = 'importing' where org_id = ${created.orgId} and storage_key = ${created.storageKey}`;
  await enqueueJobs(tx, [
    {
      task: IMPORT_TASK,
      payload: { orgId: created.orgId, importId },
      jobKey: `${IMPORT_TASK}:${created.orgId}:${importId}`,
      maxAttempts: IMPORT_MAX_ATTEMPTS,
      // Imports into one org's records of one type run one after the other (migration 0020), so
      // that two cannot both create a record for the same new key.
      queueName: `${IMPORT_TASK}:${created.orgId}:${created.resourceType}`,
    },
  ]);
  return importId;
}

/** What an import job needs of its import and batch. */
export interface ImportRun {
  readonly importId: number;
  readonly state: string;
  readonly mappings: Readonly<Record<string, unknown>>;
  readonly batchId: number;
  readonly batchState: string;
  readonly action: ImportAction;
  readonly dupeMethod: ImportDupeMethod;
  readonly actor: Actor;
  readonly storageKey: string;
  readonly total: number;
  /** Rows of the file already stored as items: the next run starts after them. */
  readonly rowsDone: number;
}

export async function loadImportRun(tx: Transaction, orgId: number, importId: number): Promise<ImportRun | undefined> {
  const [row] = await tx<(Omit<ImportRun, 'rowsDone' | 'storageKey'> & { pending: number; payload: { storageKey: string } })[]>`
    select i.id as "importId", i.state, i.mappings, b.id as "batchId", b.state as "batchState", b.action, b.dupe_method as "dupeMethod",
           b.actor, b.payload, b.total, b.pending
      from imports i
      join batches b on b.org_id = i.org_id and b.context_id = i.id and b.context_type = 'import'
     where i.org_id = ${orgId} and i.id = ${importId}`;
  if (!row) return undefined;
  const { pending, payload, ...run } = row;
  return { ...run, storageKey: payload.storageKey, rowsDone: run.total - pending };
}

/** Adds a segment's duplicates and failures to the import's counters. */
export async function countIntoImport(tx: Transaction, orgId: number, importId: number, counts: { dupes: number; failures: number }, now: Date): Promise<void> {
  await tx`
    update imports set dupes = coalesce(dupes, 0) + ${counts.dupes}, failures = coalesce(failures, 0) + ${counts.failures}, updated_at = ${now.toISOString()}
     where org_id = ${orgId} and id = ${importId}`;
}

/**
 * Ends the import: `finished`, or `failed` with the reason, through the record writer with the
 * `finished` event either way (SPEC.md: subscribe to import finished to know an import ended).
 * An import already ended stays as it is. The upload is kept a day from its link, as any.
 */
export async function endImport(
  tx: Transaction,
  writer: RecordWriter,
  run: Pick<ImportRun, 'importId' | 'storageKey' | 'actor'>,
  orgId: number,
  failure: string | undefined,
): Promise<void> {
  const changes = (current: Record<string, unknown>, now: Date) =>
    current.state !== 'progressing'
      ? { attributes: new Map(), relationships: new Map() }
      : {
          ...changesByName(importDescriptor, {
            state: failure === undefined ? 'finished' : 'failed',
            stateChangedAt: now.toISOString(),
            ...(failure !== undefined && { errorReason: failure }),
          }),
          domainEvent: 'finished',
        };
  await writer.write({ tx, orgId, actor: run.actor }, [{ kind: 'update', type: 'import', id: run.importId, changes }]);
  await tx`update uploads set state = 'imported' where org_id = ${orgId} and storage_key = ${run.storageKey} and state = 'importing'`;
}
