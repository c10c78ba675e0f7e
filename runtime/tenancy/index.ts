import type postgres from 'postgres';

/** The role API transactions run as: it owns nothing, so row-level security always applies. */
export const API_ROLE = 'cadence_app';

/**
 * The settings that confine a transaction to one org, as one parameterless statement. The org
 * id is an integer, never client text, so inlining it is safe.
 */
function enterOrgStatement(orgId: number): string {
  if (!Number.isSafeInteger(orgId)) throw new TypeError(`org id must be an integer, not ${String(orgId)}`);
  return `select set_config('role', '${API_ROLE}', true), set_config('cadence.org_id', '${orgId}', true)`;
}

/** Confines an already open transaction to one org (what orgScopedTransaction does at its start). */
export async function enterOrg(tx: Transaction, orgId: number): Promise<void> {
  await tx.unsafe(enterOrgStatement(orgId));
}

/** Leaves the org of `enterOrg`: back to the connection's own role, with no org set. */
export async function leaveOrg(tx: Transaction): Promise<void> {
  await tx.unsafe(`select set_config('role', 'none', true), set_config('cadence.org_id', '', true)`);
}

/** A connection inside an org-scoped transaction. */
export type Transaction = postgres.TransactionSql | postgres.ReservedSql;

/**
 * Runs `work` in a transaction that sees only `orgId`'s rows. Every query is also filtered by
 * org_id in SQL; row-level security keyed on `cadence.org_id` is the second wall, and with the
 * setting unset the policies match no row. Switching to the API role makes the policies apply
 * even when the connection's own user owns the tables or is a superuser.
 *
 * BEGIN and the settings go out as one message without waiting for the answer, so the first
 * query of `work` follows in the same round trip: a request costs the round trips of its own
 * queries plus one for COMMIT, not three more.
 */
export async function orgScopedTransaction<T>(sql: postgres.Sql, orgId: number, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const enter = enterOrgStatement(orgId);
  const connection = await sql.reserve();
  try {
    const begin = connection.unsafe(`begin; ${enter}`).execute();
    let result: T;
    try {
      result = await work(connection);
      await begin;
      await connection.unsafe('commit');
    } catch (error) {
      await begin.catch(() => undefined);
      await connection.unsafe('rollback').catch(() => undefined);
      throw error;
    }
    return result;
  } finally {
    connection.release();
  }
}
