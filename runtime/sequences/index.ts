import type { TaskList } from 'graphile-worker';
import type { Behaviours, ResourceBehaviour } from '../engine/index.js';
import { afterSequenceWrites, afterStepWrites, afterTaskWrites, beforeProspectsDeleted } from './consequences.js';
import { reviewEnrolments } from './enrolment.js';
import { reviewSequenceSteps, reviewSequences, reviewSequenceTemplates, reviewTemplates } from './rules.js';
import { scheduleStateSteps } from './scheduling.js';
import { stepRunnerTasks, type StepRunnerDependencies } from './step-runner/index.js';

/**
 * Sequences that run (SPEC.md "Sequence state", "Task"): enrolment rules, due steps run in sets
 * by the step runner (step-runner/) when their time comes, tasks and mailings made by steps,
 * states moving on as tasks complete, and the rules of locked sequences and of deleting what
 * states depend on.
 * It is behaviour of the standard resources (review and afterWrite hooks of the record
 * writer), so every path that writes them, one request or a bulk action, follows it.
 */
export const sequenceAutomation: ReadonlyMap<string, Partial<ResourceBehaviour>> = new Map<string, Partial<ResourceBehaviour>>([
  ['sequenceState', { review: (writes, records, write) => reviewEnrolments(writes, records, write), afterWrite: scheduleStateSteps }],
  ['sequence', { review: reviewSequences, afterWrite: afterSequenceWrites }],
  ['sequenceStep', { review: reviewSequenceSteps, afterWrite: afterStepWrites }],
  ['sequenceTemplate', { review: reviewSequenceTemplates }],
  ['template', { review: reviewTemplates }],
  ['task', { afterWrite: afterTaskWrites }],
  ['prospect', { beforeDelete: beforeProspectsDeleted }],
]);

/** `behaviours` with the sequence automation's hooks added to the resources it concerns. */
export function withSequenceAutomation(behaviours: Behaviours): Behaviours {
  const combined = new Map(behaviours);
  for (const [type, hooks] of sequenceAutomation) combined.set(type, { ...behaviours.get(type), ...hooks });
  return combined;
}

export function sequenceTasks(deps: StepRunnerDependencies): TaskList {
  return stepRunnerTasks(deps);
}

export { LEGACY_STEP_TASK, SET_SIZE, STEP_RUNNER_PRIORITY, STEP_RUNNER_TASK, wakeRunnerAt } from './step-runner/index.js';
