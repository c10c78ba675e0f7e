import { Logger as WorkerLogger, run, type Runner, type TaskList } from 'graphile-worker';
import type { Logger } from 'pino';

/**
 * Background work runs on graphile-worker: jobs live in PostgreSQL, are enqueued in the same
 * transaction as the change that needs them, and any number of worker processes share them.
 * Schedules are crontab entries or jobs with a run_at, never timers in a process.
 */

/** Expired tokens are kept 30 days (to explain a 401 "expired"), then removed. */
const purgeExpiredTokens: TaskList[string] = async (_payload, helpers) => {
  await helpers.withPgClient((client) =>
    client.query(`delete from cadence_system.access_tokens where expires_at < now() - interval '30 days'`),
  );
};

export const taskList: TaskList = {
  purge_expired_tokens: purgeExpiredTokens,
};

/** Daily at 03:17 UTC; graphile-worker makes sure one runner in the cluster runs it. */
const CRONTAB = '17 3 * * * purge_expired_tokens\n';

function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'debug' ? 'debug' : 'info';
    log[method]({ scope, ...meta }, message);
  });
}

export async function startWorker(options: { databaseUrl: string; concurrency: number; log: Logger }): Promise<Runner> {
  return run({
    connectionString: options.databaseUrl,
    concurrency: options.concurrency,
    taskList,
    crontab: CRONTAB,
    noHandleSignals: true,
    logger: workerLogger(options.log.child({ component: 'worker' })),
  });
}
