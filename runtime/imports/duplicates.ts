import type { AttributeDescriptor } from '../engine/index.js';
import { existingTargets } from '../engine/set-statements.js';
import type { Transaction } from '../tenancy/index.js';
import type { ImportSubject } from './import-subjects.js';

/**
 * Finding the records an import's rows duplicate (SPEC.md "CSV import" rule 4): records with a
 * row's `id`, or with one of its import-key values, compared case-insensitively. One statement
 * per key attribute for a whole set of rows, on import_keys (runtime/imports/tables.ts), whose
 * primary key serves `key = any(...)` under row-level security.
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
    // No ORDER BY: only the primary key serves this (import_keys_record_idx leads with the
    // record id so that the planner cannot walk it instead); the oldest record of a key is
    // picked here.
    const rows = await tx<{ id: string; key: string }[]>`
      select record_id as id, key from import_keys
       where org_id = ${orgId} and resource_type = ${descriptor.type} and key_column = ${attribute.column} and key = any(${wanted}::text[])`;
    for (const row of rows) {
      const id = Number(row.id);
      const oldest = matches.get(row.key);
      if (oldest === undefined || id < oldest) matches.set(row.key, id);
    }
  }
  return { ids: new Set(ids.filter((id) => found.has(`${descriptor.type}:${id}`))), byKey };
}
