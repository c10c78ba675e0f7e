import { EventEmitter } from 'node:events';
import { parseCrontab, run, type Logger, type Runner, type TaskList, type WorkerEvents, type WorkerPool } from 'graphile-worker';

/**
 * A worker process runs two graphile-worker runners on the same database: the main one, with
 * every task, and a reserved one whose task list holds only the time-critical short tasks (due
 * sequence steps). graphile-worker's get_job only locks jobs whose task its runner knows
 * (`task_id = any(<its tasks>)`), and each runner has a pool of slots of its own, so the reserved
 * slots are never taken by a send set or a bulk chunk that holds its slot for seconds: a due step
 * waits at most for a reserved slot's current step set, however busy the main slots are. The
 * main runner knows the time-critical tasks too, so its free slots help with a backlog of them
 * (their priority puts them first).
 */

export interface RunnerSpec {
  readonly connectionString: string;
  readonly concurrency: number;
  readonly taskList: TaskList;
  readonly logger: Logger;
  /** The process's schedules; only one runner of a process needs them. None when unset. */
  readonly crontab?: string;
  /** graphile-worker's forbiddenFlags (fair-share.ts). */
  readonly forbiddenFlags?: () => string[];
  /** Where the runner's job events go; a new emitter when unset. */
  readonly events?: WorkerEvents;
  /** How often idle slots look for jobs whose run-at has come (graphile-worker's pollInterval); 2 s when unset. */
  readonly pollIntervalMs?: number;
}

export interface StartedRunner {
  readonly runner: Runner;
  /** graphile-worker's id for the runner's pool: the `locked_by` of the jobs it runs. */
  readonly poolId: string;
  /** Its pool of slots, which a nudge sends looking for jobs at once (due-alarm.ts). */
  readonly pool: WorkerPool;
}

/** Starts one runner; resolves once its pool, and so its id, exists. Signals are the process's to handle. */
export async function startRunner(spec: RunnerSpec): Promise<StartedRunner> {
  const events: WorkerEvents = spec.events ?? new EventEmitter();
  const pools: WorkerPool[] = [];
  const onPool = ({ workerPool }: { workerPool: WorkerPool }) => pools.push(workerPool);
  events.on('pool:create', onPool);
  const runner = await run({
    connectionString: spec.connectionString,
    concurrency: spec.concurrency,
    taskList: spec.taskList,
    // Not the crontab file graphile-worker would otherwise look for in the working folder.
    parsedCronItems: parseCrontab(spec.crontab ?? ''),
    ...(spec.forbiddenFlags && { forbiddenFlags: spec.forbiddenFlags }),
    ...(spec.pollIntervalMs !== undefined && { pollInterval: spec.pollIntervalMs }),
    noHandleSignals: true,
    logger: spec.logger,
    events,
  });
  events.off('pool:create', onPool);
  const [pool] = pools;
  if (pools.length !== 1 || !pool) {
    await runner.stop();
    throw new Error(`expected one graphile-worker pool, got ${pools.length}`);
  }
  return { runner, poolId: pool.id, pool };
}

/** The tasks of `taskList` that `names` names: a reserved runner's list. Every name must be a task. */
export function tasksNamed(taskList: TaskList, names: readonly string[]): TaskList {
  const missing = names.filter((name) => !taskList[name]);
  if (missing.length) throw new Error(`no such task to reserve slots for: ${missing.join(', ')}`);
  return Object.fromEntries(names.map((name) => [name, taskList[name]!]));
}

/**
 * Settles when the first of the runners ends (an error in one, or a stop): a worker process with
 * one runner gone no longer does what it promises, so it stops, and its supervisor starts it again.
 */
export function firstToEnd(runners: readonly Runner[]): Promise<void> {
  return Promise.race(runners.map((runner) => runner.promise));
}

/**
 * Stops every runner at once; resolves when each has finished its running jobs. A runner's stop()
 * rejects only when it had stopped already (its promise tells why), and graphile-worker logs its
 * own failures to release a runner, so nothing is lost by ignoring the rejection.
 */
export async function stopRunners(runners: readonly Runner[]): Promise<void> {
  await Promise.all(runners.map((runner) => runner.stop().catch(() => {})));
}
