/**
 * Transactions that PostgreSQL aborts to break a deadlock (40P01) or a serialization conflict
 * (40001) did nothing: their work is sound and only lost a race, so running it again is the
 * remedy PostgreSQL documents. Writes whose consequences reach other records (a task completed
 * moves its sequence state on while a prospect's deletion finishes the same state) can meet in
 * opposite orders; a request should not fail for that.
 */

const RETRIED_CODES = new Set(['40P01', '40001']);

/** Whether `error` is PostgreSQL aborting a transaction that may simply be run again. */
export function isTransientConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && RETRIED_CODES.has(String((error as { code?: unknown }).code));
}

/**
 * Runs `transaction` (a whole transaction: it must begin and end inside) again when PostgreSQL
 * aborted it for a deadlock or serialization conflict, up to `attempts` times in all, after a
 * short random pause so that the two sides do not meet again in step.
 */
export async function retryingOnConflict<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
