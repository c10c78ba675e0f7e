import type { WriteEffects, WriteOperation, WrittenRecord } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import { moveOn, type MoveKind } from './advance.js';
import { LIVE_STATES, stepsOf } from './steps.js';

/** What writes of other resources set in motion for sequence states, in the same transaction. */

const MOVES: Readonly<Record<string, MoveKind>> = { advance: 'advance', finish: 'finish', finishReplied: 'finishReplied' };

/**
 * A task of a sequence step completed (markComplete, advance, logMeetInPerson, a call with
 * `meta.complete`) moves its state on as its action says; `deliver` schedules the task's
 * drafted mailing now (its delivery is the e-mail service's).
 */
export async function afterTaskWrites(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const moves = written.flatMap((w) => {
    // An action that completes a task without saying more (markComplete with no
    // completionAction) advances, as completing it any other way does.
    const completed = w.changed.has('completed') && w.row.completed === true;
    const kind = w.effect ? MOVES[w.effect] : completed ? 'advance' : undefined;
    if (!kind || w.row.sequenceState == null || w.row.sequenceStep == null) return [];
    return [{ stateId: Number(w.row.sequenceState), fromStepId: Number(w.row.sequenceStep), kind }];
  });
  await effects.write(callsCompleted(written, effects));
  await moveOn(effects, moves);
  const deliveries = written.filter((w) => w.effect === 'deliver' && w.row.mailing != null);
  await effects.write(deliveries.map((w) => effects.update('mailing', Number(w.row.mailing), { state: 'scheduled', scheduledAt: effects.now.toISOString() })));
}

/**
 * A sequence state's callCompletedAt: when a call task of it was last completed, whatever the
 * state does next (one paused or finished meanwhile is stamped all the same).
 */
function callsCompleted(written: readonly WrittenRecord[], effects: WriteEffects): WriteOperation[] {
  const states = written.filter((w) => w.changed.has('completed') && w.row.completed === true && w.row.action === 'call' && w.row.sequenceState != null);
  const now = effects.now.toISOString();
  return [...new Set(states.map((w) => Number(w.row.sequenceState)))].map((id) => effects.update('sequenceState', id, { callCompletedAt: now }));
}

/**
 * A sequence deactivated holds its running states (`disabled`, their jobs removed); activated
 * again, they run on from where they were.
 */
export async function afterSequenceWrites(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const toggled = written.filter((w) => w.kind === 'update' && w.changed.has('enabled'));
  const disabling = toggled.filter((w) => w.row.enabled === false).map((w) => Number(w.row.id));
  const enabling = toggled.filter((w) => w.row.enabled === true).map((w) => Number(w.row.id));
  const holds = disabling.length ? await effects.records.find('sequenceState', { sequence: disabling, state: ['pending', 'active'] }) : [];
  const releases = enabling.length ? await effects.records.find('sequenceState', { sequence: enabling, state: ['disabled'] }) : [];
  await effects.writeInChunks([
    ...holds.map((s) => effects.update('sequenceState', Number(s.id), { state: 'disabled' })),
    ...releases.map((s) => effects.update('sequenceState', Number(s.id), { state: 'active' })),
  ]);
}

/**
 * The first step added to a sequence is attached to its states that had none (enrolled while
 * the sequence had no steps), which starts them.
 */
export async function afterStepWrites(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const sequenceIds = [...new Set(written.filter((w) => w.kind === 'create').map((w) => Number(w.row.sequence)))].filter((id) => id > 0);
  if (sequenceIds.length === 0) return;
  const waiting = (await effects.records.find('sequenceState', { sequence: sequenceIds, state: ['active'] })).filter((s) => s.sequenceStep == null);
  if (waiting.length === 0) return;
  const steps = await stepsOf(effects.records, sequenceIds);
  await effects.writeInChunks(
    waiting.flatMap((s) => {
      const first = steps.get(Number(s.sequence))?.[0];
      return first ? [effects.update('sequenceState', Number(s.id), { sequenceStep: Number(first.id), activeAt: effects.now.toISOString() })] : [];
    }),
  );
}

/**
 * A prospect deleted (by a client, a bulk destroy or a compliance request) finishes its live
 * sequence states first: they could never run again, and deleting must not be refused.
 */
export async function beforeProspectsDeleted(rows: readonly Row[], effects: WriteEffects): Promise<void> {
  const live = await effects.records.find('sequenceState', {
    prospect: rows.map((r) => Number(r.id)),
    state: LIVE_STATES,
  });
  await effects.writeInChunks(live.map((s) => effects.update('sequenceState', Number(s.id), { state: 'finished', errorReason: 'The prospect was deleted' }, 'finished')));
}
