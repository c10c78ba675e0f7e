import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type postgres from 'postgres';

/**
 * Crash recovery. graphile-worker locks a job by writing its pool's id into `locked_by`, and on
 * its own releases the locks of a pool that died only once they are four hours old. So each
 * Cadence worker records a heartbeat for its pool (cadence_system.worker_heartbeats) and
 * releases the jobs locked by pools that have not recorded one for `staleAfterMs`. With the
 * defaults a dead worker's jobs are free again within 40 s (stale after 30 s, noticed by the
 * next sweep of any live worker, 10 s apart at most). A job whose worker still heartbeats is
 * never released, however long it runs. The heartbeat is a timer in the process because it
 * reports that process's own life; it schedules no work.
 */

export interface LivenessOptions {
  /** How often a worker records its heartbeat and looks for the jobs of dead workers. */
  readonly heartbeatMs: number;
  /**
   * A worker not heard from for this long is taken for dead. Several heartbeats long, so that
   * a slow database or a busy event loop does not make a live worker look dead.
   */
  readonly staleAfterMs: number;
}

export const DEFAULT_LIVENESS: LivenessOptions = { heartbeatMs: 10_000, staleAfterMs: 30_000 };

/**
 * Records that the pools `workerIds` of this process are alive, by the database's clock, in one
 * statement: a process's runners live and die together.
 */
export async function recordHeartbeat(sql: postgres.Sql, workerIds: readonly string[]): Promise<void> {
  await sql`
    insert into cadence_system.worker_heartbeats (worker_id, hostname, pid)
    select id, ${hostname()}, ${process.pid} from unnest(${workerIds as string[]}::text[]) id
    on conflict (worker_id) do update set seen_at = now()`;
}

/**
 * Releases every job locked by a worker with no heartbeat in the last `staleAfterMs`, and
 * forgets such workers; returns the ids of the workers whose jobs were released. A lock younger
 * than `staleAfterMs` is left alone whoever holds it: that covers a worker that has locked a job
 * before its first heartbeat was written, while jobs of workers that never heartbeat at all (an
 * older Cadence) are released once their lock is that old. Safe with any number of workers
 * sweeping at once: force_unlock_workers (graphile-worker's own function, which also frees the
 * workers' job queues) changes only rows still locked by the given ids, so a job that another
 * worker has released and locked again meanwhile is not touched.
 */
export async function releaseJobsOfDeadWorkers(sql: postgres.Sql, staleAfterMs: number): Promise<string[]> {
  const dead = await sql<{ worker_id: string; jobs: number }[]>`
    select locked_by as worker_id, count(*)::int as jobs from graphile_worker.jobs
     where locked_by is not null and locked_at < now() - ${staleAfterMs}::int * interval '1 millisecond'
       and locked_by not in (select worker_id from cadence_system.worker_heartbeats
                              where seen_at >= now() - ${staleAfterMs}::int * interval '1 millisecond')
     group by locked_by`;
  await sql`delete from cadence_system.worker_heartbeats where seen_at < now() - ${staleAfterMs}::int * interval '1 millisecond'`;
  if (dead.length === 0) return [];
  const workerIds = dead.map((d) => d.worker_id);
  await sql`select graphile_worker.force_unlock_workers(${workerIds}::text[])`;
  // graphile-worker's own wake-up call, as add_job sends it: idle workers take the released jobs
  // now rather than at their next poll.
  const count = dead.reduce((sum, d) => sum + d.jobs, 0);
  await sql`select pg_notify('jobs:insert', ${JSON.stringify({ count })})`;
  return workerIds;
}

export interface Liveness {
  /** Stops the heartbeat and removes the worker's row; call once its jobs are finished. */
  stop(): Promise<void>;
}

/**
 * Heartbeats for the pools `workerIds` (one per runner of the process) now and every
 * `heartbeatMs`, each followed by a sweep. Failures are
 * logged and the next beat tries again: a worker that cannot reach the database cannot finish
 * its jobs either, and is rightly taken for dead after `staleAfterMs`.
 */
export function startLiveness(sql: postgres.Sql, workerIds: readonly string[], options: LivenessOptions, log: Logger): Liveness {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    try {
      await recordHeartbeat(sql, workerIds);
      const released = await releaseJobsOfDeadWorkers(sql, options.staleAfterMs);
      if (released.length) log.warn({ workers: released }, 'released the jobs of workers that stopped heartbeating');
    } catch (error) {
      log.error({ err: error, workerIds }, 'worker heartbeat failed');
    }
  };
  const next = (): Promise<void> =>
    beat().then(() => {
      if (!stopped) timer = setTimeout(() => void (running = next()), options.heartbeatMs);
    });
  let running = next();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await sql`delete from cadence_system.worker_heartbeats where worker_id = any(${workerIds as string[]}::text[])`;
    },
  };
}
