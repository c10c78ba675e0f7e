import type { WriteEffects } from '../engine/index.js';
import { gatherToCommit } from '../tenancy/index.js';
import { Tallies } from './counters.js';

/** The key the transaction's tallies are gathered under. */
const TALLIES = Symbol('activity tallies');

/**
 * Writes tallies to their records at the end of the transaction (tenancy/before-commit.ts), all
 * of the transaction's in one update per record. Every step set and send set of a sequence
 * counts on the same few rows (the sequence, its step, its template); updated where the set
 * counted them, each set would hold those rows locked for the rest of its transaction, and the
 * sets of one sequence would run one after another. Where nothing can be deferred, now.
 */
export async function writeTallies(effects: WriteEffects, tallies: Tallies): Promise<void> {
  if (tallies.empty) return;
  const gathered = gatherToCommit(
    effects.tx,
    TALLIES,
    () => new Tallies(),
    (all) => effects.writeInChunks(all.updates()),
  );
  if (gathered) gathered.merge(tallies);
  else await effects.writeInChunks(tallies.updates());
}
