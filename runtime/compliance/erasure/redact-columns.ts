import type postgres from 'postgres';
import { holdsAddressSql, REDACTED, type AddressPattern } from './address.js';
import { changeInSlices } from './slices.js';

/**
 * An UPDATE that replaces the address with REDACTED in some columns of one tenant table, on the
 * org's rows that hold it and on no other row: the WHERE clause is the predicate, so rows without
 * the address are not rewritten (no new row version, no trigger, updated_at as it was). A column
 * is rewritten only where it holds the address. jsonb is scrubbed as its text and cast back:
 * the address sits inside JSON strings, so the text stays valid JSON. It runs over the table a
 * slice of ids at a time (slices.ts); a second run finds nothing.
 */
export interface RedactedColumns {
  /** A tenant table whose primary key is (org_id, id). */
  readonly table: string;
  /** Text columns, matched and replaced as they are. */
  readonly text?: readonly string[];
  /** jsonb columns, matched and replaced in their text form. */
  readonly json?: readonly string[];
  /** A timestamp column set to the transaction's time on the rows rewritten (resources). */
  readonly touch?: string;
}

const quoted = (name: string) => `"${name}"`;

// $1 the org id, $2 the pattern, $3 REDACTED, $4 the pattern's prefilter.
function rewritten(column: string, json: boolean): { holds: string; set: string } {
  const value = json ? `${quoted(column)}::text` : quoted(column);
  const replaced = `regexp_replace(${value}, $2, $3, 'gi')`;
  const holds = holdsAddressSql(value, '$2', '$4');
  return { holds, set: `${quoted(column)} = case when ${holds} then ${json ? `${replaced}::jsonb` : replaced} else ${quoted(column)} end` };
}

/** The change of one slice of `columns`' table, with $1 the org id, $2 the pattern, $3 REDACTED and $4 the prefilter. */
function redactionChange(columns: RedactedColumns, inSlice: (keyColumn: string) => string): string {
  const parts = [...(columns.text ?? []).map((c) => rewritten(c, false)), ...(columns.json ?? []).map((c) => rewritten(c, true))];
  if (parts.length === 0) throw new TypeError(`no columns of ${columns.table} to redact`);
  const sets = parts.map((p) => p.set);
  if (columns.touch) sets.push(`${quoted(columns.touch)} = now()`);
  return `update ${quoted(columns.table)} set ${sets.join(', ')}
           where org_id = $1 and ${inSlice('id')} and (${parts.map((p) => p.holds).join(' or ')}) returning 1`;
}

/** Redacts the org's rows of `columns`' table, slice by slice; returns how many rows held the address. */
export async function redactColumns(sql: postgres.Sql, orgId: number, pattern: AddressPattern, columns: RedactedColumns): Promise<number> {
  return changeInSlices(sql, orgId, {
    table: columns.table,
    key: 'id',
    change: (inSlice) => redactionChange(columns, inSlice),
    parameters: [pattern.sql, REDACTED, pattern.prefilter],
    firstKey: 0,
  });
}
