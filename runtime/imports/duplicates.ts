import type { AttributeDescriptor } from '../engine/index.js';
import { existingTargets } from '../engine/set-statements.js';
import type { Transaction } from '../tenancy/index.js';
import type { ImportSubject } from './import-subjects.js';

/**
 * Finding the records an import's rows duplicate (SPEC.md "CSV import" rule 4): records with a
 * row's `id`, or with one of its import-key values, compared case-insensitively. One statement
 * per key attribute for a whole set of rows, on import_keys (runtime/imports/tables.ts), whose
 * primary key serves a probe per value under row-level security (text equality is leakproof).
 */

/** The lower-cased values a key attribute has in a record or row: lists give each item. */
export function keyValues(attribute: AttributeDescriptor, value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim().toLowerCase());
}

/** What the org holds of the values looked up: for each key attribute, value to record id (the oldest). */
export interface ExistingRecords {
  readonly ids: ReadonlySet<number>;
  readonly byKey: ReadonlyMap<AttributeDescriptor, ReadonlyMap<string, number>>;
}

/**
 * Each value of $4 with the records of the org ($1) and type ($2) whose key column ($3) holds
 * it: one probe of the primary key per value (OFFSET 0 keeps each probe a subquery of its own),
 * every column of it an equality, which PostgreSQL always makes an index condition. No order is
 * asked for, so no index ordered by record can be walked instead. As one `key = any($4)`, a
 * young org's statistics (one row expected for its keys) made the planner read the org's whole
 * key range and filter it, for every set of an import's rows: all the org's keys, again and again.
 */
export const RECORDS_OF_KEYS = `
  select w.key, m.record_id as id
    from unnest($4::text[]) as w(key)
    cross join lateral (select k.record_id from import_keys k
                         where k.org_id = $1 and k.resource_type = $2 and k.key_column = $3 and k.key = w.key
                        offset 0) as m`;

export async function findExisting(
  tx: Transaction,
  orgId: number,
  subject: ImportSubject,
  ids: readonly number[],
  values: ReadonlyMap<AttributeDescriptor, readonly string[]>,
): Promise<ExistingRecords> {
  const { descriptor } = subject;
  // The record writer's own existence check, as for the records a write refers to.
  const found = ids.length ? await existingTargets(tx, orgId, new Map([[descriptor, new Set(ids)]])) : new Set<string>();
  const byKey = new Map<AttributeDescriptor, Map<string, number>>();
  for (const attribute of subject.keys) {
    const wanted = [...new Set(values.get(attribute) ?? [])];
    const matches = new Map<string, number>();
    byKey.set(attribute, matches);
    if (wanted.length === 0) continue;
    const rows = await tx.unsafe<{ id: string; key: string }[]>(RECORDS_OF_KEYS, [orgId, descriptor.type, attribute.column, wanted] as never[], { prepare: true });
    // The oldest record of each value is its duplicate.
    for (const row of rows) {
      const id = Number(row.id);
      const oldest = matches.get(row.key);
      if (oldest === undefined || id < oldest) matches.set(row.key, id);
    }
  }
  return { ids: new Set(ids.filter((id) => found.has(`${descriptor.type}:${id}`))), byKey };
}
