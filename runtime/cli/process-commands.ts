import type { Config } from '../config.js';
import { resolveDatabase } from '../db/database-url.js';
import { MIGRATIONS_DIR, runMigrations } from '../db/migrate.js';
import { createLogger } from '../logger.js';
import { createMetricsRegistry, listenForMetrics } from '../metrics/index.js';
import { startServer } from '../server.js';
import { startWorker, workerOptionsFrom } from '../worker.js';
import { defineCommand } from './command.js';
import { databaseEnv, print, withDatabase } from './operator-io.js';
import { untilSignal } from './signals.js';
import { logUnhandledErrors } from './unhandled-errors.js';

/** The long-running processes: the API, the worker, and the migrations both apply at start. */

/**
 * The line a person starting Cadence at a terminal reads: where it is and what to do next. A
 * server listening on every address is reached, from this machine, at the loopback one.
 */
export function readyLine(url: string): string {
  const local = url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, 'http://127.0.0.1');
  return `Cadence is ready at ${local} — API reference ${local}/docs — next: npx cadence sandbox init\n`;
}

async function serve(config: Config, env: NodeJS.ProcessEnv): Promise<void> {
  const log = createLogger(config.logLevel);
  logUnhandledErrors(log);
  // Listening before starting: a SIGTERM while the server starts stops it once started, with
  // status 0, instead of ending the process halfway through its start.
  const signalled = untilSignal();
  const server = await startServer(config, log, env);
  // JSON logs are for machines; a person at a terminal also gets one sentence.
  if (process.stdout.isTTY) process.stdout.write(readyLine(config.publicBaseUrl?.replace(/\/$/, '') ?? server.url));
  await signalled;
  log.info('shutting down');
  await server.close();
}

/**
 * Resolves when the `cadence serve` that started this worker is gone (its IPC channel closed,
 * however it ended); never when nothing started it that way.
 */
function untilSupervisorGone(): Promise<void> {
  if (!process.connected) return new Promise(() => {});
  return new Promise((resolve) => process.once('disconnect', resolve));
}

async function work(config: Config): Promise<void> {
  const log = createLogger(config.logLevel);
  logUnhandledErrors(log);
  // Listening before starting (as serve does): the runners log that they look for jobs before
  // the worker has finished starting, and a SIGTERM then must stop it, not end it with 143.
  const signalled = untilSignal();
  const database = await resolveDatabase(databaseEnv(config));
  await runMigrations(database.url, MIGRATIONS_DIR);
  // METRICS_PORT: the worker's own /metrics, at the API's HOST; listening first, so that a port in use stops the worker before it runs a job.
  const metrics = config.metricsPort === undefined ? undefined : createMetricsRegistry();
  const metricsListener = metrics && (await listenForMetrics({ registry: metrics, token: config.metricsToken, port: config.metricsPort!, hostname: config.host, log }));
  const worker = await startWorker({ databaseUrl: database.url, log, ...workerOptionsFrom(config), ...(metrics && { metrics }) });
  await Promise.race([signalled, untilSupervisorGone(), worker.ended]);
  await worker.stop();
  await metricsListener?.close();
  await database.stop();
  // An open IPC channel would keep the stopped worker's process alive.
  if (process.connected) process.disconnect();
}

export const processCommands = [
  defineCommand({
    name: 'serve',
    synopsis: '',
    summary: 'run the API (and a worker process it supervises) until SIGINT or SIGTERM',
    notes: [
      'Configuration comes from the environment (README, "Configuration"): PORT, HOST, DATABASE_URL, LOG_LEVEL ...',
      'Logs are JSON lines on standard output; at a terminal, one line also says where the API and its reference are.',
      'A PORT another process holds ends it at once with exit status 3.',
    ],
    options: {},
    run: ({ config, env }) => serve(config, env),
  }),
  defineCommand({
    name: 'worker',
    synopsis: '',
    summary: 'run background workers only (more of them: scale out)',
    options: {},
    run: ({ config }) => work(config),
  }),
  defineCommand({
    name: 'migrate',
    synopsis: '',
    summary: 'apply database migrations (serve and worker also do at start)',
    options: {},
    run: ({ config }) => withDatabase(config, async () => print({ migrated: true })),
  }),
];
