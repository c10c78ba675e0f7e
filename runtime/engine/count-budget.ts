import type { Transaction } from '../tenancy/index.js';

/** SQLSTATE query_canceled: what PostgreSQL raises when statement_timeout ends a statement. */
const QUERY_CANCELED = '57014';

/** Out of the way of any savepoint name the engine or a behaviour might use. */
const SAVEPOINT = 'cadence_count_budget';

/**
 * Runs one read statement of `tx` under a statement_timeout of `budgetMs` (SPEC.md's "Count
 * throttling"), or `undefined` when PostgreSQL cancelled it for taking longer.
 *
 * A statement cancelled by the timeout aborts its transaction, so the statement runs inside a
 * savepoint: rolling back to it leaves the transaction usable for what follows (includes, and
 * COMMIT). The timeout is set with SET LOCAL semantics inside the savepoint, and the savepoint
 * is rolled back after a success too, which takes the setting back with it without having to
 * know what it was before; the statement only reads, so rolling back loses nothing. The savepoint
 * and the setting travel in the same round trip as the statement: one round trip more in all.
 */
export async function withinTimeBudget<T>(tx: Transaction, budgetMs: number, statement: () => Promise<T>): Promise<T | undefined> {
  if (!Number.isSafeInteger(budgetMs) || budgetMs <= 0) throw new TypeError(`a time budget is a positive number of milliseconds, not ${budgetMs}`);
  // Pipelined, not awaited on its own: its error, if any, is the statement's too.
  const opened = tx.unsafe(`savepoint ${SAVEPOINT}; select set_config('statement_timeout', '${budgetMs}', true)`).then(
    () => undefined,
    (error: unknown) => error,
  );
  let result: T | undefined;
  try {
    result = await statement();
  } catch (error) {
    if ((await opened) !== undefined || (error as { code?: string }).code !== QUERY_CANCELED) throw error;
    result = undefined;
  }
  const failed = await opened;
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the opening message's own rejection, passed on as it came
  if (failed !== undefined) throw failed;
  await tx.unsafe(`rollback to savepoint ${SAVEPOINT}; release savepoint ${SAVEPOINT}`);
  return result;
}
