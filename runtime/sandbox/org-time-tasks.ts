import type { Task, TaskList } from 'graphile-worker';
import type postgres from 'postgres';
import { runInOrgTime } from '../tenancy/org-time.js';
import { orgTimeOf } from './clock.js';

/**
 * The org a job works for: its payload's `orgId`, or the one `orgId` every item of a batch job
 * shares. Jobs of the deployment (crontab purges) and of several orgs at once name none.
 */
export function orgOfPayload(payload: unknown): number | undefined {
  if (Array.isArray(payload)) {
    const orgs = new Set(payload.map(orgOfPayload));
    return orgs.size === 1 ? [...orgs][0] : undefined;
  }
  if (typeof payload !== 'object' || payload === null) return undefined;
  const orgId = (payload as { orgId?: unknown }).orgId;
  return typeof orgId === 'number' && Number.isSafeInteger(orgId) ? orgId : undefined;
}

/**
 * The worker's tasks in sandbox mode: each job that works for one org runs in that org's time
 * (tenancy/org-time.ts), so what it finds due, the times it writes and the run-at of the jobs it
 * enqueues follow the org's test clock. One indexed read per such job.
 */
export function tasksInOrgTime(tasks: TaskList, sql: postgres.Sql): TaskList {
  return Object.fromEntries(Object.entries(tasks).map(([name, task]) => [name, task && inOrgTime(task, sql)]));
}

function inOrgTime(task: Task, sql: postgres.Sql): Task {
  return async (payload, helpers) => {
    const orgId = orgOfPayload(payload);
    if (orgId === undefined) return task(payload, helpers);
    return runInOrgTime(await orgTimeOf(sql, orgId), () => task(payload, helpers));
  };
}
