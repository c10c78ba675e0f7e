import { changesOnlyActivity } from '../activity-counts/index.js';
import type { FieldError } from '../jsonapi/index.js';
import type { RecordReader, Review, ReviewedWrite } from '../engine/index.js';
import { LIVE_STATES } from './steps.js';

/**
 * Rules of sequences and what they are made of, decided for a whole set at once.
 *
 * Locking: a locked sequence refuses edits (PATCH, DELETE, and creating or changing its steps
 * and their sequence templates, or changing a template one of its steps uses) with 422.
 * Actions stay open: unlock, of course, and activate/deactivate, which run or hold the
 * sequence without changing what it sends; so do the service's activity counts
 * (runtime/activity-counts), which record what it sent.
 *
 * Deleting what running states depend on: a sequence with live states, or a step a live state
 * is on, is refused with 422 (finish or move the states first; deleting them would silently
 * drop prospects from an outreach). A deleted prospect's states finish (consequences.ts).
 */

const LOCKED = 'is locked; unlock it before changing it, its steps or their templates';

/** The reviews that answer every write alike, with `problem` for those it refuses. */
function answer(writes: readonly ReviewedWrite[], problem: (w: ReviewedWrite) => FieldError | undefined): Review[] {
  return writes.map((w) => {
    const found = problem(w);
    return found ? { problems: [found] } : {};
  });
}

function idOf(value: unknown): number | undefined {
  return value == null ? undefined : Number(value);
}

export async function reviewSequences(writes: readonly ReviewedWrite[], records: RecordReader): Promise<Review[]> {
  const deleting = writes.filter((w) => w.kind === 'delete').map((w) => Number(w.previous!.id));
  const live = new Set(deleting.length ? (await records.find('sequenceState', { sequence: deleting, state: LIVE_STATES })).map((s) => Number(s.sequence)) : []);
  const retyped = writes.filter((w) => w.kind === 'update' && w.next!.sequenceType !== w.previous!.sequenceType).map((w) => Number(w.previous!.id));
  const withSteps = new Set(retyped.length ? (await records.find('sequenceStep', { sequence: retyped })).map((s) => Number(s.sequence)) : []);
  return answer(writes, (w) => {
    if (w.kind === 'create' || w.action || changesOnlyActivity('sequence', w.next, w.previous)) return undefined;
    const id = Number(w.previous!.id);
    if (w.previous!.locked === true) return { pointer: '/data', detail: `Sequence ${id} ${LOCKED}` };
    if (w.kind === 'delete' && live.has(id)) {
      return { pointer: '/data', detail: `Sequence ${id} has prospects in it (active, paused or disabled states); finish them before deleting the sequence` };
    }
    // Its steps are timed by the type (an interval or a date each): they would no longer fit.
    if (withSteps.has(id) && w.next?.sequenceType !== w.previous!.sequenceType) {
      return { pointer: '/data/attributes/sequenceType', detail: `Sequence ${id} has steps timed for its type; a sequence with steps cannot change type` };
    }
    return undefined;
  });
}

export async function reviewSequenceSteps(writes: readonly ReviewedWrite[], records: RecordReader): Promise<Review[]> {
  const sequenceIds = writes.flatMap((w) => [idOf(w.next?.sequence), idOf(w.previous?.sequence)]).filter((id): id is number => id !== undefined);
  const sequences = await records.rows('sequence', sequenceIds);
  const deleting = writes.filter((w) => w.kind === 'delete').map((w) => Number(w.previous!.id));
  const onStep = new Set(deleting.length ? (await records.find('sequenceState', { sequenceStep: deleting, state: LIVE_STATES })).map((s) => Number(s.sequenceStep)) : []);
  return writes.map((w) => {
    if (changesOnlyActivity('sequenceStep', w.next, w.previous)) return {};
    const problems: FieldError[] = [];
    for (const id of new Set([idOf(w.previous?.sequence), idOf(w.next?.sequence)])) {
      if (id !== undefined && sequences.get(id)?.locked === true) problems.push({ pointer: '/data/relationships/sequence', detail: `Sequence ${id} ${LOCKED}` });
    }
    if (w.kind === 'delete') {
      if (onStep.has(Number(w.previous!.id))) {
        problems.push({ pointer: '/data', detail: `Sequence step ${w.previous!.id} is the current step of live sequence states; finish them before deleting it` });
      }
    } else {
      const sequence = sequences.get(idOf(w.next!.sequence) ?? -1);
      problems.push(...stepTypeProblems(sequence?.sequenceType, w.next!));
    }
    return problems.length ? { problems } : {};
  });
}

