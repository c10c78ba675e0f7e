import { isPoolMode, POOL_MODES, type PoolMode } from './db/pool-mode.js';

/** Configuration, read once from the environment at start and passed to whatever needs it. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Unset: an embedded PostgreSQL with its data in dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  /** DATABASE_POOL_SIZE: connections `serve` keeps to PostgreSQL at most. */
  readonly databasePoolSize: number;
  /**
   * DATABASE_POOL_URL: a connection pooler (PgBouncer) that `serve` sends its requests' queries
   * through; migrations and workers keep DATABASE_URL, a direct connection. Unset: DATABASE_URL.
   */
  readonly databasePoolUrl: string | undefined;
  /** DATABASE_POOL_MODE: how the pooler at DATABASE_POOL_URL pools (db/client.ts); `session` also for a direct connection. */
  readonly databasePoolMode: PoolMode;
  /** SHUTDOWN_DRAIN_SECONDS: after SIGTERM, how long `serve` still answers (with /readyz 503) before it stops listening. */
  readonly shutdownDrainMs: number;
  /** Base of every URL in responses, e.g. https://api.example.com; unset: each request's origin. */
  readonly publicBaseUrl: string | undefined;
  readonly maxBodyBytes: number;
  readonly logLevel: string;
  /**
   * CADENCE_IN_PROCESS_WORKER (named when the worker ran inside `serve`): unless 'false', `serve`
   * also runs background work, in a `cadence worker` child process it supervises.
   */
  readonly superviseWorker: boolean;
  readonly workerConcurrency: number;
  /** WORKER_RESERVED_CONCURRENCY: slots only time-critical jobs (due sequence steps) may take, besides WORKER_CONCURRENCY. */
  readonly workerReservedConcurrency: number;
  /** WORKER_HEARTBEAT_MS: how often a worker says it is alive and looks for dead workers' jobs. */
  readonly workerHeartbeatMs: number;
  /** WORKER_STALE_AFTER_MS: a worker silent this long is dead; its jobs run again elsewhere. */
  readonly workerStaleAfterMs: number;
  /** WEBHOOK_ALLOWED_HOSTS: hosts or addresses exempt from the private-address rule. */
  readonly webhookAllowedHosts: string | undefined;
  /** WEBHOOK_CA_FILE: a PEM bundle trusted for deliveries besides the system CAs. */
  readonly webhookCaFile: string | undefined;
  /** BULK_ALLOWANCE_CAPACITY: the most bulk items an org can have in hand at once. */
  readonly bulkAllowanceCapacity: number;
  /** BULK_ALLOWANCE_PER_DAY: bulk items refilled per day, continuously. */
  readonly bulkAllowancePerDay: number;
  /** UPLOAD_MAX_BYTES: the largest CSV file an upload link takes. */
  readonly uploadMaxBytes: number;
  /** SMTP_URL: the deployment's mail server for mailboxes without their own; unset: the local transport. */
  readonly smtpUrl: string | undefined;
  /** MAIL_ALLOWED_HOSTS: mail server hosts or addresses a mailbox may name although they are private. */
  readonly mailAllowedHosts: string | undefined;
  /** MAIL_FROM: who the service's own messages (invitations) are from. */
  readonly mailFrom: string;
  /** RATE_LIMIT_PER_HOUR: requests a token holder may make per hour, unless its org has its own limit; 0: no request rate limit. */
  readonly rateLimitPerHour: number;
  /** COUNT_TIME_BUDGET_MS: how long a `count=true` may count before the page comes back with count 0 and count_truncated; 0: no limit. */
  readonly countTimeBudgetMs: number;
  /** METRICS_PORT: where a worker process (also the one `serve` supervises) serves GET /metrics; unset: workers serve none. */
  readonly metricsPort: number | undefined;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; unset: /metrics is open, like /healthz. */
  readonly metricsToken: string | undefined;
  /**
   * CADENCE_SANDBOX=true: the deployment is a sandbox for integrations, where each org's test clock
   * can be moved forward (runtime/sandbox/clock.ts). Never on in production.
   */
  readonly sandbox: boolean;
}

