import type { TaskList } from 'graphile-worker';
import { TRACE_STEPS } from './erasure/index.js';
import { PLAN_REQUEST_TASK, RUN_TASK_TASK } from './jobs.js';
import { planRequestTask, type ComplianceJobDependencies } from './plan.js';
import { runTaskTask, type ComplianceFaults } from './task-run.js';

/**
 * Compliance (deletion) requests, SPEC.md: `POST /api/v2/complianceRequests` names an address;
 * a planning job finds the org's prospects with it and creates the request's tasks: phase 1
 * deletes each prospect with the records tied to it (through the writer, so destroyed webhooks
 * fire), phase 2 scrubs the address from whatever still holds it (events, webhook attempt logs,
 * batch and import data, uploaded files, stored mail). Each task is a job, retried with backoff
 * until done; the request is done when every task is.
 */
export { mountComplianceRequestRoute, type ComplianceRouteOptions } from './request-route.js';
export { PLAN_REQUEST_TASK, RUN_TASK_TASK } from './jobs.js';
export type { ComplianceFaults } from './task-run.js';
export { TRACE_STEPS } from './erasure/index.js';

export interface ComplianceTaskOptions extends Omit<ComplianceJobDependencies, 'traceSteps'> {
  readonly traceSteps?: ComplianceJobDependencies['traceSteps'];
  readonly faults?: ComplianceFaults | undefined;
}

/** The worker's tasks of compliance requests. */
export function complianceTasks(options: ComplianceTaskOptions): TaskList {
  const deps = { ...options, traceSteps: options.traceSteps ?? TRACE_STEPS };
  return {
    [PLAN_REQUEST_TASK]: planRequestTask(deps),
    [RUN_TASK_TASK]: runTaskTask(deps),
  };
}
