/**
 * Writes one resource type's records of a wave, step by step: prepare, review, beforeDelete,
 * apply, outcomes. A record refused or missing at a step gets its outcome there and drops out.
 */
import type { ResourceDescriptor } from '../../model/descriptor.js';
import type { RuleContext } from '../record-rules.js';
import type { WriteOperation, WriteOutcome } from '../write-operations.js';
import { applyIsolated } from './apply.js';
import { beforeDelete } from './hooks.js';
import { writtenOf, type GroupWritten } from './outcomes.js';
import { prepare } from './prepare.js';
import { accepted } from './review.js';
import type { SetWrite } from './set-write.js';

/** Writes the operations at `indexes`, all of `descriptor`'s type; their outcomes go into `outcomes`. */
export async function writeGroup(
  set: SetWrite,
  descriptor: ResourceDescriptor,
  operations: readonly WriteOperation[],
  indexes: readonly number[],
  outcomes: WriteOutcome[],
): Promise<GroupWritten> {
  const rules: RuleContext = { orgId: set.orgId, descriptor, behaviours: set.options.behaviours, now: set.now, actor: set.actor };
  const prepared = await prepare(set, rules, operations, indexes, outcomes);
  const writing = await accepted(set, rules, prepared, outcomes);
  await beforeDelete(set, descriptor, writing);
  const rows = await applyIsolated(set, descriptor, writing, outcomes);
  // Readers restore a created event's nulls from the standard descriptors; a custom object's events are stored whole.
  return writtenOf(rules, writing, rows, outcomes, { compactCreates: set.options.catalog.has(descriptor.type) });
}
