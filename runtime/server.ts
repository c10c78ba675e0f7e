import type { ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { connectDatabase } from './db/client.js';
import { resolveDatabase } from './db/database-url.js';
import { MIGRATIONS_DIR, runMigrations } from './db/migrate.js';
import { loadCursorSecret, loadTrackingSecret } from './db/settings.js';
import { closeConnectionsWhileDraining, drainAndClose, ShutdownState } from './http/drain.js';
import { listen } from './http/listen.js';
import { superviseWorker, type SupervisedWorker } from './jobs/supervisor.js';
import { HitBuffer } from './mail/tracking/index.js';
import { createMetricsRegistry, observePool } from './metrics/index.js';
import { RequestRateLimiter } from './ratelimit/index.js';

/** How long in-flight requests may finish on shutdown before their connections are closed. */
const CLOSE_GRACE_MS = 5000;

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts everything `cadence serve` runs: the database (embedded when DATABASE_URL is unset),
 * migrations, the HTTP server and, unless CADENCE_IN_PROCESS_WORKER=false, a `cadence worker`
 * child process (jobs/supervisor.ts) that `env` is passed to, with the database's URL.
 */
export async function startServer(config: Config, log: Logger, env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const database = await resolveDatabase({ DATABASE_URL: config.databaseUrl, CADENCE_DATA_DIR: config.dataDir }, (line) => log.debug({ component: 'postgres' }, line));
  await runMigrations(database.url, MIGRATIONS_DIR);
  // Requests may go through a pooler (DATABASE_POOL_URL); migrations and the worker go direct.
  const sql = connectDatabase(config.databasePoolUrl ?? database.url, { max: config.databasePoolSize, poolMode: config.databasePoolMode });
  const shutdown = new ShutdownState();
  // RATE_LIMIT_PER_HOUR=0 turns request rate limits off.
  const rateLimiter = config.rateLimitPerHour > 0 ? new RequestRateLimiter({ sql, log, perHour: config.rateLimitPerHour, clock: () => new Date() }) : undefined;
  const trackingHits = new HitBuffer({ sql, log });
  const metrics = createMetricsRegistry();
  observePool(metrics, sql);
  const app = createApp({
    metrics,
    sql,
    trackingHits,
    config,
    log,
    shuttingDown: () => shutdown.draining,
    cursorSecret: await loadCursorSecret(sql),
    trackingSecret: await loadTrackingSecret(sql),
    ...(rateLimiter && { rateLimiter }),
  });
  let server: ServerType;
  try {
    server = await listen(app.fetch, { port: config.port, hostname: config.host });
  } catch (error) {
    // Nothing was served: release what was started, so that the process can end on its own.
    await rateLimiter?.stop();
    await trackingHits.stop();
    await sql.end({ timeout: 5 });
    await database.stop();
    throw error;
  }
  closeConnectionsWhileDraining(server as Server, shutdown);
  // Once serving: a server that cannot start leaves no worker behind.
  const worker: SupervisedWorker | undefined = config.superviseWorker ? superviseWorker({ env: { ...env, DATABASE_URL: database.url }, log }) : undefined;
  const address = server.address() as AddressInfo;
  const url = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  log.info({ url, embeddedDatabase: database.embedded }, 'cadence is serving');
  return {
    url,
    async close() {
      const drained = drainAndClose(server as Server, shutdown, { drainMs: config.shutdownDrainMs, graceMs: CLOSE_GRACE_MS, log });
      // The worker finishes its running jobs meanwhile; the database outlives both.
      const workerStopped = worker?.stop();
      await drained;
      // After the last request: what they admitted, and the hits they answered, reach PostgreSQL before the pool closes.
      await rateLimiter?.stop();
      await trackingHits.stop();
      await workerStopped;
      await sql.end({ timeout: 5 });
      await database.stop();
    },
  };
}
