import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { RecordWriter, WriteOutcome } from '../engine/write-operations.js';
import { resourceNotFound, type ErrorObject } from '../jsonapi/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { failBatch, loadChunkBatch, lockPendingItems, recordChunk, type ChunkPayload, type ItemResult, type PendingItem } from './batch-store.js';
import { planRecord, type RecordPlan } from './record-plan.js';
import type { UpsertTarget, UpsertTargets } from './upsert-targets.js';

export interface ChunkTaskDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly targets: UpsertTargets;
  readonly clock: () => Date;
  readonly log: Logger;
}

/** A failure of the batch as a whole, not of one record: its resource type is gone. */
class FatalBatchError extends Error {}

/**
 * Writes one chunk of a bulk upsert: its pending items, through the record writer, in one
 * transaction with their new states and the batch's counters. A worker killed mid-chunk rolls
 * all of it back and another runs the chunk again; a chunk that ran to the end leaves no item
 * pending, so running it again writes nothing. No record is written twice, none is lost.
 *
 * A chunk that keeps failing for reasons of its own (not a refused record: those are item
 * errors) fails the batch on its last attempt, so no batch stays pending for ever.
 */
export function bulkUpsertChunkTask(deps: ChunkTaskDependencies): Task {
  return async (payload, helpers) => {
    const chunk = payload as ChunkPayload;
    try {
      await writeChunk(deps, chunk);
    } catch (error) {
      const fatal = error instanceof FatalBatchError;
      if (!fatal && helpers.job.attempts < helpers.job.max_attempts) throw error;
      const reason = fatal ? error.message : `A chunk failed ${helpers.job.attempts} times; the last error: ${(error as Error).message}`;
      deps.log.error({ err: error, batchId: chunk.batchId, orgId: chunk.orgId }, 'bulk upsert batch failed');
      await orgScopedTransaction(deps.sql, chunk.orgId, (tx) => failBatch(tx, chunk.orgId, chunk.batchId, reason, deps.clock()));
    }
  };
}

async function writeChunk(deps: ChunkTaskDependencies, chunk: ChunkPayload): Promise<void> {
  const startedAt = deps.clock();
  await orgScopedTransaction(deps.sql, chunk.orgId, async (tx) => {
    const batch = await loadChunkBatch(tx, chunk.orgId, chunk.batchId);
    // Purged, failed or canceled: nothing of it is written any more.
    if (!batch || batch.state !== 'pending') return;
    const items = await lockPendingItems(tx, chunk);
    if (items.length === 0) return;
    const target = await deps.targets.resolve(batch.action, chunk.orgId, batch.resourceType);
    if ('refused' in target) throw new FatalBatchError(target.refused);
    const plans = items.map((item) => planRecord(target, JSON.parse(item.data) as Record<string, unknown>, batch.dupeMethod));
    const outcomes = await writePlans(tx, deps.writer, { orgId: chunk.orgId, actor: batch.actor, target }, plans);
    await recordChunk(
      tx,
      chunk,
      items.map((item, i) => resultOf(item, plans[i]!, outcomes[i], target)),
      startedAt,
      deps.clock(),
    );
  });
}

/** The writer's outcome for each plan that writes, at the plan's position; undefined for the others. */
async function writePlans(
  tx: Transaction,
  writer: RecordWriter,
  scope: { orgId: number; actor: Parameters<RecordWriter['write']>[0]['actor']; target: UpsertTarget },
  plans: readonly RecordPlan[],
): Promise<(WriteOutcome | undefined)[]> {
  const positions = plans.flatMap((plan, i) => (plan.kind === 'write' ? [i] : []));
  const operations = positions.map((i) => (plans[i] as Extract<RecordPlan, { kind: 'write' }>).operation);
  // Isolated even when one record is left to write: what PostgreSQL refuses is that item's error.
  const writeScope = { tx, orgId: scope.orgId, actor: scope.actor, isolated: true, ...(scope.target.catalog && { catalog: scope.target.catalog }) };
  const written = operations.length ? await writer.write(writeScope, operations) : [];
  const outcomes: (WriteOutcome | undefined)[] = plans.map(() => undefined);
  positions.forEach((position, n) => (outcomes[position] = written[n]));
  return outcomes;
}

function notFound(type: string, id: number): ErrorObject {
  return { ...resourceNotFound(`No ${type} with id ${id} exists`).errors[0]!, source: { pointer: '/data/id' } };
}

function resultOf(item: PendingItem, plan: RecordPlan, outcome: WriteOutcome | undefined, target: UpsertTarget): ItemResult {
  if (plan.kind === 'skipped') return { id: item.id, state: 'skipped', itemId: null };
  if (plan.kind === 'error') return { id: item.id, state: 'error', itemId: null, errors: plan.errors };
  if (!outcome) throw new Error(`the record writer gave no outcome for item ${item.id}`);
  const recordId = plan.operation.kind === 'create' ? null : plan.operation.id;
  if (outcome.status === 'written') return { id: item.id, state: plan.then, itemId: outcome.row.id };
  if (outcome.status === 'missing') return { id: item.id, state: 'error', itemId: null, errors: [notFound(target.descriptor.type, recordId!)] };
  return { id: item.id, state: 'error', itemId: null, errors: outcome.error.errors };
}
