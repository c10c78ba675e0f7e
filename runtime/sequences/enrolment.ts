import type { FieldError } from '../jsonapi/index.js';
import type { RecordReader, Review, ReviewedWrite, WriteContext } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import { LIVE_STATES, stepsOf } from './steps.js';

/**
 * Who may be enrolled in a sequence (POST /sequenceStates, prospectsAddToSequence), decided
 * for a whole set at once: a handful of statements per set, whatever its size.
 *
 * - The sequence must be enabled (not deactivated), the prospect not opted out (nor out of
 *   e-mail, when the sequence has e-mail steps).
 * - The sequence's ruleset decides duplicates. `permitDuplicateProspects`: `allow` enrols a
 *   prospect however often; `only_if_inactive` (SPEC.md's `onlyIfActive` is taken as the same
 *   rule) only when none of its states in this sequence is live; `disallow`, and a sequence
 *   without a ruleset or value, never twice. `sequenceExclusivity`: `all_sequences` refuses a
 *   prospect live in any other sequence; `exclusive_sequences` one live in another sequence
 *   whose ruleset is exclusive too.
 * - Enrolments of the same prospects take turns (advisory locks), so two concurrent requests
 *   cannot both pass the duplicate rule.
 *
 * An accepted state starts `active` on the sequence's first step (none while the sequence has
 * no steps: the first step added is attached then) and takes the prospect's account.
 */
export async function reviewEnrolments(writes: readonly ReviewedWrite[], records: RecordReader, write: WriteContext): Promise<Review[]> {
  const enrolments = writes.flatMap((w, index) => (w.kind === 'create' && w.next ? [{ index, next: w.next }] : []));
  const reviews: Review[] = writes.map(() => ({}));
  if (enrolments.length === 0) return reviews;
  const prospectIds = enrolments.map((e) => Number(e.next.prospect)).filter(Number.isFinite);
  const sequenceIds = enrolments.map((e) => Number(e.next.sequence)).filter(Number.isFinite);
  await records.serialize('enrolment', prospectIds);

  const sequences = await records.rows('sequence', sequenceIds);
  const prospects = await records.rows('prospect', prospectIds);
  const liveOrPast = await records.find('sequenceState', { prospect: prospectIds });
  const otherSequences = await records.rows('sequence', liveOrPast.map((s) => Number(s.sequence)).filter(Number.isFinite));
  const rulesets = await records.rows(
    'ruleset',
    [...sequences.values(), ...otherSequences.values()].map((s) => Number(s.ruleset)).filter((id) => id > 0),
  );
  const steps = await stepsOf(records, sequenceIds);

  const statesOf = new Map<number, { sequence: number; state: string }[]>();
  for (const s of liveOrPast) addState(statesOf, Number(s.prospect), Number(s.sequence), String(s.state));
  const rulesetOf = (sequence: Row | undefined) => (sequence?.ruleset == null ? undefined : rulesets.get(Number(sequence.ruleset)));

  for (const { index, next } of enrolments) {
    const sequenceId = Number(next.sequence);
    const prospectId = Number(next.prospect);
    const sequence = sequences.get(sequenceId);
    const prospect = prospects.get(prospectId);
    // A missing prospect or sequence was refused by the relationship check already.
    if (!sequence || !prospect) continue;
    const problems: FieldError[] = [];
    if (sequence.enabled === false) {
      problems.push({ pointer: '/data/relationships/sequence', detail: `Sequence ${sequenceId} is inactive; activate it before enrolling prospects` });
    }
    if (prospect.optedOut === true) {
      problems.push({ pointer: '/data/relationships/prospect', detail: `Prospect ${prospectId} has opted out and cannot be enrolled in a sequence` });
    } else if (prospect.emailOptedOut === true && (steps.get(sequenceId) ?? []).some((step) => String(step.stepType).endsWith('email'))) {
      problems.push({
        pointer: '/data/relationships/prospect',
        detail: `Prospect ${prospectId} has opted out of e-mail, and sequence ${sequenceId} sends e-mail`,
      });
    }
    const states = statesOf.get(prospectId) ?? [];
    const ruleset = rulesetOf(sequence);
    const duplicate = duplicateProblem(ruleset, states, sequenceId, prospectId);
    if (duplicate) problems.push(duplicate);
    const exclusive = exclusivityProblem(ruleset, states, sequenceId, prospectId, (id) => rulesetOf(sequences.get(id) ?? otherSequences.get(id)));
    if (exclusive) problems.push(exclusive);
    if (problems.length) {
      reviews[index] = { problems };
      continue;
    }
    // Later enrolments of the same set see this one, as if they came one after another.
    addState(statesOf, prospectId, sequenceId, 'active');
    const first = steps.get(sequenceId)?.[0];
    reviews[index] = {
      changes: { state: 'active', sequenceStep: first ? Number(first.id) : null, activeAt: write.now.toISOString(), account: prospect.account ?? null },
    };
  }
  return reviews;
}

function addState(statesOf: Map<number, { sequence: number; state: string }[]>, prospect: number, sequence: number, state: string): void {
  const states = statesOf.get(prospect) ?? [];
  states.push({ sequence, state });
  statesOf.set(prospect, states);
}

type DuplicateRule = 'allow' | 'onlyIfInactive' | 'disallow';

function duplicateRule(ruleset: Row | undefined): DuplicateRule {
  const value = ruleset?.permitDuplicateProspects;
  if (value === 'allow') return 'allow';
  if (value === 'only_if_inactive' || value === 'onlyIfActive' || value === 'onlyIfInactive') return 'onlyIfInactive';
  return 'disallow';
}

function duplicateProblem(
  ruleset: Row | undefined,
  states: readonly { sequence: number; state: string }[],
  sequenceId: number,
  prospectId: number,
): FieldError | undefined {
  const rule = duplicateRule(ruleset);
  if (rule === 'allow') return undefined;
  const inSequence = states.filter((s) => s.sequence === sequenceId);
  const refused = rule === 'disallow' ? inSequence.length > 0 : inSequence.some((s) => LIVE_STATES.includes(s.state));
  if (!refused) return undefined;
  return {
    pointer: '/data/relationships/prospect',
    detail:
      rule === 'disallow'
        ? `Prospect ${prospectId} is already in sequence ${sequenceId}, whose ruleset does not permit duplicate prospects`
        : `Prospect ${prospectId} is still active in sequence ${sequenceId}; its ruleset permits adding it again only once that state is inactive`,
  };
}

function exclusivityProblem(
  ruleset: Row | undefined,
  states: readonly { sequence: number; state: string }[],
  sequenceId: number,
  prospectId: number,
  rulesetOfSequence: (id: number) => Row | undefined,
): FieldError | undefined {
  const exclusivity = ruleset?.sequenceExclusivity;
  if (exclusivity !== 'all_sequences' && exclusivity !== 'exclusive_sequences') return undefined;
  const blocking = states.find((s) => {
    if (s.sequence === sequenceId || !LIVE_STATES.includes(s.state)) return false;
    if (exclusivity === 'all_sequences') return true;
    const other = rulesetOfSequence(s.sequence)?.sequenceExclusivity;
    return other === 'all_sequences' || other === 'exclusive_sequences';
  });
  if (!blocking) return undefined;
  return {
    pointer: '/data/relationships/prospect',
    detail: `Prospect ${prospectId} is active in sequence ${blocking.sequence}, and the ruleset of sequence ${sequenceId} is exclusive (${exclusivity})`,
  };
}
