import type { WriteEffects } from '../engine/index.js';
import { deferToCommit, type Transaction } from '../tenancy/index.js';
import { Tallies } from './counters.js';

/**
 * Writes tallies to their records at the end of the transaction (tenancy/before-commit.ts), all
 * of the transaction's in one update per record. Every step set and send set of a sequence
 * counts on the same few rows (the sequence, its step, its template); updated where the set
 * counted them, each set would hold those rows locked for the rest of its transaction, and the
 * sets of one sequence would run one after another. Where nothing can be deferred, now.
 */
const pending = new WeakMap<Transaction, Tallies>();

export async function writeTallies(effects: WriteEffects, tallies: Tallies): Promise<void> {
  if (tallies.empty) return;
  const waiting = pending.get(effects.tx);
  if (waiting) {
    waiting.merge(tallies);
    return;
  }
  const deferred = deferToCommit(effects.tx, async () => {
    pending.delete(effects.tx);
    await effects.writeInChunks(tallies.updates());
  });
  if (deferred) pending.set(effects.tx, tallies);
  else await effects.writeInChunks(tallies.updates());
}
