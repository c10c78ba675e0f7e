import { enqueueJobs } from '../jobs/enqueue.js';
import type { Transaction } from '../tenancy/index.js';

/** Plans a new request: finds the prospects and creates the tasks. */
export const PLAN_REQUEST_TASK = 'plan_compliance_request';
/** Runs one task of a request. */
export const RUN_TASK_TASK = 'run_compliance_task';

export interface PlanRequestPayload {
  readonly orgId: number;
  readonly requestId: number;
}

export interface RunTaskPayload {
  readonly orgId: number;
  readonly taskId: number;
}

/**
 * The named queue of an org's compliance jobs: graphile-worker runs the jobs of one queue one at
 * a time, so an org's requests, however many tasks they have (one per prospect with the
 * address, which anyone with complianceRequests.write can make many of), take one of the
 * worker's slots at most and never starve other orgs' jobs.
 */
export function complianceQueue(orgId: number): string {
  return `compliance:${orgId}`;
}

/** The planning job, enqueued in the create's transaction; its key makes a second enqueue harmless. */
export async function enqueuePlan(tx: Transaction, orgId: number, requestId: number): Promise<void> {
  const payload: PlanRequestPayload = { orgId, requestId };
  await enqueueJobs(tx, [{ task: PLAN_REQUEST_TASK, payload: { ...payload }, jobKey: `${PLAN_REQUEST_TASK}:${orgId}:${requestId}`, queueName: complianceQueue(orgId) }]);
}

/**
 * The jobs of tasks now queued, or of one to retry at `runAt`. One key per task: at most one
 * pending job each, whoever enqueues it again.
 */
export async function enqueueTaskRuns(tx: Transaction, orgId: number, taskIds: readonly number[], runAt?: Date): Promise<void> {
  await enqueueJobs(
    tx,
    taskIds.map((taskId) => {
      const payload: RunTaskPayload = { orgId, taskId };
      return { task: RUN_TASK_TASK, payload: { ...payload }, jobKey: `${RUN_TASK_TASK}:${orgId}:${taskId}`, queueName: complianceQueue(orgId), ...(runAt && { runAt }) };
    }),
  );
}

/** Retries wait 10 s, then twice as long each time, at most an hour: a task is retried until it succeeds. */
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 3_600_000;

/** When a task that has failed `attempts` times runs again. */
export function nextAttemptAt(attempts: number, now: Date): Date {
  const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts - 1, 20));
  return new Date(now.getTime() + delay);
}