function poolMode(env: NodeJS.ProcessEnv): PoolMode {
  const text = env.DATABASE_POOL_MODE || 'session';
  if (!isPoolMode(text)) throw new Error(`DATABASE_POOL_MODE must be one of ${POOL_MODES.join(', ')}, not "${text}"`);
  return text;
}

/**
 * The pooler URL and its mode. Migrations (a session-level advisory lock) and workers
 * (graphile-worker's LISTEN) need a session, so a transaction pooler is only ever the API's, with
 * DATABASE_URL still the direct way in.
 */
function poolSettings(env: NodeJS.ProcessEnv): Pick<Config, 'databasePoolUrl' | 'databasePoolMode'> {
  const databasePoolUrl = env.DATABASE_POOL_URL || undefined;
  const databasePoolMode = poolMode(env);
  if (databasePoolUrl && !env.DATABASE_URL)
    throw new Error('DATABASE_POOL_URL needs DATABASE_URL too: a direct connection to the same database, for migrations and workers');
  if (databasePoolMode === 'transaction' && !databasePoolUrl) {
    throw new Error('DATABASE_POOL_MODE=transaction needs DATABASE_POOL_URL (the pooler); DATABASE_URL stays a direct connection, for migrations and workers');
  }
  return { databasePoolUrl, databasePoolMode };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, not "${text}"`);
  return value;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = integer(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be at least 1`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv): Config {
  const workerHeartbeatMs = positiveInteger(env, 'WORKER_HEARTBEAT_MS', 10_000);
  const workerStaleAfterMs = positiveInteger(env, 'WORKER_STALE_AFTER_MS', 30_000);
  // A live worker must never look dead between two of its heartbeats.
  if (workerStaleAfterMs <= workerHeartbeatMs) throw new Error('WORKER_STALE_AFTER_MS must be longer than WORKER_HEARTBEAT_MS');
  return {
    port: integer(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.CADENCE_DATA_DIR || '.data',
    databasePoolSize: positiveInteger(env, 'DATABASE_POOL_SIZE', 10),
    ...poolSettings(env),
    // A lone process has no balancer to drain: it stops listening at once unless told otherwise.
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 0) * 1000,
    publicBaseUrl: env.PUBLIC_BASE_URL || undefined,
    // Bulk upsert requests may be up to 2 MB (SPEC.md's limits); nothing else needs more.
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 2 * 1024 * 1024),
    logLevel: env.LOG_LEVEL || 'info',
    superviseWorker: env.CADENCE_IN_PROCESS_WORKER !== 'false',
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 4),
    workerReservedConcurrency: integer(env, 'WORKER_RESERVED_CONCURRENCY', 2),
    workerHeartbeatMs,
    workerStaleAfterMs,
    webhookAllowedHosts: env.WEBHOOK_ALLOWED_HOSTS || undefined,
    webhookCaFile: env.WEBHOOK_CA_FILE || undefined,
    // SPEC.md's limits: 5 million bulk items per org per day, refilled through the day.
    bulkAllowanceCapacity: positiveInteger(env, 'BULK_ALLOWANCE_CAPACITY', 5_000_000),
    bulkAllowancePerDay: positiveInteger(env, 'BULK_ALLOWANCE_PER_DAY', 5_000_000),
    // SPEC.md does not say how large a CSV file may be; issue #14 asks for 100 MB by default.
    uploadMaxBytes: positiveInteger(env, 'UPLOAD_MAX_BYTES', 100 * 1024 * 1024),
    smtpUrl: env.SMTP_URL || undefined,
    mailAllowedHosts: env.MAIL_ALLOWED_HOSTS || undefined,
    mailFrom: env.MAIL_FROM || 'Cadence <cadence@localhost>',
    // SPEC.md does not say what the request rate limit is; issue #17 asks for 10,000 an hour.
    rateLimitPerHour: integer(env, 'RATE_LIMIT_PER_HOUR', 10_000),
    countTimeBudgetMs: integer(env, 'COUNT_TIME_BUDGET_MS', 2_000),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0) : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    sandbox: env.CADENCE_SANDBOX === 'true',
  };
}
