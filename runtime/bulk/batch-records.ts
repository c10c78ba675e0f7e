import { changesByName, type Actor, type RecordWriter } from '../engine/index.js';
import type { Transaction } from '../tenancy/index.js';
import { descriptors } from '../../generated/resources/index.js';

/**
 * The batch row's changes that clients are told of, written through the record writer so they
 * are recorded as events and reach webhooks: a batch made (`batch.created`) and a batch done,
 * finished or failed (`batch.updated`). The counters a chunk moves on the way are bookkeeping
 * written by batch-store.ts itself (see .ci/writer-bypass-allow-list.ts for why).
 */

const batchDescriptor = descriptors.get('batch')!;

/** Who a batch's events are recorded as: whoever started it. */
export interface BatchWriteScope {
  readonly tx: Transaction;
  readonly writer: RecordWriter;
  readonly orgId: number;
  readonly actor: Actor;
}

/**
 * Creates the batch row with `values` (attribute names), made at `now` (the injectable clock's
 * time, as its items are); answers its id.
 */
export async function createBatchRecord(scope: BatchWriteScope, now: Date, values: Readonly<Record<string, unknown>>): Promise<number> {
  const { tx, writer, orgId, actor } = scope;
  const [outcome] = await writer.write({ tx, orgId, actor }, [{ kind: 'create', type: 'batch', changes: changesByName(batchDescriptor, values) }]);
  if (outcome?.status !== 'written') throw new Error(`the batch record was not written: ${JSON.stringify(outcome)}`);
  const batchId = outcome.row.id;
  await stampClockTime(tx, orgId, batchId, now, true);
  return batchId;
}

/**
 * The writer stamps the transaction's time; a batch keeps the injectable clock's (deps.clock),
 * by which its retention (30 days, purge-task.ts) is measured, as its items do. Restamped in the
 * same transaction, so no reader sees the writer's; the event's snapshot keeps it (the two
 * differ only where a test sets the clock).
 */
async function stampClockTime(tx: Transaction, orgId: number, batchId: number, now: Date, created: boolean): Promise<void> {
  const at = now.toISOString();
  if (created) await tx`update batches set created_at = ${at}, updated_at = ${at} where org_id = ${orgId} and id = ${batchId}`;
  else await tx`update batches set updated_at = ${at} where org_id = ${orgId} and id = ${batchId}`;
}

/** Updates the batch row with `values` (attribute names) at `now`. */
export async function updateBatchRecord(scope: BatchWriteScope, batchId: number, now: Date, values: Readonly<Record<string, unknown>>): Promise<void> {
  const { tx, writer, orgId, actor } = scope;
  const [outcome] = await writer.write({ tx, orgId, actor }, [{ kind: 'update', type: 'batch', id: batchId, changes: changesByName(batchDescriptor, values) }]);
  if (outcome?.status !== 'written') throw new Error(`the batch record was not updated: ${JSON.stringify(outcome)}`);
  await stampClockTime(tx, orgId, batchId, now, false);
}
