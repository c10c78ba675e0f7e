/**
 * Stores a group's accepted records: inserts and updates with one statement per set of
 * columns, deletes with one, and, in an isolated set, finds a record PostgreSQL refuses under
 * savepoints so that it is refused alone.
 */
import type { ResourceDescriptor } from '../../model/descriptor.js';
import { withoutDeferral, type Transaction } from '../../tenancy/index.js';
import { apiErrorOfWrite } from '../database-errors.js';
import { columnValuesOf, type ColumnValue } from '../record-rules.js';
import type { Row } from '../render.js';
import { deleteRows, insertRows, updateRows } from '../set-statements.js';
import type { WriteOutcome } from '../write-operations.js';
import { clearReferencesTo } from './references.js';
import type { Prepared, SetWrite } from './set-write.js';

/** Rows as stored, by operation index. */
type RowsByIndex = Map<number, Row>;

/**
 * Applies the accepted records' rows. In a set, a record PostgreSQL refuses (a value out of a
 * column's range, a unique value taken) must not take its neighbours with it: the set is
 * written under a savepoint and, if refused, written again record by record, each under its
 * own savepoint, so the one at fault is found and refused alone.
 */
export async function applyIsolated(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[], outcomes: WriteOutcome[]): Promise<RowsByIndex> {
  if (!set.isolated || accepted.length === 0) return applyRows(set, descriptor, accepted);
  try {
    return await underSavepoint(set.tx, () => applyRows(set, descriptor, accepted));
  } catch (error) {
    if (!apiErrorOfWrite(descriptor, error)) throw error;
  }
  const rows: RowsByIndex = new Map();
  for (const p of accepted) {
    try {
      for (const [index, row] of await underSavepoint(set.tx, () => applyRows(set, descriptor, [p]))) rows.set(index, row);
    } catch (error) {
      const refusal = apiErrorOfWrite(descriptor, error);
      if (!refusal) throw error;
      outcomes[p.index] = { status: 'refused', error: refusal };
    }
  }
  return rows;
}

async function underSavepoint<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  await tx.unsafe('savepoint record_set');
  try {
    const result = await withoutDeferral(tx, work);
    await tx.unsafe('release savepoint record_set');
    return result;
  } catch (error) {
    await tx.unsafe('rollback to savepoint record_set');
    throw error;
  }
}

/** Writes the rows: inserts, then updates, then deletes. */
async function applyRows(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[]): Promise<RowsByIndex> {
  const rows: RowsByIndex = new Map();
  await insertAll(set, descriptor, accepted, rows);
  await updateAll(set, descriptor, accepted, rows);
  await deleteAll(set, descriptor, accepted, rows);
  return rows;
}

/** Inserts the creates, one statement per set of columns. */
async function insertAll(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[], rows: RowsByIndex): Promise<void> {
  for (const group of byColumns(accepted.filter((p) => p.op.kind === 'create'))) {
    const inserted = await insertRows(set.tx, descriptor, set.orgId, group.columns, group.values);
    group.members.forEach((p, i) => rows.set(p.index, inserted[i]!));
  }
}

/** Updates the updated records, one statement per set of columns. */
async function updateAll(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[], rows: RowsByIndex): Promise<void> {
  for (const group of byColumns(accepted.filter((p) => p.op.kind === 'update'))) {
    // Nothing to store (a skipped duplicate, say): the record stays as it is.
    if (group.columns.length === 0) {
      for (const p of group.members) rows.set(p.index, p.current!);
      continue;
    }
    const current = group.members.map((p) => p.current!);
    const updated = await updateRows(set.tx, descriptor, set.orgId, group.columns, group.values, current);
    group.members.forEach((p, i) => rows.set(p.index, updated.get(Number(current[i]!.id))!));
  }
}

/**
 * Deletes the deleted records with one statement, once the records referring to them are
 * updated to refer to nothing (through this writer, so each gets its event). Both happen here,
 * under the set's savepoint, so a delete PostgreSQL refuses leaves its references as they were.
 */
async function deleteAll(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[], rows: RowsByIndex): Promise<void> {
  const deletes = accepted.filter((p) => p.op.kind === 'delete');
  if (deletes.length === 0) return;
  const ids = deletes.map((p) => Number(p.current!.id));
  await clearReferencesTo(set, descriptor, ids);
  const deleted = await deleteRows(set.tx, descriptor, set.orgId, ids);
  deletes.forEach((p, i) => rows.set(p.index, deleted.get(ids[i]!)!));
}

/** Records that set the same columns: one statement. */
interface ColumnGroup {
  readonly columns: string[];
  readonly members: Prepared[];
  readonly values: ColumnValue[][];
}

/** Records grouped by the columns they set, so each group is one statement. */
function byColumns(prepared: readonly Prepared[]): ColumnGroup[] {
  const groups = new Map<string, ColumnGroup>();
  for (const p of prepared) {
    const values = columnValuesOf(p.changes!);
    const columns = values.map((v) => v.column);
    const key = columns.join(',');
    const group = groups.get(key) ?? { columns, members: [], values: [] };
    group.members.push(p);
    group.values.push(values);
    groups.set(key, group);
  }
  return [...groups.values()];
}
