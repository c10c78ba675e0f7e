import type { Job, WorkerEvents } from 'graphile-worker';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type postgres from 'postgres';

/** Due jobs are counted up to this many; past it the gauge says "at least", for the count's cost stays bounded. */
export const QUEUE_DEPTH_CAP = 100_000;

/** What a job attempt's events count for: an attempt ends in success, an error that is retried, or a final failure. */
export interface JobMetrics {
  /** Counts the jobs of a runner's events; a worker process has one emitter per runner. */
  observe(events: WorkerEvents): void;
}

/** Jobs by task and outcome, and how long they ran, from graphile-worker's events. Task names are the task list's, never a payload's. */
export function jobMetrics(registry: Registry): JobMetrics {
  const jobs = new Counter({
    name: 'cadence_jobs_total',
    help: 'Job attempts by task and outcome: success, retry (failed, will run again), failed (failed its last attempt)',
    labelNames: ['task', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'cadence_job_duration_seconds',
    help: 'How long job attempts ran, by task',
    labelNames: ['task'],
    buckets: [0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30, 120, 600],
    registers: [registry],
  });
  return {
    observe(events) {
      const started = new Map<string, number>();
      events.on('job:start', ({ job }) => started.set(job.id, performance.now()));
      events.on('job:success', ({ job }) => jobs.inc({ task: job.task_identifier, outcome: 'success' }));
      // job:failed follows job:error for a job's last attempt; each attempt is counted once.
      events.on('job:error', ({ job }) => {
        if (!isLastAttempt(job)) jobs.inc({ task: job.task_identifier, outcome: 'retry' });
      });
      events.on('job:failed', ({ job }) => jobs.inc({ task: job.task_identifier, outcome: 'failed' }));
      events.on('job:complete', ({ job }) => {
        const at = started.get(job.id);
        started.delete(job.id);
        if (at !== undefined) duration.observe({ task: job.task_identifier }, (performance.now() - at) / 1000);
      });
    },
  };
}

/** graphile-worker's own rule for emitting job:failed. */
function isLastAttempt(job: Job): boolean {
  return job.attempts >= job.max_attempts;
}

/**
 * The queue as the database has it, read at each scrape: jobs due now that no worker holds, and
 * how long the oldest of them has been due. Both read graphile-worker's partial index of
 * available jobs (priority, run_at): the count stops at QUEUE_DEPTH_CAP, and the oldest is found
 * per priority (a few in Cadence) by a skip scan, so a backlog of millions costs a scrape no more
 * than a hundred thousand index entries. These are the cluster's numbers; every worker reports them.
 */
export function observeQueue(registry: Registry, sql: postgres.Sql): void {
  // Both gauges are read in one scrape, at once: they share the statement in flight.
  let reading: Promise<QueueState> | undefined;
  const read = (): Promise<QueueState> => {
    reading ??= readQueue(sql).finally(() => (reading = undefined));
    return reading;
  };
  new Gauge({
    name: 'cadence_job_queue_due',
    help: `Jobs due now that no worker holds, counted up to ${QUEUE_DEPTH_CAP}`,
    registers: [registry],
    async collect() {
      this.set((await read()).due);
    },
  });
  new Gauge({
    name: 'cadence_job_queue_oldest_due_age_seconds',
    help: 'How long the oldest due job that no worker holds has been due; 0 when none is',
    registers: [registry],
    async collect() {
      this.set((await read()).oldestAgeSeconds);
    },
  });
}

interface QueueState {
  readonly due: number;
  readonly oldestAgeSeconds: number;
}

async function readQueue(sql: postgres.Sql): Promise<QueueState> {
  const [row] = await sql<{ due: number; oldest_age: number | null }[]>`
    with recursive priorities(priority) as (
      select min(priority) from graphile_worker._private_jobs where is_available and run_at <= now()
      union all
      select (select min(j.priority) from graphile_worker._private_jobs j
               where j.is_available and j.run_at <= now() and j.priority > p.priority)
        from priorities p where p.priority is not null
    )
    select
      (select count(*) from (select 1 from graphile_worker._private_jobs
                              where is_available and run_at <= now() limit ${QUEUE_DEPTH_CAP}) due)::int as due,
      (select extract(epoch from now() - min(o.run_at))::float8
         from priorities p
         cross join lateral (select min(j.run_at) as run_at from graphile_worker._private_jobs j
                              where j.is_available and j.priority = p.priority and j.run_at <= now()) o
        where p.priority is not null) as oldest_age`;
  return { due: row?.due ?? 0, oldestAgeSeconds: Math.max(0, row?.oldest_age ?? 0) };
}
