import { enqueueJobs, runAtAfter, type JobSpec } from '../../jobs/enqueue.js';
import type { Transaction } from '../../tenancy/index.js';

/**
 * The jobs that wake the step runner (runner-task.ts). What is due lives in sequence_steps_due;
 * a job only says "an org has steps due from this instant on". One job per org and due instant,
 * under a key of its own: the steps a set schedules together share their instant, so 10,000
 * steps due at one moment are one job, and scheduling more for that instant adds none. The
 * instant is kept to the millisecond: a coarser key would round a run-at up (late steps) or let
 * the runner claim steps before they are due.
 */

export const STEP_RUNNER_TASK = 'sequence_step_runner';

/**
 * graphile-worker runs due jobs with a lower priority number first: due steps go ahead of every
 * other job (bulk chunks and imports take 0, mail sends 5, webhook deliveries 10), so a backlog
 * of sends or deliveries never keeps a step waiting longer than one running job.
 */
export const STEP_RUNNER_PRIORITY = -1;

export interface RunnerJobPayload {
  readonly orgId: number;
  /**
   * ISO 8601: the instant the job is for. Steps due by then run even if the worker's clock lags
   * the database's (whose clock says when the job runs); a follow-up carries its enqueuer's.
   */
  readonly dueAt: string;
}

/** How long a follow-up waits when steps were due that another transaction held (runner-task.ts). */
const RETRY_HELD_MS = 1_000;

function runnerJob(orgId: number, key: string, dueAt: Date, runAt?: Date): JobSpec {
  return {
    task: STEP_RUNNER_TASK,
    payload: { orgId, dueAt: dueAt.toISOString() } satisfies RunnerJobPayload,
    jobKey: `${STEP_RUNNER_TASK}:${orgId}:${key}`,
    priority: STEP_RUNNER_PRIORITY,
    ...(runAt && { runAt }),
  };
}

/**
 * A runner job at each distinct instant, one statement. Keys are sorted: two transactions
 * enqueueing overlapping instants take the jobs' key locks in the same order and cannot deadlock.
 */
export async function wakeRunnerAt(tx: Transaction, orgId: number, instants: Iterable<Date>): Promise<void> {
  const distinct = [...new Set([...instants].map((at) => at.toISOString()))].sort();
  await enqueueJobs(
    tx,
    distinct.map((iso) => runnerJob(orgId, iso, new Date(iso), new Date(iso))),
  );
}

/**
 * One more runner for the org, now, for the steps due by `horizon`: more are due than one set,
 * and another worker slot may claim the next set while this one runs. One such job pending per
 * org and horizon at most (its key).
 */
export async function wakeAnotherRunner(tx: Transaction, orgId: number, horizon: Date): Promise<void> {
  await enqueueJobs(tx, [runnerJob(orgId, `more:${horizon.toISOString()}`, horizon)]);
}

/** A runner for the org a moment from now, for steps due by `horizon` that other transactions held when this one claimed. */
export async function wakeRunnerShortly(tx: Transaction, orgId: number, horizon: Date): Promise<void> {
  await enqueueJobs(tx, [runnerJob(orgId, `held:${horizon.toISOString()}`, horizon, await runAtAfter(tx, RETRY_HELD_MS))]);
}