/** An interval sequence's steps have an interval and no date; a date sequence's the reverse. */
function stepTypeProblems(sequenceType: unknown, step: Readonly<Record<string, unknown>>): FieldError[] {
  const hasInterval = step.interval != null;
  const hasDate = step.date != null;
  if (sequenceType === 'date') {
    return [
      ...(hasDate ? [] : [{ pointer: '/data/attributes/date', detail: 'A step of a date sequence needs a date' }]),
      ...(hasInterval ? [{ pointer: '/data/attributes/interval', detail: 'A step of a date sequence has a date, not an interval' }] : []),
    ];
  }
  return [
    ...(hasInterval ? [] : [{ pointer: '/data/attributes/interval', detail: 'A step of an interval sequence needs an interval (minutes after the previous step)' }]),
    ...(hasDate ? [{ pointer: '/data/attributes/date', detail: 'A step of an interval sequence has an interval, not a date' }] : []),
  ];
}

export async function reviewSequenceTemplates(writes: readonly ReviewedWrite[], records: RecordReader): Promise<Review[]> {
  const stepIds = writes.flatMap((w) => [idOf(w.next?.sequenceStep), idOf(w.previous?.sequenceStep)]).filter((id): id is number => id !== undefined);
  const steps = await records.rows('sequenceStep', stepIds);
  const sequences = await records.rows(
    'sequence',
    [...steps.values()].map((s) => Number(s.sequence)),
  );
  return answer(writes, (w) => {
    if (w.action || changesOnlyActivity('sequenceTemplate', w.next, w.previous)) return undefined;
    for (const stepId of new Set([idOf(w.previous?.sequenceStep), idOf(w.next?.sequenceStep)])) {
      const sequenceId = idOf(steps.get(stepId ?? -1)?.sequence);
      if (sequenceId !== undefined && sequences.get(sequenceId)?.locked === true)
        return { pointer: '/data/relationships/sequenceStep', detail: `Sequence ${sequenceId} ${LOCKED}` };
    }
    return undefined;
  });
}

export async function reviewTemplates(writes: readonly ReviewedWrite[], records: RecordReader): Promise<Review[]> {
  const changing = writes.filter((w) => w.kind !== 'create').map((w) => Number(w.previous!.id));
  if (changing.length === 0) return writes.map(() => ({}));
  const uses = await records.find('sequenceTemplate', { template: changing });
  const steps = await records.rows(
    'sequenceStep',
    uses.map((u) => Number(u.sequenceStep)),
  );
  const sequences = await records.rows(
    'sequence',
    [...steps.values()].map((s) => Number(s.sequence)),
  );
  const lockedBy = new Map<number, number>();
  for (const use of uses) {
    const sequenceId = idOf(steps.get(Number(use.sequenceStep))?.sequence);
    if (sequenceId !== undefined && sequences.get(sequenceId)?.locked === true) lockedBy.set(Number(use.template), sequenceId);
  }
  return answer(writes, (w) => {
    if (changesOnlyActivity('template', w.next, w.previous)) return undefined;
    const sequenceId = w.kind === 'create' ? undefined : lockedBy.get(Number(w.previous!.id));
    return sequenceId === undefined ? undefined : { pointer: '/data', detail: `The template is used by sequence ${sequenceId}, which ${LOCKED}` };
  });
}
