import type { RecordReader } from '../engine/index.js';
import type { Row } from '../engine/render.js';

/**
 * A sequence's steps in the order they run, and when each is due. Steps run by `order`, ties
 * (and steps without one) by creation.
 */

/** The states a prospect is "in" a sequence in: running, or held and able to run again. */
export const LIVE_STATES: readonly string[] = ['pending', 'active', 'paused', 'disabled'];

/** The steps of each sequence, in running order. */
export async function stepsOf(records: RecordReader, sequenceIds: Iterable<number>): Promise<Map<number, Row[]>> {
  const ids = [...new Set(sequenceIds)];
  const bySequence = new Map<number, Row[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return bySequence;
  for (const step of await records.find('sequenceStep', { sequence: ids })) bySequence.get(Number(step.sequence))?.push(step);
  for (const steps of bySequence.values()) steps.sort(runningOrder);
  return bySequence;
}

function runningOrder(a: Row, b: Row): number {
  const order = (row: Row) => (typeof row.order === 'number' ? row.order : Number.MAX_SAFE_INTEGER);
  return order(a) - order(b) || Number(a.id) - Number(b.id);
}

/** The step after `stepId` in `steps` (running order), or undefined after the last. */
export function stepAfter(steps: readonly Row[], stepId: number): Row | undefined {
  const at = steps.findIndex((s) => Number(s.id) === stepId);
  return at < 0 ? undefined : steps[at + 1];
}

const MINUTE_MS = 60_000;

/**
 * When a step is due, counted from `from` (enrolment, the previous step's completion, a
 * resume): interval sequences wait the step's `interval` minutes; date sequences run on the
 * step's `date` (from midnight UTC that day), or at once when that day has begun. A sequence
 * without a type is an interval sequence, as one created by a client that never set it.
 */
export function dueAt(sequenceType: unknown, step: Row, from: Date): Date {
  if (sequenceType === 'date' && typeof step.date === 'string') {
    const day = new Date(`${step.date}T00:00:00.000Z`);
    return day > from ? day : from;
  }
  const minutes = typeof step.interval === 'number' ? step.interval : 0;
  return new Date(from.getTime() + minutes * MINUTE_MS);
}
