import type postgres from 'postgres';

/** The role API transactions run as: it owns nothing, so row-level security always applies. */
export const API_ROLE = 'cadence_app';

export type Transaction = postgres.TransactionSql;

/**
 * Runs `work` in a transaction that sees only `orgId`'s rows. Every query is also filtered by
 * org_id in SQL; row-level security keyed on `cadence.org_id` is the second wall, and with the
 * setting unset the policies match no row. Switching to the API role makes the policies apply
 * even when the connection's own user owns the tables or is a superuser.
 */
export function orgScopedTransaction<T>(sql: postgres.Sql, orgId: number, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`select set_config('role', ${API_ROLE}, true), set_config('cadence.org_id', ${String(orgId)}, true)`;
    return work(tx);
  }) as Promise<T>;
}
