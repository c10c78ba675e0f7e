import type { WriteEffects, WrittenRecord } from '../engine/index.js';
import { writeTallies } from './tally-writes.js';
import { Tallies } from './counters.js';
import { firstReaches, reachOf } from './prospects-reached.js';
import { CONTACTED } from './reach-kinds.js';

/** A sequence's sequenceStepCount follows its steps: made, deleted, or moved to another sequence. */
export async function countSteps(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const tallies = new Tallies();
  for (const w of written) {
    if (w.kind === 'create') tallies.add('sequence', w.row.sequence, 'sequenceStepCount', 1);
    else if (w.kind === 'delete') tallies.add('sequence', w.row.sequence, 'sequenceStepCount', -1);
    else if (w.changed.has('sequence')) {
      tallies.add('sequence', w.previous?.sequence, 'sequenceStepCount', -1);
      tallies.add('sequence', w.row.sequence, 'sequenceStepCount', 1);
    }
  }
  await writeTallies(effects, tallies);
}

/** A sequence is used when a prospect is added to it: its lastUsedAt is the latest enrolment. */
export async function stampEnrolments(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const tallies = new Tallies();
  for (const w of written) if (w.kind === 'create') tallies.used('sequence', w.row.sequence, effects.now.toISOString());
  await writeTallies(effects, tallies);
}

/** A call logged in a sequence contacts its prospect (numContactedProspects), once per prospect. */
export async function countCalls(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const reaches = written.flatMap((w) => (w.kind === 'create' ? reachOf(w) : []));
  const tallies = new Tallies();
  for (const [sequence, n] of await firstReaches(effects.records, 'call', reaches, CONTACTED)) tallies.add('sequence', sequence, 'numContactedProspects', n);
  await writeTallies(effects, tallies);
}
