import type { Behaviours, ResourceBehaviour } from '../engine/index.js';
import { countAtCommit, type CountingHook } from './at-commit.js';
import { COUNTED_TYPES, COUNTERS_OF } from './counters.js';
import { countMailings } from './mailing-counts.js';
import { countCalls, countSteps, stampEnrolments } from './sequence-counts.js';

/**
 * Activity counts of sequences, sequence steps, sequence templates and templates (issue #27):
 * how many of their mailings were scheduled, delivered, opened, clicked, replied to, bounced,
 * failed or opted out; a sequence's prospects contacted and replied, its steps, when it and
 * a template were last used. They are kept by the writes that change them, as behaviour of the
 * standard resources, so every path follows: the step runner, the set sender, the tracking
 * fold, mailbox sync, unsubscribes, clients' writes and bulk jobs. They are counted as the
 * transaction's last work (at-commit.ts), all its counts written together (tally-writes.ts).
 */
const countingHooks: ReadonlyMap<string, CountingHook> = new Map([
  ['mailing', countMailings],
  ['call', countCalls],
  ['sequenceStep', countSteps],
  ['sequenceState', stampEnrolments],
]);

/** `behaviours` with the counting hooks run after each resource's own afterWrite, and counts starting at 0. */
export function withActivityCounts(behaviours: Behaviours): Behaviours {
  const combined = new Map(behaviours);
  for (const [type, hook] of countingHooks) {
    const own: ResourceBehaviour | undefined = combined.get(type);
    combined.set(type, {
      ...own,
      async afterWrite(written, effects) {
        await own?.afterWrite?.(written, effects);
        // At the end of the transaction, where the locks counting takes on shared rows (the
        // sequence's, its prospects' serialization) are held only until the commit that follows.
        await countAtCommit(hook, written, effects);
      },
    });
  }
  for (const type of COUNTED_TYPES) combined.set(type, countingFromZero(combined.get(type), COUNTERS_OF[type]));
  return combined;
}

/** A new record's counts are 0, not null: nothing has been counted yet. */
function countingFromZero(own: ResourceBehaviour | undefined, counters: readonly string[]): ResourceBehaviour {
  const zeros = Object.fromEntries(counters.map((name) => [name, 0]));
  return {
    ...own,
    derives: [...(own?.derives ?? []), ...counters],
    derive: (next, previous, write) => ({ ...(previous ? {} : zeros), ...own?.derive?.(next, previous, write) }),
  };
}

export { changesOnlyActivity } from './counters.js';
