import type { WriteEffects, WrittenRecord } from '../engine/index.js';
import { cancelSteps, includesStep, ranSteps, scheduleSteps, type DueStep } from './step-runner/index.js';
import { dueAt } from './steps.js';

/**
 * A sequence state's due step (step-runner/) follows from its state alone, whoever changed it
 * (enrolment, a step completing, pause, resume, finish, a sequence deactivated): one place decides.
 * - Active on a step it has not run (created; moved to the step; back to active): the step is
 *   scheduled from now, replacing any step due for the state.
 * - No longer active (paused, finished, disabled, deleted): its due step is removed.
 * A state back to active on a step that already ran (its task is still open) waits for that
 * task: nothing is scheduled.
 */
export async function scheduleStateSteps(written: readonly WrittenRecord[], effects: WriteEffects): Promise<void> {
  const starting = written.filter((w) => {
    if (w.kind === 'delete' || w.row.state !== 'active' || w.row.sequenceStep == null) return false;
    return w.kind === 'create' || w.changed.has('sequenceStep') || (w.changed.has('state') && w.previous?.state !== 'active');
  });
  const stopping = written.filter((w) => w.kind === 'delete' || (w.changed.has('state') && w.previous?.state === 'active' && w.row.state !== 'active'));
  await cancelSteps(
    effects.tx,
    effects.orgId,
    stopping.map((w) => Number(w.row.id)),
  );
  if (starting.length === 0) return;

  const pairs = starting.map((w) => ({ stateId: Number(w.row.id), stepId: Number(w.row.sequenceStep) }));
  const ran = await ranSteps(effects.tx, effects.orgId, pairs);
  const steps = await effects.records.rows(
    'sequenceStep',
    pairs.map((p) => p.stepId),
  );
  const sequences = await effects.records.rows(
    'sequence',
    starting.map((w) => Number(w.row.sequence)),
  );
  const due: DueStep[] = [];
  for (const w of starting) {
    const stepId = Number(w.row.sequenceStep);
    const step = steps.get(stepId);
    if (!step || includesStep(ran, { stateId: Number(w.row.id), stepId })) continue;
    due.push({ stateId: Number(w.row.id), stepId, dueAt: dueAt(sequences.get(Number(w.row.sequence))?.sequenceType, step, effects.now) });
  }
  await scheduleSteps(effects.tx, effects.orgId, due);
}
