/**
 * The first step of a group: reads and locks the records' current rows (one statement for
 * updates, one for deletes), and turns each operation into its changes with derived values.
 */
import { ApiError } from '../../jsonapi/index.js';
import { withDerived, type RuleContext } from '../record-rules.js';
import type { Row } from '../render.js';
import { lockRows } from '../set-statements.js';
import type { UpdateChanges, UpdateOperation, WriteOperation, WriteOutcome } from '../write-operations.js';
import type { Prepared, SetWrite } from './set-write.js';

/** The records at `indexes` ready to be written; one missing or refused by its action gets its outcome instead. */
export async function prepare(
  set: SetWrite,
  rules: RuleContext,
  operations: readonly WriteOperation[],
  indexes: readonly number[],
  outcomes: WriteOutcome[],
): Promise<Prepared[]> {
  const idsOf = (kind: 'update' | 'delete') => indexes.flatMap((i) => (operations[i]!.kind === kind ? [(operations[i] as { id: number }).id] : []));
  const forUpdate = await lockRows(set.tx, rules.descriptor, set.orgId, idsOf('update'), 'update');
  const forDelete = await lockRows(set.tx, rules.descriptor, set.orgId, idsOf('delete'), 'delete');
  const prepared: Prepared[] = [];
  for (const index of indexes) {
    const op = operations[index]!;
    const current = op.kind === 'create' ? null : (op.kind === 'update' ? forUpdate : forDelete).get(op.id);
    const result = prepareOne(set, rules, index, op, current);
    if ('status' in result) outcomes[index] = result;
    else prepared.push(result);
  }
  return prepared;
}

/** One record ready to be written, or its outcome; `current` is its locked row (undefined: missing, null: a create). */
function prepareOne(set: SetWrite, rules: RuleContext, index: number, op: WriteOperation, current: Row | null | undefined): Prepared | WriteOutcome {
  if (op.kind === 'create') return { index, op, current: null, changes: withDerived(rules, op.changes, null) };
  if (!current) return { status: 'missing' };
  if (op.kind === 'delete') return { index, op, current, changes: null };
  const given = changesOf(op, current, set.now);
  if (given instanceof ApiError) return { status: 'refused', error: given };
  return {
    index,
    op,
    current,
    changes: {
      ...withDerived(rules, given, current),
      ...(given.domainEvent && { domainEvent: given.domainEvent }),
      ...(given.action && { action: given.action }),
      ...(given.effect && { effect: given.effect }),
    },
  };
}

/**
 * An update's changes; an action refusing the record as it is (a sequence state that cannot
 * pause) is that record's refusal, as a rule problem would be, not the whole set's failure.
 */
function changesOf(op: UpdateOperation, current: Row, now: Date): UpdateChanges | ApiError {
  if (typeof op.changes !== 'function') return op.changes;
  try {
    return op.changes(current, now);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}
