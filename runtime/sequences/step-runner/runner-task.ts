import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter } from '../../engine/index.js';
import { orgScopedTransaction, retryingOnConflict } from '../../tenancy/index.js';
import { claimDueSteps, dueCount } from './due-steps.js';
import { runSteps } from './run-steps.js';
import { wakeAnotherRunner, wakeRunnerShortly, type RunnerJobPayload } from './runner-jobs.js';

export interface StepRunnerDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  /** The one clock of the service: what is due, and when the next steps are, is by it. */
  readonly clock: () => Date;
  readonly log: Logger;
}

/**
 * Steps one transaction claims and runs: enough that a set's statements cost little per step, few
 * enough that a transaction stays short (a few hundred milliseconds) and holds few locks.
 */
export const SET_SIZE = 500;

/**
 * The step runner's job: one set of an org's due steps, in one transaction.
 * 1. When more than a set is due, another runner job is enqueued first (committed at once), so
 *    another worker slot, or worker, claims the next set beside this one: a backlog is shared,
 *    and no job's work grows with it.
 * 2. It claims up to a set of steps due by its clock (or by the instant it was scheduled for,
 *    whichever is later), deleting their rows, and runs them (run-steps.ts), all in one
 *    transaction: killed before the commit, the rows are due again and the job runs again
 *    (runtime/jobs/liveness.ts); after it, sequence_step_runs makes a second run do nothing.
 * 3. Steps due that it could not claim (held by a transaction writing their state) get a runner
 *    a moment later.
 */
export function stepRunnerTask(deps: StepRunnerDependencies): Task {
  return async (payload) => {
    const job = payload as RunnerJobPayload;
    const now = deps.clock();
    const scheduled = new Date(job.dueAt);
    const horizon = scheduled > now ? scheduled : now;
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      if ((await dueCount(tx, job.orgId, horizon, SET_SIZE + 1)) > SET_SIZE) await wakeAnotherRunner(tx, job.orgId, horizon);
    });
    await retryingOnConflict(() =>
      orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
        const claimed = await claimDueSteps(tx, job.orgId, horizon, SET_SIZE);
        if (claimed.length < SET_SIZE && (await dueCount(tx, job.orgId, horizon, 1)) > 0) await wakeRunnerShortly(tx, job.orgId, horizon);
        if (claimed.length === 0) return;
        const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
        const ran = await runSteps(effects, claimed, deps.log);
        deps.log.debug({ orgId: job.orgId, claimed: claimed.length, ran }, 'sequence steps run');
      }),
    );
  };
}
