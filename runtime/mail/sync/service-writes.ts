import { descriptors } from '../../../generated/resources/index.js';
import type { WriteEffects, WriteOperation } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { quoteIdent } from '../../model/sql-text.js';

/** Records locked for update in id order (so two syncs cannot deadlock), then read. */
export async function lockedRows(effects: WriteEffects, type: string, ids: readonly number[]): Promise<Map<number, Row>> {
  if (ids.length === 0) return new Map();
  const table = quoteIdent(descriptors.get(type)!.table);
  await effects.tx.unsafe(`select 1 from ${table} where org_id = $1 and id = any($2::bigint[]) order by id for no key update`, [effects.orgId, [...ids]] as never[], {
    prepare: true,
  });
  return effects.records.rows(type, ids);
}

/** Writes records the service changes itself, which no rule should refuse: a refusal is a defect. */
export async function written(effects: WriteEffects, operations: readonly WriteOperation[]): Promise<void> {
  if (operations.length === 0) return;
  for (const outcome of await effects.write(operations)) {
    if (outcome.status === 'refused') throw outcome.error;
  }
}

/**
 * Writes as `written` does, and answers the rows as written, by id: what the write derived, such
 * as a sequence state's stateChangedAt, which is the write's own clock reading, not `effects.now`
 * (each write reads the clock again, a few milliseconds later).
 */
export async function writtenRows(effects: WriteEffects, operations: readonly WriteOperation[]): Promise<Map<number, Row>> {
  const rows = new Map<number, Row>();
  if (operations.length === 0) return rows;
  for (const outcome of await effects.write(operations)) {
    if (outcome.status === 'refused') throw outcome.error;
    if (outcome.status === 'written') rows.set(Number(outcome.row.id), outcome.row);
  }
  return rows;
}
