import { enqueueJobs } from '../jobs/enqueue.js';
import type { Transaction } from '../tenancy/index.js';

/**
 * Every sequence step is a graphile-worker job with a run-at time: one pending job per
 * sequence state at most, under a key of its own, so scheduling a state's next step replaces
 * whatever was pending and cancelling removes it. Nothing waits in a process.
 */

export const SEQUENCE_STEP_TASK = 'sequence_step';

/** What a step job carries: the state, the step it is to run, and when that step was due. */
export interface StepJobPayload {
  readonly orgId: number;
  readonly stateId: number;
  readonly stepId: number;
  /** ISO 8601; the job's run-at, kept to measure lateness and to run date steps on their day. */
  readonly dueAt: string;
}

export interface DueStep {
  readonly stateId: number;
  readonly stepId: number;
  readonly dueAt: Date;
}

/** The job key of a state's pending step; migration 0022 builds the same to cancel it. */
export function stepJobKey(orgId: number, stateId: number): string {
  return `${SEQUENCE_STEP_TASK}:${orgId}:${stateId}`;
}

/** Schedules the steps, one statement for the set, in the caller's transaction. */
export async function scheduleSteps(tx: Transaction, orgId: number, due: readonly DueStep[]): Promise<void> {
  await enqueueJobs(
    tx,
    due.map((d) => ({
      task: SEQUENCE_STEP_TASK,
      payload: { orgId, stateId: d.stateId, stepId: d.stepId, dueAt: d.dueAt.toISOString() } satisfies StepJobPayload,
      jobKey: stepJobKey(orgId, d.stateId),
      runAt: d.dueAt,
    })),
  );
}

/** Removes the pending step jobs of these states (paused, finished, disabled). */
export async function cancelSteps(tx: Transaction, stateIds: readonly number[]): Promise<void> {
  if (stateIds.length === 0) return;
  await tx.unsafe('select cadence_system.remove_sequence_step_jobs($1::bigint[])', [stateIds] as never[], { prepare: true });
}
