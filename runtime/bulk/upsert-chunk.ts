import type { Task } from 'graphile-worker';
import type { RecordWriter, WriteOutcome } from '../engine/write-operations.js';
import { resourceNotFound, type ErrorObject } from '../jsonapi/index.js';
import type { Transaction } from '../tenancy/index.js';
import type { ItemResult, PendingItem } from './batch-store.js';
import { chunkTask, FatalBatchError, type ChunkRunnerDependencies } from './chunk-runner.js';
import { planRecord, type RecordPlan } from './record-plan.js';
import type { UpsertAction } from './upsert-request.js';
import type { UpsertTarget, UpsertTargets } from './upsert-targets.js';

export interface UpsertChunkDependencies extends ChunkRunnerDependencies {
  readonly writer: RecordWriter;
  readonly targets: UpsertTargets;
}

/** The task of bulk upserts' chunks (chunk-runner.ts): each pending item's record, planned and written. */
export function bulkUpsertChunkTask(deps: UpsertChunkDependencies): Task {
  return chunkTask(deps, async (tx, batch, items, chunk) => {
    const target = await deps.targets.resolve(batch.action as UpsertAction, chunk.orgId, batch.resourceType);
    if ('refused' in target) throw new FatalBatchError(target.refused);
    const plans = items.map((item) => planRecord(target, JSON.parse(item.data) as Record<string, unknown>, batch.dupeMethod));
    const outcomes = await writePlans(tx, deps.writer, { orgId: chunk.orgId, actor: batch.actor, target }, plans);
    return items.map((item, i) => resultOf(item, plans[i]!, outcomes[i], target));
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
