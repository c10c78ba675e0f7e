import { enqueueJobs } from '../jobs/enqueue.js';
import { shareFlag } from '../jobs/fair-share.js';
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
 * The share flag of an org's compliance jobs (runtime/jobs/fair-share.ts): however many tasks an
 * org's requests have (one per prospect with the address, which anyone with
 * complianceRequests.write can make many of), they take all but one of a worker's slots at
 * most, so other orgs' due jobs always find one. A named queue per org would bound them to one
 * slot, but graphile-worker looks for a queue's next job only at its next poll, which made each
 * task wait about 0.7 s: hours for a request over thousands of prospects.
 */
export function complianceShare(orgId: number): string[] {
  return [shareFlag(`compliance:${orgId}`)];
}

/** The planning job, enqueued in the create's transaction; its key makes a second enqueue harmless. */
export async function enqueuePlan(tx: Transaction, orgId: number, requestId: number): Promise<void> {
  const payload: PlanRequestPayload = { orgId, requestId };
  await enqueueJobs(tx, [{ task: PLAN_REQUEST_TASK, payload: { ...payload }, jobKey: `${PLAN_REQUEST_TASK}:${orgId}:${requestId}`, flags: complianceShare(orgId) }]);
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
      return { task: RUN_TASK_TASK, payload: { ...payload }, jobKey: `${RUN_TASK_TASK}:${orgId}:${taskId}`, flags: complianceShare(orgId), ...(runAt && { runAt }) };
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
