import type { Transaction } from './index.js';

/**
 * Work an org-scoped transaction does last, just before its COMMIT: writes to rows that many
 * concurrent transactions share, such as a sequence's activity counts or a keyed job, which
 * every step set and send set of one sequence touches. Written where they arise, in the middle
 * of a set, their row locks are held from there to the end of the set, and every other set of
 * the sequence queues behind them; written last, they are held for the last statements only.
 *
 * orgScopedTransaction opens the list and runs it; in a transaction it did not open (a CLI
 * command's, a savepoint's) nothing is deferred and the caller runs its work at once. A deferred
 * step that fails fails the transaction, as it would have where it arose.
 */
type Finisher = () => Promise<void>;

interface Deferred {
  readonly work: Finisher[];
  /** Run once no other work is left: adding keyed jobs, which the other work may add to. */
  readonly last: Finisher[];
}

const pending = new WeakMap<Transaction, Deferred>();

/** From now on, work deferred in `tx` waits for runBeforeCommit. */
export function openBeforeCommit(tx: Transaction): void {
  pending.set(tx, { work: [], last: [] });
}

/**
 * Defers `work` to the end of `tx` (with `last`, after all other deferred work): true when it
 * will run there, false when `tx` defers nothing and the caller must do the work itself now.
 */
export function deferToCommit(tx: Transaction, work: Finisher, options: { readonly last?: boolean } = {}): boolean {
  const deferred = pending.get(tx);
  if (!deferred) return false;
  (options.last ? deferred.last : deferred.work).push(work);
  return true;
}

/** Runs what was deferred, in order, including what that work defers in turn. */
export async function runBeforeCommit(tx: Transaction): Promise<void> {
  const deferred = pending.get(tx);
  if (!deferred) return;
  for (let work = next(deferred); work; work = next(deferred)) await work();
}

function next(deferred: Deferred): Finisher | undefined {
  return deferred.work.shift() ?? deferred.last.shift();
}

/** Forgets what is left (the transaction ended); later work in `tx` runs at once. */
export function closeBeforeCommit(tx: Transaction): void {
  pending.delete(tx);
}
