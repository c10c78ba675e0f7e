import type postgres from 'postgres';
import { isStaleTokenError, StaleToken, type TokenRecheck } from '../auth/index.js';

/** The role API transactions run as: it owns nothing, so row-level security always applies. */
export const API_ROLE = 'cadence_app';

/**
 * The settings that confine a transaction to one org, as the expressions of one parameterless
 * select. The org id is an integer, never client text, so inlining it is safe.
 */
function enterOrgSettings(orgId: number): string {
  if (!Number.isSafeInteger(orgId)) throw new TypeError(`org id must be an integer, not ${String(orgId)}`);
  return `set_config('role', '${API_ROLE}', true), set_config('cadence.org_id', '${orgId}', true)`;
}

/** Confines an already open transaction to one org (what orgScopedTransaction does at its start). */
export async function enterOrg(tx: Transaction, orgId: number): Promise<void> {
  await tx.unsafe(`select ${enterOrgSettings(orgId)}`);
}

/** Leaves the org of `enterOrg`: back to the connection's own role, with no org set. */
export async function leaveOrg(tx: Transaction): Promise<void> {
  await tx.unsafe(`select set_config('role', 'none', true), set_config('cadence.org_id', '', true)`);
}

/** A connection inside an org-scoped transaction. */
export type Transaction = postgres.TransactionSql | postgres.ReservedSql;

export interface OrgTransactionOptions {
  /**
   * The work only reads: the transaction is opened READ ONLY (so a write in it fails), and the
   * result is returned without waiting for COMMIT, which then travels ahead of the connection's
   * next statement. A read-only transaction has nothing a failed COMMIT could lose.
   */
  readonly readOnly?: boolean;
  /** A token served from the cache: rechecked by the statement that opens the transaction. */
  readonly recheck?: TokenRecheck | undefined;
}

/**
 * Runs `work` in a transaction that sees only `orgId`'s rows. Every query is also filtered by
 * org_id in SQL; row-level security keyed on `cadence.org_id` is the second wall, and with the
 * setting unset the policies match no row. Switching to the API role makes the policies apply
 * even when the connection's own user owns the tables or is a superuser.
 *
 * BEGIN and the settings go out as one message without waiting for the answer, so the first
 * query of `work` follows in the same round trip: a request costs the round trips of its own
 * queries plus one for COMMIT, not three more. A cached token's recheck rides in that message
 * too; if it refuses, the transaction is aborted before `work` reads anything, everything is
 * rolled back, and StaleToken is thrown.
 */
export async function orgScopedTransaction<T>(
  sql: postgres.Sql,
  orgId: number,
  work: (tx: Transaction) => Promise<T>,
  options: OrgTransactionOptions = {},
): Promise<T> {
  const recheck = options.recheck && !options.recheck.confirmed ? options.recheck : undefined;
  const opening = `begin${options.readOnly ? ' read only' : ''}; select ${recheck ? `${recheck.expression()}, ` : ''}${enterOrgSettings(orgId)}`;
  const connection = await sql.reserve();
  try {
    // Settles with the opening statement's error, if any: a rejection nobody awaits yet would be
    // reported as unhandled while `work` is still waiting for its first query.
    const opened = connection.unsafe(opening).then(
      () => undefined,
      (error: unknown) => error ?? new Error('the transaction could not be opened'),
    );
    let result: T;
    try {
      result = await work(connection);
      const failed = await opened;
      if (failed) throw failed;
      recheck?.passed();
      if (options.readOnly) connection.unsafe('commit').catch(() => undefined);
      else await connection.unsafe('commit');
    } catch (error) {
      const failed = await opened;
      await connection.unsafe('rollback').catch(() => undefined);
      if (isStaleTokenError(failed)) throw new StaleToken();
      throw error;
    }
    return result;
  } finally {
    connection.release();
  }
}
