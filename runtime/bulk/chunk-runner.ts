import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { RecordWriter } from '../engine/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { failBatch, loadChunkBatch, lockPendingItems, recordChunk, type ChunkBatch, type ChunkPayload, type ItemResult, type PendingItem } from './batch-store.js';

/** A failure of the batch as a whole, not of one record: its resource type or its action is gone. */
export class FatalBatchError extends Error {}

/**
 * Writes one chunk's pending items through the record writer, in the chunk's transaction, and
 * answers each item's result in their order. Bulk upserts and bulk actions each have one.
 */
export type ChunkWriter = (tx: Transaction, batch: ChunkBatch, items: readonly PendingItem[], chunk: ChunkPayload) => Promise<ItemResult[]>;

export interface ChunkRunnerDependencies {
  readonly sql: postgres.Sql;
  /** Writes the batch row when the batch is done, so batch.updated is recorded. */
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  readonly log: Logger;
}

const CANCELED_INFO = 'Not applied: the batch was canceled before this record was reached';

/**
 * The graphile-worker task of a batch's chunks: its pending items, written by `writeItems`, in
 * one transaction with their new states and the batch's counters. A worker killed mid-chunk
 * rolls all of it back and another runs the chunk again; a chunk that ran to the end leaves no
 * item pending, so running it again writes nothing. No record is written twice, none is lost.
 *
 * A canceled batch's chunks write nothing: they mark their items skipped, so the batch's
 * `pending` reaches 0. A chunk that keeps failing for reasons of its own (not a refused record:
 * those are item errors) fails the batch on its last attempt, so no batch stays pending for ever.
 */
export function chunkTask(deps: ChunkRunnerDependencies, writeItems: ChunkWriter): Task {
  return async (payload, helpers) => {
    const chunk = payload as ChunkPayload;
    try {
      await runChunk(deps, chunk, writeItems);
    } catch (error) {
      const fatal = error instanceof FatalBatchError;
      if (!fatal && helpers.job.attempts < helpers.job.max_attempts) throw error;
      const reason = fatal ? error.message : `A chunk failed ${helpers.job.attempts} times; the last error: ${(error as Error).message}`;
      deps.log.error({ err: error, batchId: chunk.batchId, orgId: chunk.orgId, task: helpers.job.task_identifier }, 'batch failed');
      await orgScopedTransaction(deps.sql, chunk.orgId, (tx) => failBatch(tx, deps.writer, chunk.orgId, chunk.batchId, reason, deps.clock()));
    }
  };
}

async function runChunk(deps: ChunkRunnerDependencies, chunk: ChunkPayload, writeItems: ChunkWriter): Promise<void> {
  const startedAt = deps.clock();
  await orgScopedTransaction(deps.sql, chunk.orgId, async (tx) => {
    const batch = await loadChunkBatch(tx, chunk.orgId, chunk.batchId);
    // Purged or failed: nothing of it is written any more. (A confirming batch has no chunks yet.)
    if (!batch || (batch.state !== 'pending' && batch.state !== 'canceled')) return;
    const items = await lockPendingItems(tx, chunk);
    if (items.length === 0) return;
    const results =
      batch.state === 'canceled'
        ? items.map((item): ItemResult => ({ id: item.id, state: 'skipped', itemId: item.itemId, info: CANCELED_INFO }))
        : await writeItems(tx, batch, items, chunk);
    await recordChunk(tx, deps.writer, chunk, results, startedAt, deps.clock());
  });
}
