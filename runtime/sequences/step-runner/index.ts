import type { TaskList } from 'graphile-worker';
import { LEGACY_STEP_TASK, legacyStepTask } from './legacy-step-task.js';
import { stepRunnerTask, type StepRunnerDependencies } from './runner-task.js';
import { STEP_RUNNER_TASK } from './runner-jobs.js';

/**
 * The sequence step runner: due steps are rows of sequence_steps_due (due-steps.ts), woken by one
 * job per org and due instant (runner-jobs.ts), claimed and run in bounded sets, one transaction
 * per set (runner-task.ts, run-steps.ts), each step exactly once (step-runs.ts).
 */

export function stepRunnerTasks(deps: StepRunnerDependencies): TaskList {
  return { [STEP_RUNNER_TASK]: stepRunnerTask(deps), [LEGACY_STEP_TASK]: legacyStepTask(deps) };
}

export { cancelSteps, scheduleSteps, type DueStep } from './due-steps.js';
export { includesStep, ranSteps } from './step-runs.js';
export { LEGACY_STEP_TASK } from './legacy-step-task.js';
export { STEP_RUNNER_PRIORITY, STEP_RUNNER_TASK, wakeRunnerAt } from './runner-jobs.js';
export { SET_SIZE, type StepRunnerDependencies } from './runner-task.js';
