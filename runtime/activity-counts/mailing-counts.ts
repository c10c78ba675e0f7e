import type { WriteEffects, WrittenRecord } from '../engine/index.js';
import { writeTallies } from './tally-writes.js';
import { Tallies, type CountedType } from './counters.js';
import { countedOutcomes, usesTemplate } from './mailing-outcomes.js';
import { firstReaches, reachOf } from './prospects-reached.js';
import { CONTACTED, REPLIED } from './reach-kinds.js';

/**
 * A written set of mailings adds what it reached to the counts of their sequence, sequence step,
 * sequence template and template, and stamps the templates it made mailings from: one update
 * per record counted, through the writer in the same transaction (so sequence.updated and the
 * like are recorded as for prospects' counts), whatever the size of the set: 10,000 deliveries
 * of one sequence are a few updates.
 */
export async function countMailings(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const tallies = new Tallies();
  const counted = written.map((w) => ({ w, outcomes: countedOutcomes(w) })).filter(({ w, outcomes }) => outcomes.length > 0 || usesTemplate(w));
  if (counted.length === 0) return;
  const sequenceTemplates = await sequenceTemplatesOf(
    effects,
    counted.filter(({ outcomes }) => outcomes.length > 0).map(({ w }) => w.row),
  );
  const now = effects.now.toISOString();
  for (const { w, outcomes } of counted) {
    const targets: [CountedType, unknown][] = [
      ['sequence', w.row.sequence],
      ['sequenceStep', w.row.sequenceStep],
      ['sequenceTemplate', sequenceTemplates.get(`${Number(w.row.sequenceStep)}:${Number(w.row.template)}`)],
      ['template', w.row.template],
    ];
    for (const outcome of outcomes) for (const [type, id] of targets) tallies.add(type, id, outcome);
    if (usesTemplate(w)) tallies.used('template', w.row.template, now);
  }
  const reachedBy = (outcome: string) => counted.flatMap(({ w, outcomes }) => (outcomes.includes(outcome as never) ? reachOf(w) : []));
  for (const [sequence, n] of await firstReaches(effects.records, 'mailing', reachedBy('deliverCount'), CONTACTED))
    tallies.add('sequence', sequence, 'numContactedProspects', n);
  for (const [sequence, n] of await firstReaches(effects.records, 'mailing', reachedBy('replyCount'), REPLIED))
    tallies.add('sequence', sequence, 'numRepliedProspects', n);
  await writeTallies(effects, tallies);
}

/**
 * The sequence template each mailing of a step was made from, by step and template: a mailing
 * names its step and template, and the step's use of that template is the sequence template
 * (the first, should a step use one template twice).
 */
async function sequenceTemplatesOf(effects: WriteEffects, mailings: readonly Readonly<Record<string, unknown>>[]): Promise<Map<string, number>> {
  const fromSteps = mailings.filter((m) => m.sequenceStep != null && m.template != null);
  const found = new Map<string, number>();
  if (fromSteps.length === 0) return found;
  const uses = await effects.records.find('sequenceTemplate', {
    sequenceStep: [...new Set(fromSteps.map((m) => Number(m.sequenceStep)))],
    template: [...new Set(fromSteps.map((m) => Number(m.template)))],
  });
  for (const use of uses) {
    const key = `${Number(use.sequenceStep)}:${Number(use.template)}`;
    if (!found.has(key)) found.set(key, Number(use.id));
  }
  return found;
}
