import type { Task } from 'graphile-worker';
import { SERVICE_ACTOR } from '../engine/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { addressPattern, REDACTED, type ErasureStep } from './erasure/index.js';
import { enqueueTaskRuns, nextAttemptAt, type RunTaskPayload } from './jobs.js';
import type { ComplianceJobDependencies } from './plan.js';
import { deleteProspectAndRecords } from './prospect-deletion.js';
import { forgetAddress, lockRequest } from './request-rows.js';
import { hasUnfinishedTask, lockTask, PROSPECT_KIND, PROSPECT_PHASE, recordFailure, remainingTasks, setTaskState, TRACE_PHASE, type TaskRow } from './task-rows.js';

/** Where a test makes a run fail (fault injection): called once the task is running, before the work. */
export type ComplianceFaults = (run: { readonly taskId: number; readonly kind: string; readonly attempt: number }) => void | Promise<void>;

export interface RunTaskDependencies extends ComplianceJobDependencies {
  readonly faults?: ComplianceFaults | undefined;
}

/**
 * The job of one task. It marks the task `running` (committed, so clients see it), then does
 * the work. A prospect task deletes the prospect and its records, marks the task `done` and
 * moves the request on in one transaction: an error rolls the deletion back whole. A trace
 * step works in short transactions of its own, a slice of rows each (erasure/slices.ts), so it
 * never holds a core, locks or a connection for as long as the org is large; then a last
 * transaction marks the task `done` and moves the request on. A step cut short by an error or
 * a crash keeps the slices it committed, and its next run finds only what is left.
 *
 * An error is recorded in a transaction of its own (`temporary_failure`, the attempt counted,
 * the error kept without the address) with the next run enqueued at a backoff by the
 * service's clock; the job itself succeeds, so graphile-worker's attempt limit never ends the
 * retries: `done` is the only way out.
 */
export function runTaskTask(deps: RunTaskDependencies): Task {
  return async (payload) => {
    const job = payload as RunTaskPayload;
    const task = await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      const row = await lockTask(tx, job.orgId, job.taskId);
      // Pending: its phase has not begun (a job from an earlier plan can only be stale).
      if (!row || row.state === 'done' || row.state === 'pending') return undefined;
      await setTaskState(tx, job.orgId, [row.id], 'running', deps.clock());
      return row;
    });
    if (!task) return;
    let email = '';
    try {
      email = await orgScopedTransaction(deps.sql, job.orgId, (tx) => requestAddress(tx, job.orgId, task.requestId));
      await deps.faults?.({ taskId: task.id, kind: task.kind, attempt: task.attempts + 1 });
      const subject = { orgId: job.orgId, email };
      if (task.kind !== PROSPECT_KIND) await traceStep(deps, task.kind).run({ sql: deps.sql, subject, log: deps.log });
      await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
        const locked = await lockTask(tx, job.orgId, job.taskId);
        if (!locked || locked.state === 'done') return;
        const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
        if (locked.kind === PROSPECT_KIND && locked.prospectId !== null) await deleteProspectAndRecords({ tx, subject, effects }, locked.prospectId);
        await setTaskState(tx, job.orgId, [locked.id], 'done', effects.now);
        await moveRequestOn(deps, tx, job.orgId, locked.requestId);
      });
    } catch (error) {
      await recordTaskFailure(deps, job, task, withoutAddress(errorText(error), email));
    }
  };
}

function traceStep(deps: RunTaskDependencies, kind: string): ErasureStep {
  const step = deps.traceSteps.find((s) => s.kind === kind);
  if (!step) throw new Error(`no erasure step of kind ${kind} is known to this worker`);
  return step;
}

async function requestAddress(tx: Transaction, orgId: number, requestId: number): Promise<string> {
  const [row] = await tx.unsafe<{ email: string | null }[]>(
    'select request_object_email as email from compliance_requests where org_id = $1 and id = $2',
    [orgId, requestId] as never[],
    {
      prepare: true,
    },
  );
  if (!row?.email) throw new Error(`compliance request ${requestId} has no address to erase`);
  return row.email;
}

/**
 * After a task is done: with the request locked, the last phase-1 task queues phase 2, and the
 * last task of all finishes the request (its address forgotten, its summary in `pii`).
 */
async function moveRequestOn(deps: RunTaskDependencies, tx: Transaction, orgId: number, requestId: number): Promise<void> {
  const request = await lockRequest(tx, orgId, requestId);
  if (!request || request.state !== 'running') return;
  if (await hasUnfinishedTask(tx, orgId, requestId, PROSPECT_PHASE)) return;
  const phases = await remainingTasks(tx, orgId, requestId);
  const prospects = phases.find((p) => p.phase === PROSPECT_PHASE);
  const traces = phases.find((p) => p.phase === TRACE_PHASE);
  if ((prospects?.unfinished ?? 0) > 0) return;
  if (traces && traces.pending.length > 0) {
    await setTaskState(tx, orgId, traces.pending, 'queued', deps.clock());
    await enqueueTaskRuns(tx, orgId, traces.pending);
    return;
  }
  if ((traces?.unfinished ?? 0) > 0) return;
  await finishRequest(deps, tx, orgId, requestId, prospects?.total ?? 0);
}

/** `done`, the only permanent state: what was erased is summarised in `pii`, and the address is gone. */
export async function finishRequest(deps: ComplianceJobDependencies, tx: Transaction, orgId: number, requestId: number, prospectsDeleted: number): Promise<void> {
  await forgetAddress(tx, orgId, requestId);
  const effects = deps.writer.effects({ tx, orgId, actor: SERVICE_ACTOR });
  const pii = { prospectsDeleted, scrubbed: deps.traceSteps.map((s) => s.kind) };
  await effects.write([effects.update('complianceRequest', requestId, { state: 'done', pii })]);
  deps.log.info({ orgId, complianceRequestId: requestId, prospectsDeleted }, 'compliance request done');
}

async function recordTaskFailure(deps: RunTaskDependencies, job: RunTaskPayload, task: TaskRow, error: string): Promise<void> {
  await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
    const now = deps.clock();
    const at = nextAttemptAt(task.attempts + 1, now);
    const attempts = await recordFailure(tx, job.orgId, task.id, error, at, now);
    await enqueueTaskRuns(tx, job.orgId, [task.id], at);
    deps.log.warn(
      { orgId: job.orgId, complianceTaskId: task.id, kind: task.kind, attempts, nextAttemptAt: at.toISOString(), error },
      'compliance task failed; it runs again',
    );
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The error as kept and logged: never with the address the request erases (matched as the erasure steps match it). */
function withoutAddress(text: string, email: string): string {
  return email === '' ? text : text.replace(addressPattern(email).js, REDACTED);
}
