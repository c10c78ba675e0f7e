import { gatherToCommit, type Transaction } from '../tenancy/index.js';
import { orgTimeOffsetMs, realInstantOf } from '../tenancy/org-time.js';

export interface JobOptions {
  /** graphile-worker's own retries, for crashes; task-level retry policies live in the task. */
  readonly maxAttempts?: number;
  /** Deduplicates: a second enqueue with the same key replaces the first, so re-runs do no harm. */
  readonly jobKey?: string;
  /**
   * When the job runs, by the clock of the org being worked for (tenancy/org-time.ts): real time
   * but in sandbox mode, where it is turned into the real instant graphile-worker runs it at.
   */
  readonly runAt?: Date;
}

/**
 * Enqueues a graphile-worker job inside the caller's transaction: it exists exactly when the
 * change that needs it commits. API transactions run as the unprivileged role, which may call
 * only this SECURITY DEFINER wrapper of graphile_worker.add_job (migration 0003).
 */
export async function enqueueJob(tx: Transaction, task: string, payload: Record<string, unknown>, options: JobOptions = {}): Promise<void> {
  await tx.unsafe(
    'select cadence_system.enqueue_job($1, $2::json, $3::int, $4::text, $5::timestamptz)',
    [task, payload, options.maxAttempts ?? null, options.jobKey ?? null, (options.runAt && realInstantOf(options.runAt).toISOString()) ?? null] as never[],
    { prepare: true },
  );
}

export interface JobSpec extends JobOptions {
  readonly task: string;
  /** An array makes a batch job: one enqueued with the same key while it waits appends its items. */
  readonly payload: Record<string, unknown> | readonly Record<string, unknown>[];
  /** graphile-worker runs the jobs of one named queue one at a time, in order. */
  readonly queueName?: string;
  /** graphile-worker runs due jobs with a lower number first; 0 when unset. */
  readonly priority?: number;
  /** graphile-worker's job flags, which a worker may skip: fair-share.ts's share flags. */
  readonly flags?: readonly string[];
  /**
   * With `jobKey`: a job already waiting under the key keeps its run-at (graphile-worker's
   * job_key_mode preserve_run_at), so that a stream of enqueues runs it at the first one's time
   * instead of pushing it back with each (the fold of tracking hits). Off by default.
   */
  readonly preserveRunAt?: boolean;
}

/**
 * Enqueues many jobs with one statement (graphile_worker.add_jobs through the SECURITY DEFINER
 * wrapper of migrations 0014, 0020 and 0028), in the caller's transaction. Set writes use it for their
 * webhook deliveries and follow-up jobs; an empty list costs nothing. Jobs that preserve their
 * run-at go through the wrapper of migration 0029_tracking_hits, with a statement of their own.
 * Keyed jobs are added at the end of an org-scoped transaction (KEYED_JOBS below).
 */
export async function enqueueJobs(tx: Transaction, jobs: readonly JobSpec[]): Promise<void> {
  const keyed = jobs.filter((j) => j.jobKey !== undefined);
  const gathered =
    keyed.length > 0
      ? gatherToCommit(
          tx,
          KEYED_JOBS,
          (): JobSpec[] => [],
          (all) => addNow(tx, mergedByKey(all)),
          { last: true },
        )
      : undefined;
  if (!gathered) return addNow(tx, jobs);
  gathered.push(...keyed);
  await addNow(
    tx,
    jobs.filter((j) => j.jobKey === undefined),
  );
}

/**
 * A keyed job is one row that every transaction enqueuing it upserts: the org's sender for a
 * due second, its step runner for a due instant, a fold. The upsert locks the row until the
 * transaction ends, so keyed jobs are added last (tenancy/before-commit.ts, after the other
 * deferred work, which may enqueue more), all the transaction's at once: sets running beside
 * each other wait on each other for their last statement only.
 */
const KEYED_JOBS = Symbol('keyed jobs');

/**
 * One spec per key, in the order the keys were first enqueued (jobs of one priority run in
 * the order they were added: a batch's chunks in item order). graphile-worker's add_jobs takes
 * a key once per call, so the specs of one key are merged as adding them one after another
 * would: the later replaces the earlier, batch items (array payloads) add up, and a job that
 * preserves its run-at keeps the first one's.
 */
export function mergedByKey(jobs: readonly JobSpec[]): JobSpec[] {
  const byKey = new Map<string, JobSpec>();
  for (const job of jobs) {
    const earlier = byKey.get(job.jobKey!);
    byKey.set(job.jobKey!, earlier ? merged(earlier, job) : job);
  }
  return [...byKey.values()];
}

function merged(earlier: JobSpec, later: JobSpec): JobSpec {
  const items = Array.isArray(earlier.payload) && Array.isArray(later.payload);
  return {
    ...later,
    ...(items && { payload: [...(earlier.payload as readonly Record<string, unknown>[]), ...(later.payload as readonly Record<string, unknown>[])] }),
    ...(later.preserveRunAt === true && earlier.runAt !== undefined && { runAt: earlier.runAt }),
  };
}

async function addNow(tx: Transaction, jobs: readonly JobSpec[]): Promise<void> {
  const preserving = jobs.filter((j) => j.preserveRunAt === true);
  await addJobs(tx, 'cadence_system.enqueue_jobs', preserving.length ? jobs.filter((j) => j.preserveRunAt !== true) : jobs);
  await addJobs(tx, 'cadence_system.enqueue_jobs_preserving_run_at', preserving);
}

async function addJobs(tx: Transaction, wrapper: string, jobs: readonly JobSpec[]): Promise<void> {
  if (jobs.length === 0) return;
  const specs = jobs.map((j) => ({
    task: j.task,
    payload: j.payload,
    ...(j.maxAttempts !== undefined && { maxAttempts: j.maxAttempts }),
    ...(j.jobKey !== undefined && { jobKey: j.jobKey }),
    ...(j.runAt !== undefined && { runAt: realInstantOf(j.runAt).toISOString() }),
    ...(j.queueName !== undefined && { queueName: j.queueName }),
    ...(j.priority !== undefined && { priority: j.priority }),
    ...(j.flags !== undefined && { flags: j.flags }),
  }));
  await tx.unsafe(`select ${wrapper}($1::jsonb)`, [specs] as never[], { prepare: true });
}

/**
 * A run_at `ms` from now by the database's clock, the one graphile-worker compares run_at with:
 * a job's delay is real time even where a task's injected clock stands still or drifts. Like
 * every run-at it is in the org's time (a sandbox's test clock ahead of the database's), which
 * enqueueing takes off again.
 */
export async function runAtAfter(tx: Transaction, ms: number): Promise<Date> {
  const [row] = await tx<{ at: Date }[]>`select clock_timestamp() + ${ms + orgTimeOffsetMs()} * interval '1 millisecond' as at`;
  if (!row) throw new Error('clock_timestamp() returned no row');
  return row.at;
}
