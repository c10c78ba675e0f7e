import type { Actor, RecordWriter } from '../../engine/index.js';
import type { Transaction } from '../../tenancy/index.js';
import { SqlParams } from '../../query/index.js';
import { enqueueChunkRanges, pendingItemRanges, type FailureSummary } from '../batch-store.js';
import { createBatchRecord, updateBatchRecord, type BatchWriteScope } from '../batch-records.js';
import { MAX_BULK_ACTION_RECORDS } from './selection.js';

/**
 * Batches of bulk actions in SQL: made with one item per selected record (the snapshot the
 * batch applies to), started with one chunk job per thousand items, and emptied of pending
 * items when canceled before they started. Every function runs in the caller's org-scoped
 * transaction.
 */

export const ACTION_CHUNK_TASK = 'bulk_action_chunk';

/**
 * A batch over more records than this must be confirmed with `confirmedCount`, as deletes
 * always must: a filter that matches far more than meant should not run on one click.
 */
export const CONFIRMED_COUNT_REQUIRED_ABOVE = 1000;

export interface NewActionBatch {
  readonly orgId: number;
  readonly action: string;
  readonly resourceType: string;
  readonly actor: Actor;
  readonly now: Date;
  /** What the batch was asked to do, shown as its `payload`; `parameters` is what the chunks read. */
  readonly payload: Readonly<Record<string, unknown>>;
  /** The records it applies to: `select t."id" as id from …` over `selectionParams`, `$1` the org (selection.ts). */
  readonly selection: string;
  readonly selectionParams: SqlParams;
  readonly skipConfirmation: boolean;
  readonly destructive: boolean;
}

/** The batch made, and whether it is processing (so its items are to be charged to the allowance now). */
export interface MadeBatch {
  readonly batchId: number;
  readonly started: boolean;
  readonly count: number;
}

/**
 * Inserts the batch: `failed` at once over MAX_BULK_ACTION_RECORDS (nothing applied, no items),
 * else `confirming`, or `pending` and started when confirmation is skipped. The items are copied
 * from the selection by one INSERT … SELECT: a hundred thousand ids never leave PostgreSQL.
 */
export async function createActionBatch(tx: Transaction, writer: RecordWriter, batch: NewActionBatch): Promise<MadeBatch> {
  const at = batch.now.toISOString();
  const { selection, selectionParams } = batch;
  const scope: BatchWriteScope = { tx, writer, orgId: batch.orgId, actor: batch.actor };
  const [counted] = await tx.unsafe<{ n: number }[]>(
    `select count(*)::int as n from (${selection} limit ${MAX_BULK_ACTION_RECORDS + 1}) selected`,
    selectionParams.values as never[],
  );
  const made = { action: batch.action, resourceType: batch.resourceType, actor: batch.actor, payload: batch.payload, failures: 0 };
  if (counted!.n > MAX_BULK_ACTION_RECORDS) {
    const summary: FailureSummary = {
      failures: 0,
      errors: {},
      fatal: `The action matches more than ${MAX_BULK_ACTION_RECORDS} records, the most one bulk action may change; narrow actionParams[filter] or split it by ids`,
    };
    const batchId = await createBatchRecord(scope, batch.now, { ...made, state: 'failed', total: 0, pending: 0, summary, finishedAt: at });
    return { batchId, started: false, count: 0 };
  }
  // Created with the count just taken, so batch.created tells what the batch applies to.
  const expected = counted!.n;
  const batchId = await createBatchRecord(scope, batch.now, {
    ...made,
    state: batch.skipConfirmation ? 'pending' : 'confirming',
    ...countsOf(expected, batch.destructive),
    startedAt: batch.skipConfirmation ? at : null,
  });
  // The limit keeps the copy within what was counted, should records be added meanwhile.
  const values = new SqlParams(selectionParams.values);
  const inserted = await tx.unsafe(
    `insert into batch_items (org_id, batch_id, item_id, data, state, failed, created_at, updated_at)
     select $1, ${values.add(batchId)}::bigint, s.id, format('{"type":%s,"id":"%s"}', to_json(${values.add(batch.resourceType)}::text), s.id), 'pending', false,
            ${values.add(at)}::timestamptz, ${values.add(at)}::timestamptz
       from (${selection} order by t."id" limit ${MAX_BULK_ACTION_RECORDS}) s
      order by s.id`,
    values.values as never[],
  );
  const count = inserted.count;
  // Records removed between the count and the copy (each statement sees its own snapshot).
  if (count !== expected) await updateBatchRecord(scope, batchId, batch.now, countsOf(count, batch.destructive));
  if (batch.skipConfirmation) await startActionBatch(scope, batchId, batch.now);
  return { batchId, started: batch.skipConfirmation, count };
}

function countsOf(count: number, destructive: boolean) {
  return { confirmCount: count, confirmedCountRequired: destructive || count > CONFIRMED_COUNT_REQUIRED_ABOVE, total: count, pending: count };
}

/**
 * Starts processing: one chunk job per thousand pending items. A batch with none (an empty
 * selection) is finished at once.
 */
export async function startActionBatch(scope: BatchWriteScope, batchId: number, now: Date): Promise<void> {
  const { tx, orgId } = scope;
  const ranges = await pendingItemRanges(tx, orgId, batchId);
  if (ranges.length > 0) {
    await enqueueChunkRanges(tx, ACTION_CHUNK_TASK, orgId, batchId, ranges);
    return;
  }
  const [batch] = await tx<{ state: string }[]>`select state from batches where org_id = ${orgId} and id = ${batchId} for no key update`;
  if (batch?.state === 'pending') await updateBatchRecord(scope, batchId, now, { state: 'finished', finishedAt: now.toISOString() });
}

/**
 * A batch canceled while `confirming` has no chunk jobs to mark its items: they are marked
 * here, skipped (the cancel action itself set its `pending` to 0: runtime/behaviours/batch.ts).
 * (A batch canceled while processing is emptied by its remaining chunk jobs, which write
 * nothing: runtime/bulk/chunk-runner.ts.)
 */
export async function skipUnstartedItems(tx: Transaction, orgId: number, batchId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await tx`
    update batch_items set state = 'skipped', info = 'Not applied: the batch was canceled before it was confirmed', updated_at = ${at}
     where org_id = ${orgId} and batch_id = ${batchId} and state = 'pending'`;
}
