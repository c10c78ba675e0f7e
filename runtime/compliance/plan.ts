import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter } from '../engine/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import type { ErasureStep } from './erasure/step.js';
import { enqueueTaskRuns, type PlanRequestPayload } from './jobs.js';
import { lockRequest } from './request-rows.js';
import { finishRequest } from './task-run.js';
import { insertTasks, PROSPECT_KIND, PROSPECT_PHASE, TRACE_PHASE, type NewTask } from './task-rows.js';

export interface ComplianceJobDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  readonly log: Logger;
  /** Phase 2: what is scrubbed of the address once the prospects are gone. */
  readonly traceSteps: readonly ErasureStep[];
}

/**
 * The planning job of a new request, in one transaction: finds the org's prospects with the
 * address (in their `emails` or as an emailAddress record), creates one phase-1 task per prospect
 * (queued) and one phase-2 task per trace step (pending until phase 1 is done; queued at once
 * when no prospect has the address, since traces can remain without one), and moves the request
 * to `running`. A second run finds the request no longer pending and does nothing.
 */
export function planRequestTask(deps: ComplianceJobDependencies): Task {
  return async (payload) => {
    const job = payload as PlanRequestPayload;
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      const request = await lockRequest(tx, job.orgId, job.requestId);
      if (!request || request.state !== 'pending') return;
      const prospects = await prospectsWithAddress(tx, job.orgId, request.email);
      const traceState = prospects.length === 0 ? 'queued' : 'pending';
      const tasks: NewTask[] = [
        ...prospects.map((id): NewTask => ({ kind: PROSPECT_KIND, phase: PROSPECT_PHASE, prospectId: id, state: 'queued' })),
        ...deps.traceSteps.map((step): NewTask => ({ kind: step.kind, phase: TRACE_PHASE, prospectId: null, state: traceState })),
      ];
      const now = deps.clock();
      const ids = await insertTasks(tx, job.orgId, job.requestId, tasks, now);
      await enqueueTaskRuns(
        tx,
        job.orgId,
        ids.filter((_, i) => tasks[i]!.state === 'queued'),
      );
      const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
      await effects.write([effects.update('complianceRequest', job.requestId, { state: 'running' })]);
      // With no trace step configured and no prospect found, nothing is left to do.
      if (ids.length === 0) await finishRequest(deps, tx, job.orgId, job.requestId, 0);
      deps.log.info({ orgId: job.orgId, complianceRequestId: job.requestId, prospects: prospects.length, tasks: ids.length }, 'compliance request planned');
    });
  };
}

/**
 * The org's prospects with the address, case-insensitively: in the prospect's `emails`, or as
 * one of its emailAddress records. A scan of the org's prospects, which a background job can
 * afford; `lower()` matches what clients typed in any case.
 */
async function prospectsWithAddress(tx: Transaction, orgId: number, email: string): Promise<number[]> {
  const rows = await tx.unsafe<{ id: string }[]>(
    `select p.id from prospects p
      where p.org_id = $1
        and (exists (select 1 from unnest(p.emails) e where lower(e) = lower($2))
             or exists (select 1 from email_addresses a where a.org_id = $1 and a.prospect_id = p.id and lower(a.email) = lower($2)))
      order by p.id`,
    [orgId, email] as never[],
    { prepare: true },
  );
  return rows.map((r) => Number(r.id));
}
