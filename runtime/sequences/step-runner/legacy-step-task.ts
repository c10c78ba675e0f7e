import type { Task } from 'graphile-worker';
import { SERVICE_ACTOR } from '../../engine/index.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { scheduleUnlessDue } from './due-steps.js';
import type { StepRunnerDependencies } from './runner-task.js';
import { includesStep, ranSteps } from './step-runs.js';

/**
 * Before the step runner, each due step was a job of its own, `sequence_step`, keyed by state.
 * A database upgraded with such jobs pending still runs them: each one, when it comes due, hands
 * its step to the runner as a due row at its own due time, unless the state has moved on,
 * stopped, run the step, or has a step due already (scheduled since, which supersedes it).
 */

export const LEGACY_STEP_TASK = 'sequence_step';

/** What those jobs carry. */
interface LegacyStepPayload {
  readonly orgId: number;
  readonly stateId: number;
  readonly stepId: number;
  /** ISO 8601. */
  readonly dueAt: string;
}

export function legacyStepTask(deps: Pick<StepRunnerDependencies, 'sql' | 'writer'>): Task {
  return async (payload) => {
    const job = payload as LegacyStepPayload;
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
      const state = (await effects.records.rows('sequenceState', [job.stateId])).get(job.stateId);
      if (state?.state !== 'active' || Number(state.sequenceStep) !== job.stepId) return;
      if (includesStep(await ranSteps(tx, job.orgId, [job]), job)) return;
      await scheduleUnlessDue(tx, job.orgId, [{ stateId: job.stateId, stepId: job.stepId, dueAt: new Date(job.dueAt) }]);
    });
  };
}
