// /healthz and /readyz, for load balancers and orchestrators: no token, and nothing about any org.
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { expectedMigrations, migrationStatus, type ExpectedMigrations } from '../db/migration-status.js';
import type { ApiEnv } from '../engine/index.js';
import { ApiError, jsonApi, serviceUnavailable } from '../jsonapi/index.js';

/** Load balancers give up on a check after a few seconds; a prompt 503 beats a hung request. */
const READY_TIMEOUT_MS = 2000;

/** An answer about this moment: no cache between the balancer and Cadence may keep it. */
const NO_STORE = { 'Cache-Control': 'no-store' };

export interface HealthOptions {
  readonly sql: postgres.Sql;
  /** The migrations this process expects applied (MIGRATIONS_DIR). */
  readonly migrationsFolder: string;
  readonly log: Logger;
  /** True once the process is shutting down; never when not given. */
  readonly shuttingDown?: () => boolean;
}

/**
 * /healthz: the process is up and answering HTTP. /readyz: it can serve, meaning the database
 * answers and has every migration this code expects, Cadence's and graphile-worker's, and the
 * process is not shutting down.
 */
export function healthRoutes(options: HealthOptions): Hono<ApiEnv> {
  const expected = expectedMigrations(options.migrationsFolder);
  const routes = new Hono<ApiEnv>();
  // Headers per answer, not a middleware: the routes are mounted at / and a middleware would
  // reach every other route too.
  routes.get('/healthz', (c) => jsonApi(c, 200, { meta: { status: 'up' } }, NO_STORE));
  routes.get('/readyz', async (c) => {
    await checkReady(options, expected);
    return jsonApi(c, 200, { meta: { status: 'ready' } }, NO_STORE);
  });
  return routes;
}

function notReady(detail: string): ApiError {
  return new ApiError(503, serviceUnavailable('notReady', detail).errors, NO_STORE);
}

/** Throws a 503 saying why the process cannot serve (yet, or any more). */
async function checkReady(options: HealthOptions, expected: ExpectedMigrations): Promise<void> {
  // Without asking the database: a balancer should stop sending requests here at its next check.
  if (options.shuttingDown?.()) throw notReady('the process is shutting down');
  let status;
  try {
    status = await withinTime(migrationStatus(options.sql, expected), READY_TIMEOUT_MS);
  } catch (error) {
    // The driver's message may name hosts and users: the log gets it, the answer does not.
    options.log.warn({ err: error }, 'readiness check: the database did not answer');
    throw notReady('the database did not answer');
  }
  const missing = [...status.pendingCadence, ...(status.workerCurrent ? [] : ["graphile-worker's"])];
  if (missing.length > 0) throw notReady(`migrations not applied: ${missing.join(', ')}; run cadence migrate`);
}

async function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
