import type { AttributeDescriptor } from '../engine/index.js';
import { quoteIdent } from '../model/sql-text.js';
import type { Transaction } from '../tenancy/index.js';
import type { ImportSubject } from './import-subjects.js';

/**
 * Finding the records an import's rows duplicate (SPEC.md "CSV import" rule 4): records with a
 * row's `id`, or with one of its import-key values, compared case-insensitively. One statement
 * per key attribute for a whole set of rows, each served by the index the schema's
 * `x-importKey` makes (a GIN index over the lower-cased list for e-mails).
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
  const table = quoteIdent(subject.descriptor.table);
  const found = ids.length ? await tx.unsafe<{ id: string }[]>(`select id from ${table} where org_id = $1 and id = any($2::bigint[])`, [orgId, ids as number[]]) : [];
  const byKey = new Map<AttributeDescriptor, Map<string, number>>();
  for (const attribute of subject.keys) {
    const wanted = [...new Set(values.get(attribute) ?? [])];
    const matches = new Map<string, number>();
    byKey.set(attribute, matches);
    if (wanted.length === 0) continue;
    const column = quoteIdent(attribute.column);
    // The expressions are the ones the import-key indexes are built on, so that they serve.
    const text =
      attribute.type === 'array'
        ? `select id, k from ${table}, unnest(cadence_system.lower_text_array(${column})) as k
            where org_id = $1 and cadence_system.lower_text_array(${column}) && $2::text[] and k = any($2::text[])
            order by id`
        : `select id, lower(${column}) as k from ${table} where org_id = $1 and lower(${column}) = any($2::text[]) order by id`;
    const rows = await tx.unsafe<{ id: string; k: string }[]>(text, [orgId, wanted]);
    for (const row of rows) if (!matches.has(row.k)) matches.set(row.k, Number(row.id));
  }
  return { ids: new Set(found.map((r) => Number(r.id))), byKey };
}
