import type postgres from 'postgres';
import { isStaleTokenError, StaleToken, type TokenRecheck } from '../auth/index.js';
import { closeBeforeCommit, openBeforeCommit, runBeforeCommit } from './before-commit.js';

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
   * result is returned without waiting for COMMIT's answer. A read-only transaction has nothing
   * a failed COMMIT could lose. The connection goes back to the pool only once COMMIT is done.
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
 * What `work` gathers to commit (before-commit.ts) is written after it, before COMMIT.
 *
 * BEGIN and the settings go out as one message without waiting for the answer, so the first
 * query of `work` follows in the same round trip: a request costs the round trips of its own
 * queries plus one for COMMIT, not three more. A cached token's recheck rides in that message
 * too; if it refuses, the transaction is aborted before `work` reads anything, everything is
 * rolled back, and StaleToken is thrown.
 *
 * The connection returns to the pool only after its transaction has ended: COMMIT or ROLLBACK
 * has been answered. Released earlier, the pool would hand it to the next request while it is
 * still inside this org's transaction, with this org's role and settings.
 */
export async function orgScopedTransaction<T>(sql: postgres.Sql, orgId: number, work: (tx: Transaction) => Promise<T>, options: OrgTransactionOptions = {}): Promise<T> {
  const recheck = options.recheck && !options.recheck.confirmed ? options.recheck : undefined;
  const opening = `begin${options.readOnly ? ' read only' : ''}; select ${recheck ? `${recheck.expression()}, ` : ''}${enterOrgSettings(orgId)}`;
  const connection = await sql.reserve();
  // Settles with the opening statement's error, if any: a rejection nobody awaits yet would be
  // reported as unhandled while `work` is still waiting for its first query.
  const opened = connection.unsafe(opening).then(
    () => undefined,
    (error: unknown) => error ?? new Error('the transaction could not be opened'),
  );
  let result: T;
  openBeforeCommit(connection);
  try {
    result = await work(connection);
    await runBeforeCommit(connection);
    const failed = await opened;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the opening statement's own rejection, passed on as it came
    if (failed) throw failed;
  } catch (error) {
    const failed = await opened;
    await endTransaction(connection, 'rollback');
    closeBeforeCommit(connection);
    if (isStaleTokenError(failed)) throw new StaleToken();
    throw error;
  }
  closeBeforeCommit(connection);
  recheck?.passed();
  if (options.readOnly) {
    // The answer goes out now; COMMIT's round trip overlaps with sending it.
    void endTransaction(connection, 'commit');
    return result;
  }
  const committed = await endTransaction(connection, 'commit');
  if (committed !== true) throw committed;
  return result;
}

/**
 * Sends COMMIT or ROLLBACK and releases the connection once it has been answered, whatever the
 * answer. Resolves to true, or to the error (a failed COMMIT has rolled back; a connection that
 * broke is closed by postgres.js and replaced by the pool). Never rejects.
 */
async function endTransaction(connection: postgres.ReservedSql, statement: 'commit' | 'rollback'): Promise<true | Error> {
  try {
    await connection.unsafe(statement);
    return true;
  } catch (error) {
    if (statement === 'commit') await connection.unsafe('rollback').catch(() => undefined);
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    connection.release();
  }
}
export { isTransientConflict, retryingOnConflict } from './retry.js';
export { gatherToCommit, withoutDeferral } from './before-commit.js';
