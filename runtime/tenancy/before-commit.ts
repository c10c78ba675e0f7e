import type { Transaction } from './index.js';

/**
 * Work an org-scoped transaction does last, just before its COMMIT: writes to rows that many
 * concurrent transactions share, such as a sequence's activity counts or a keyed job, which
 * every step set and send set of one sequence touches. Written where they arise, in the middle
 * of a set, their row locks are held from there to the end of the set, and every other set of
 * the sequence queues behind them; written last, they are held for the last statements only.
 *
 * What is deferred is gathered: the first piece in a transaction starts a collection (a list of
 * jobs, tallies) and defers its flush; later pieces add to it until the flush runs, so the
 * transaction writes each kind once. orgScopedTransaction opens the deferral and runs it; in a
 * transaction it did not open (a CLI command's) and under a savepoint (withoutDeferral) nothing
 * is deferred and the caller does its work at once. A flush that fails fails the transaction,
 * as the work would have where it arose.
 */
type Flush = () => Promise<void>;

interface Deferred {
  readonly flushes: Flush[];
  /** Run once no other flush is left: adding keyed jobs, which the other flushes may add to. */
  readonly lastFlushes: Flush[];
  /** The collections not yet flushed, by their gatherer's key. */
  readonly gathering: Map<unknown, unknown>;
  /** Savepoints open now (withoutDeferral). */
  savepoints: number;
}

const pending = new WeakMap<Transaction, Deferred>();

/** From now on, work gathered in `tx` waits for runBeforeCommit. */
export function openBeforeCommit(tx: Transaction): void {
  pending.set(tx, { flushes: [], lastFlushes: [], gathering: new Map(), savepoints: 0 });
}

/**
 * The collection `key` gathers in `tx` until the end of the transaction, for the caller to add
 * to: made by `create` and its `flush` deferred the first time (with `last`, after every other
 * flush). Undefined when `tx` defers nothing now: the caller does its work itself.
 */
export function gatherToCommit<T>(
  tx: Transaction,
  key: unknown,
  create: () => T,
  flush: (gathered: T) => Promise<void>,
  options: { readonly last?: boolean } = {},
): T | undefined {
  const deferred = pending.get(tx);
  if (!deferred || deferred.savepoints > 0) return undefined;
  if (deferred.gathering.has(key)) return deferred.gathering.get(key) as T;
  const gathered = create();
  deferred.gathering.set(key, gathered);
  (options.last ? deferred.lastFlushes : deferred.flushes).push(async () => {
    deferred.gathering.delete(key);
    await flush(gathered);
  });
  return gathered;
}

/**
 * Runs `work` (the body of a savepoint) with nothing deferred: what arises in it is done in it,
 * so that rolling back to the savepoint takes it back too. Deferred, it would outlive the
 * rollback: a count for a delete that was refused.
 */
export async function withoutDeferral<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  const deferred = pending.get(tx);
  if (deferred) deferred.savepoints += 1;
  try {
    return await work();
  } finally {
    if (deferred) deferred.savepoints -= 1;
  }
}

/** Runs the deferred flushes, in order, including those that flushes start in turn. */
export async function runBeforeCommit(tx: Transaction): Promise<void> {
  const deferred = pending.get(tx);
  if (!deferred) return;
  for (let flush = next(deferred); flush; flush = next(deferred)) await flush();
}

function next(deferred: Deferred): Flush | undefined {
  return deferred.flushes.shift() ?? deferred.lastFlushes.shift();
}

/** Forgets what is left (the transaction ended); later work in `tx` is done at once. */
export function closeBeforeCommit(tx: Transaction): void {
  pending.delete(tx);
}
