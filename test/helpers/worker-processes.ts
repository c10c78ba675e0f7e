import type postgres from 'postgres';
import { startCadence, type RunningCadence } from './cli.js';
import { until } from './wait.js';

/**
 * Real `cadence worker` child processes for the crash tests (test/api/*-crash.test.ts): each
 * known by its graphile-worker ids (one per runner of the process), the `locked_by` of the jobs
 * it holds, so that a test can SIGKILL one that is in the middle of a job and start another.
 */

/** Heartbeats every 0.5 s, stale after 2 s: a SIGKILLed worker's jobs run again within seconds. */
export const FAST_LIVENESS: Readonly<Record<string, string>> = { WORKER_HEARTBEAT_MS: '500', WORKER_STALE_AFTER_MS: '2000', WORKER_CONCURRENCY: '2' };

export interface WorkerProcess {
  readonly process: RunningCadence;
  /** Its runners' pool ids: the main runner's first, then the reserved one's (runtime/jobs/runners.ts). */
  readonly workerIds: readonly string[];
}

/** Starts `cadence worker` and resolves once it is looking for jobs. */
export async function startWorkerProcess(databaseUrl: string, env: Readonly<Record<string, string>> = FAST_LIVENESS): Promise<WorkerProcess> {
  const process = startCadence(databaseUrl, ['worker'], { ...env });
  try {
    const started = JSON.parse(await process.waitForLine(/"worker started"/));
    await process.waitForLine(/looking for jobs/);
    return { process, workerIds: started.workerIds as string[] };
  } catch (error) {
    process.kill();
    throw error;
  }
}

/** The ids of the workers holding a job of `task` now. The public jobs view has no payload; the lock is enough. */
export async function jobHolders(sql: postgres.Sql, task: string): Promise<string[]> {
  const rows = await sql<{ locked_by: string }[]>`
    select locked_by from graphile_worker.jobs where task_identifier = ${task} and locked_by is not null`;
  return rows.map((r) => r.locked_by);
}

/** The worker processes of one test file: started, killed, and all of them gone at the end. */
export class WorkerProcesses {
  private readonly running: WorkerProcess[] = [];
  /** The workers SIGKILLed so far. */
  readonly killed = new Set<WorkerProcess>();

  constructor(private readonly databaseUrl: () => string) {}

  async start(env: Readonly<Record<string, string>> = FAST_LIVENESS): Promise<WorkerProcess> {
    const worker = await startWorkerProcess(this.databaseUrl(), env);
    this.running.push(worker);
    return worker;
  }

  /** Of the workers not killed, one that holds a job of `task` now. */
  async holding(sql: postgres.Sql, task: string): Promise<WorkerProcess | undefined> {
    const holders = await jobHolders(sql, task);
    return this.running.find((w) => w.workerIds.some((id) => holders.includes(id)) && !this.killed.has(w));
  }

  /** SIGKILLs the worker and resolves once it has exited: nothing it had not committed will be. */
  async kill(worker: WorkerProcess): Promise<void> {
    worker.process.kill();
    this.killed.add(worker);
    await worker.process.exited();
  }

  /** Stops (SIGTERM) every worker still running, so that the next test's workers are the only ones. */
  async stopAll(): Promise<void> {
    for (const w of this.running.splice(0)) {
      if (this.killed.has(w)) await w.process.exited();
      else await w.process.stop();
    }
  }

  /** SIGKILLs every worker, for cleaning up after a failed test. */
  killAll(): void {
    for (const w of this.running) w.process.kill();
  }
}

/**
 * Resolves once another backend waits on a lock that backend `pid` holds (the crash tests hold a
 * row locked so that a job's transaction waits there, uncommitted, before they kill its worker),
 * or `atLeast` backends do, and `alsoReady` says yes; `queryLike`, when given, is a pattern
 * (ILIKE) the waiting backends' statements must match. A backend queued behind another waiter
 * counts too: PostgreSQL has the first waiter on a row hold the row's lock while it waits for the
 * holder, so the ones after it are blocked by that waiter, not by `pid`.
 */
export async function untilWaitingOn(
  sql: postgres.Sql,
  pid: number,
  what: string,
  options: { queryLike?: string; alsoReady?: () => Promise<boolean>; timeoutMs?: number; atLeast?: number } = {},
): Promise<void> {
  await until(
    what,
    async () => {
      const [{ waiting }] = await sql<[{ waiting: number }]>`
        select count(*)::int as waiting from pg_stat_activity w
         where query ilike ${options.queryLike ?? '%'}
           and (${pid} = any(pg_blocking_pids(w.pid))
             or exists (select 1 from pg_stat_activity f where f.pid = any(pg_blocking_pids(w.pid)) and ${pid} = any(pg_blocking_pids(f.pid))))`;
      return waiting >= (options.atLeast ?? 1) && (!options.alsoReady || (await options.alsoReady())) ? true : undefined;
    },
    options.timeoutMs ?? 120_000,
  );
}
