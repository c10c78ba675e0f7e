import type { Transaction } from '../../tenancy/index.js';
import { REDACTED, type AddressPattern } from './address.js';

/**
 * One UPDATE that replaces the address with REDACTED in some columns of one tenant table, on the
 * org's rows that hold it and on no other row: the WHERE clause is the predicate, so rows without
 * the address are not rewritten (no new row version, no trigger, updated_at as it was). A column
 * is rewritten only where it holds the address. jsonb is scrubbed as its text and cast back:
 * the address sits inside JSON strings, so the text stays valid JSON. A second run finds nothing.
 */
export interface RedactedColumns {
  readonly table: string;
  /** Text columns, matched and replaced as they are. */
  readonly text?: readonly string[];
  /** jsonb columns, matched and replaced in their text form. */
  readonly json?: readonly string[];
  /** A timestamp column set to the transaction's time on the rows rewritten (resources). */
  readonly touch?: string;
}

const quoted = (name: string) => `"${name}"`;

function rewritten(column: string, json: boolean): { holds: string; set: string } {
  const value = json ? `${quoted(column)}::text` : quoted(column);
  const replaced = `regexp_replace(${value}, $2, $3, 'gi')`;
  return {
    holds: `${value} ~* $2`,
    set: `${quoted(column)} = case when ${value} ~* $2 then ${json ? `${replaced}::jsonb` : replaced} else ${quoted(column)} end`,
  };
}

/** The statement of `columns`, with $1 the org id, $2 the pattern and $3 REDACTED. */
export function redactionStatement(columns: RedactedColumns): string {
  const parts = [...(columns.text ?? []).map((c) => rewritten(c, false)), ...(columns.json ?? []).map((c) => rewritten(c, true))];
  if (parts.length === 0) throw new TypeError(`no columns of ${columns.table} to redact`);
  const sets = parts.map((p) => p.set);
  if (columns.touch) sets.push(`${quoted(columns.touch)} = now()`);
  return `update ${quoted(columns.table)} set ${sets.join(', ')} where org_id = $1 and (${parts.map((p) => p.holds).join(' or ')})`;
}

/** Runs the statement of `columns`; returns how many rows held the address. */
export async function redactColumns(tx: Transaction, orgId: number, pattern: AddressPattern, columns: RedactedColumns): Promise<number> {
  const result = await tx.unsafe(redactionStatement(columns), [orgId, pattern.sql, REDACTED]);
  return result.count;
}
