import type postgres from 'postgres';
import { orgScopedTransaction, type Transaction } from '../../tenancy/index.js';

/**
 * Erasure steps work through an org's table a slice at a time: one statement reads at most
 * SLICE_ROWS rows, in key order after the last key of the slice before, and changes those of
 * them that hold the address, in a short transaction of its own. So no statement, lock or
 * transaction of a compliance request grows with the size of the org (an org with millions of
 * events would otherwise hold one core and its row locks for minutes while other tenants wait),
 * and a run cut short keeps what its slices committed: running it again redoes nothing, since
 * rows already changed no longer hold the address.
 */
export const SLICE_ROWS = 1000;

/** What one slice's statement answers: how many rows it read, the last key read, and how many it changed. */
interface SliceRow<K> {
  readonly rows: number;
  readonly last: K | null;
  readonly count: number;
}

export interface KeysetSlice {
  readonly table: string;
  /** The column after org_id in the table's primary key: slices follow that index. */
  readonly key: string;
  /**
   * A data-modifying statement over the table, ending in `returning 1`, whose WHERE clause
   * includes `inSlice(<the key column as the statement names it>)`; $1 is the org id.
   */
  readonly change: (inSlice: (keyColumn: string) => string) => string;
  /** The change's parameters after the org id: $2, $3... */
  readonly parameters: readonly unknown[];
  /** Where keys start: below every key of the table (0 for ids, '' for texts). */
  readonly firstKey: number | string;
}

/**
 * The statement of one slice; the key to start after and the slice size are its last two
 * parameters. The change gets the slice as a range of keys, not a join, so that it is planned
 * as an index range scan of the primary key whatever the table's statistics say.
 */
export function keysetSliceStatement(slice: Pick<KeysetSlice, 'table' | 'key' | 'change' | 'parameters'>): string {
  const after = `$${slice.parameters.length + 2}`;
  const size = `$${slice.parameters.length + 3}`;
  const inSlice = (column: string) => `(${column} > ${after} and ${column} <= (select last from slice))`;
  return `with slice as (
      select count(*)::int as rows, max(k) as last
        from (select "${slice.key}" as k from "${slice.table}" where org_id = $1 and "${slice.key}" > ${after} order by "${slice.key}" limit ${size}) keys
    ), changed as (${slice.change(inSlice)})
    select rows, last, (select count(*)::int from changed) as count from slice`;
}

/** Runs the change over every row of the org's table, slice by slice; returns how many rows it changed. */
export async function changeInSlices(sql: postgres.Sql, orgId: number, slice: KeysetSlice): Promise<number> {
  const statement = keysetSliceStatement(slice);
  let total = 0;
  let after = slice.firstKey;
  for (;;) {
    const outcome = await orgScopedTransaction(sql, orgId, (tx) => runSlice(tx, statement, [orgId, ...slice.parameters, after, SLICE_ROWS]));
    total += outcome.count;
    if (outcome.rows < SLICE_ROWS || outcome.last === null) return total;
    after = outcome.last;
  }
}

async function runSlice(tx: Transaction, statement: string, parameters: readonly unknown[]): Promise<SliceRow<number | string>> {
  const [row] = await tx.unsafe<SliceRow<number | string>[]>(statement, parameters as never[]);
  return row ?? { rows: 0, last: null, count: 0 };
}
