import type { Task } from 'graphile-worker';
import type { Behaviours, RecordWriter, WriteOutcome } from '../../engine/index.js';
import { resourceNotFound, type ErrorObject } from '../../jsonapi/index.js';
import type { ItemResult, PendingItem } from '../batch-store.js';
import { chunkTask, FatalBatchError, type ChunkRunnerDependencies } from '../chunk-runner.js';
import type { OrgCustomObjectsSource } from '../upsert-targets.js';
import { BULK_ACTIONS, type ActionParameters } from './definitions.js';
import { resolveSubject } from './subjects.js';

export interface ActionChunkDependencies extends ChunkRunnerDependencies {
  readonly writer: RecordWriter;
  readonly behaviours: Behaviours;
  readonly customObjects: OrgCustomObjectsSource;
}

/**
 * The task of bulk actions' chunks (chunk-runner.ts): the action's operations for each item's
 * record, written by the record writer as one isolated set, so a record refused is that item's
 * error and its neighbours are written.
 */
export function bulkActionChunkTask(deps: ActionChunkDependencies): Task {
  return chunkTask(deps, async (tx, batch, items, chunk) => {
    const definition = BULK_ACTIONS.get(batch.action);
    if (!definition) throw new FatalBatchError(`There is no bulk action ${batch.action} any more`);
    const objectName = definition.subject === 'customObject' ? batch.resourceType : undefined;
    const subject = await resolveSubject(definition.subject, objectName, chunk.orgId, deps.customObjects);
    if (!subject) throw new FatalBatchError(`This organisation has no custom object named ${JSON.stringify(batch.resourceType)} any more`);
    const { parameters } = batch.payload as { parameters: ActionParameters };
    const recordIds = items.map((item) => Number(item.itemId));
    const context = {
      tx,
      orgId: chunk.orgId,
      descriptor: subject.descriptor,
      validateUpdate: subject.validateUpdate,
      catalog: subject.catalog,
      behaviours: deps.behaviours,
    };
    const plans = await definition.plan(recordIds, parameters, context);
    const operations = plans.flat();
    const outcomes = operations.length
      ? await deps.writer.write({ tx, orgId: chunk.orgId, actor: batch.actor, catalog: subject.catalog, isolated: true }, operations)
      : [];
    let next = 0;
    return items.map((item, i) => {
      const own = outcomes.slice(next, next + plans[i]!.length);
      next += plans[i]!.length;
      return resultOf(item, subject.descriptor.type, own);
    });
  });
}

/** An item's result from its operations' outcomes: the first refusal is its error; none at all is a skip. */
function resultOf(item: PendingItem, type: string, outcomes: readonly WriteOutcome[]): ItemResult {
  const base = { id: item.id, itemId: item.itemId };
  if (outcomes.length === 0) return { ...base, state: 'skipped', info: 'Nothing to do for this record' };
  for (const outcome of outcomes) {
    if (outcome.status === 'missing') return { ...base, state: 'error', errors: [notFound(type, Number(item.itemId))] };
    if (outcome.status === 'refused') return { ...base, state: 'error', errors: outcome.error.errors };
  }
  return { ...base, state: 'success' };
}

function notFound(type: string, id: number): ErrorObject {
  return resourceNotFound(`No ${type} with id ${id} exists any more`).errors[0]!;
}
