import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { Logger as WorkerLogger, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { descriptors } from '../generated/resources/index.js';
import { deliverLifecycleTask, LIFECYCLE_TASK } from './apps/lifecycle.js';
import { BULK_CRONTAB, bulkTasks } from './bulk/index.js';
import { complianceTasks, type ComplianceFaults } from './compliance/index.js';
import { PURGE_EXPIRED_TOKENS_TASK, purgeExpiredTokensTask, TOKEN_CRONTAB } from './oauth/index.js';
import { CustomObjectRegistry } from './custom-objects/registry.js';
import { IMPORT_CRONTAB, importTasks } from './imports/index.js';
import { imapFlowConnect, MAIL_SYNC_CRONTAB, mailSyncTasks, type ImapConnect } from './mail/sync/index.js';
import { mailTracking, trackingBaseUrl, trackingTasks } from './mail/tracking/index.js';
import { loadTrackingSecret } from './db/settings.js';
import {
  defaultTransports,
  mailServerRule,
  mailTasks,
  parseAddress,
  type HeaderSource,
  type HtmlTransform,
  type MailServerRule,
  type RetryPolicy,
  SmtpPools,
  type TransportFactory,
} from './mail/index.js';
import { standardBehaviours } from './behaviours/index.js';
import { PURGE_REQUEST_COUNTS_TASK, purgeRequestCountsTask, RATE_LIMIT_CRONTAB } from './ratelimit/index.js';
import { LEGACY_STEP_TASK, sequenceTasks, STEP_RUNNER_PRIORITY, STEP_RUNNER_TASK } from './sequences/index.js';
import type { Config } from './config.js';
import { connectDatabase } from './db/client.js';
import type { RecordWriter } from './engine/index.js';
import { standardRecordWriter } from './behaviours/standard-writer.js';
import { tasksInOrgTime } from './sandbox/index.js';
import { orgTimeClock } from './tenancy/org-time.js';
import { deliverWebhookTask } from './webhooks/deliver-task.js';
import { DELIVER_WEBHOOK_TASK } from './webhooks/delivery-job.js';
import { PURGE_WEBHOOK_ATTEMPTS_TASK, purgeWebhookAttemptsTask, WEBHOOK_CRONTAB } from './webhooks/purge-task.js';
import { deliveryConnections, parseAllowedHosts, systemResolver, trustedContext, type DeliveryConnections, type DeliveryOptions } from './webhooks/delivery/index.js';
import { DEFAULT_LIVENESS, startLiveness, type LivenessOptions } from './jobs/liveness.js';
import { fairShare } from './jobs/fair-share.js';
import { startDueAlarm } from './jobs/due-alarm.js';
import { firstToEnd, startRunner, stopRunners, tasksNamed } from './jobs/runners.js';
import { jobMetrics, mailOutcomeCounter, observePool, observeQueue, webhookDeliveryCounter, type Registry } from './metrics/index.js';

/**
 * Background work runs on graphile-worker: jobs live in PostgreSQL, are enqueued in the same
 * transaction as the change that needs them, and any number of worker processes share them.
 * Schedules are crontab entries or jobs with a run_at, never timers in a process.
 *
 * A job runs at least once. When a worker dies in the middle of a job (SIGKILL, a lost
 * machine), another worker runs it again within a minute (liveness.ts: heartbeats, and a sweep
 * that releases the jobs of workers that stopped sending them); a worker that is alive keeps its
 * jobs however long they take. So tasks are idempotent where they can be (a delivery already
 * acknowledged is not sent again), and where they cannot, the receiver can tell: every webhook
 * delivery carries its event's id, the same on every retry and every re-run.
 */

export interface WorkerDependencies {
  readonly sql: postgres.Sql;
  readonly log: Logger;
  readonly delivery: DeliveryOptions;
  readonly clock?: () => Date;
  /** The one write path; built from `clock` when not given. */
  readonly writer?: RecordWriter;
  /** How mailbox sync connects to IMAP servers; imapflow, under `mail.servers`, when not given. */
  readonly imapConnect?: ImapConnect;
  readonly mail?: MailWorkerOptions;
  /** Where compliance tasks fail on purpose (tests' fault injection); none when unset. */
  readonly complianceFaults?: ComplianceFaults;
  /** The worker's pooled SMTP connections, which it closes when it stops; unset, a connection per message. */
  readonly smtpPools?: SmtpPools;
  /** The worker process's metrics registry, which tasks count their outcomes into; none when unset. */
  readonly metrics?: Registry;
  /** CADENCE_SANDBOX=true: jobs for an org run in its test clock's time (runtime/sandbox/clock.ts). */
  readonly sandbox?: boolean;
}

/** How a worker sends mail (runtime/mail): from configuration (mailOptions), and injectable for tests. */
export interface MailWorkerOptions {
  /** SMTP_URL; unset: the local transport. Ignored when `transports` is given. */
  readonly smtpUrl?: string | undefined;
  /** Where each message goes; by default a mailbox's own SMTP server, else SMTP_URL, else local. */
  readonly transports?: TransportFactory;
  /** Where mailboxes' own SMTP and IMAP servers may be (MAIL_ALLOWED_HOSTS); no private address when unset. */
  readonly servers?: MailServerRule;
  /** Composition steps of every mailing's HTML after rendering; tracking's (signed with the deployment's secret) when unset. */
  readonly transforms?: readonly HtmlTransform[];
  /** Headers every mailing gets from its context; tracking's List-Unsubscribe when `transforms` is unset. */
  readonly headers?: readonly HeaderSource[];
  readonly retry?: RetryPolicy;
  /** Sends claimed per set (runtime/mail/sending/set-sender.ts's SET_SIZE when unset); tests make it small to have several sets in flight. */
  readonly setSize?: number;
  /** MAIL_FROM, as written there. */
  readonly mailFrom?: string;
  /** Base of invitation links. */
  readonly publicBaseUrl?: string;
}

/** Where links in mail point when neither PUBLIC_BASE_URL nor the server's address is given: `npm start`'s. */
const DEFAULT_PUBLIC_BASE_URL = 'http://127.0.0.1:3000';

/** Every task a Cadence worker runs. */
export function createTaskList(deps: WorkerDependencies): TaskList {
  const realClock = deps.clock ?? (() => new Date());
  // In sandbox mode, a job for an org sees its time (tasksInOrgTime below); otherwise real time.
  const clock = deps.sandbox ? orgTimeClock(realClock) : realClock;
  const tasks = standardTasks(deps, clock);
  return deps.sandbox ? tasksInOrgTime(tasks, deps.sql) : tasks;
}

function standardTasks(deps: WorkerDependencies, clock: () => Date): TaskList {
  const writer = deps.writer ?? standardRecordWriter(clock);
  const mailServers = deps.mail?.servers ?? mailServerRule(undefined);
  return {
    [PURGE_EXPIRED_TOKENS_TASK]: purgeExpiredTokensTask({ sql: deps.sql }),
    [PURGE_WEBHOOK_ATTEMPTS_TASK]: purgeWebhookAttemptsTask({ sql: deps.sql }),
    [PURGE_REQUEST_COUNTS_TASK]: purgeRequestCountsTask({ sql: deps.sql, clock }),
    [DELIVER_WEBHOOK_TASK]: deliverWebhookTask({
      sql: deps.sql,
      writer,
      delivery: deps.delivery,
      clock,
      log: deps.log,
      ...(deps.metrics && { deliveries: webhookDeliveryCounter(deps.metrics) }),
    }),
    [LIFECYCLE_TASK]: deliverLifecycleTask({ sql: deps.sql, delivery: deps.delivery, log: deps.log }),
    ...bulkTasks({ sql: deps.sql, writer, behaviours: standardBehaviours, customObjects: customObjectsOf(deps.sql, clock, writer), clock, log: deps.log }),
    ...importTasks({ sql: deps.sql, writer, clock, log: deps.log }),
    ...sequenceTasks({ sql: deps.sql, writer, clock, log: deps.log }),
    ...complianceTasks({ sql: deps.sql, writer, clock, log: deps.log, faults: deps.complianceFaults }),
    ...trackingTasks({ sql: deps.sql, writer, log: deps.log }),
    ...mailSyncTasks({ sql: deps.sql, writer, clock, log: deps.log, connect: deps.imapConnect ?? imapFlowConnect(mailServers) }),
    ...mailTasks({
      sql: deps.sql,
      writer,
      clock,
      log: deps.log,
      transports: deps.mail?.transports ?? defaultTransports({ sql: deps.sql, clock, smtpUrl: deps.mail?.smtpUrl, mailServers }),
      ...(deps.smtpPools && { pools: deps.smtpPools }),
      ...(deps.mail?.transforms && { transforms: deps.mail.transforms }),
      ...(deps.mail?.headers && { headers: deps.mail.headers }),
      ...(deps.mail?.retry && { retry: deps.mail.retry }),
      ...(deps.mail?.setSize && { setSize: deps.mail.setSize }),
      ...(deps.metrics && { outcomes: mailOutcomeCounter(deps.metrics) }),
      mailFrom: parseAddress(deps.mail?.mailFrom ?? 'Cadence <cadence@localhost>'),
      publicBaseUrl: deps.mail?.publicBaseUrl ?? DEFAULT_PUBLIC_BASE_URL,
    }),
  };
}

/** Orgs' custom objects for jobs; workers never page through lists, so no cursor secret. */
function customObjectsOf(sql: postgres.Sql, clock: () => Date, writer: RecordWriter): CustomObjectRegistry {
  return new CustomObjectRegistry(sql, descriptors, { sql, behaviours: standardBehaviours, cursorSecret: 'unused-by-workers', clock, writer });
}

/**
 * The time-critical short tasks: due sequence steps, which must run within seconds of their time
 * (issue #26) and take a set's transaction each. They get slots of their own, which long jobs
 * (a send set holds its slot for seconds) never take (runtime/jobs/runners.ts).
 */
const TIME_CRITICAL_TASKS = [STEP_RUNNER_TASK, LEGACY_STEP_TASK];

/** graphile-worker's own poll interval: the alarm (jobs/due-alarm.ts) starts due steps sooner. */
const DEFAULT_POLL_INTERVAL_MS = 2_000;

/** Every feature's schedules; graphile-worker makes sure one runner in the cluster runs each. */
const CRONTAB = [TOKEN_CRONTAB, WEBHOOK_CRONTAB, BULK_CRONTAB, IMPORT_CRONTAB, MAIL_SYNC_CRONTAB, RATE_LIMIT_CRONTAB, ''].join('\n');

/** Delivery settings from configuration: WEBHOOK_ALLOWED_HOSTS and WEBHOOK_CA_FILE. */
export function deliveryOptions(config: Pick<Config, 'webhookAllowedHosts' | 'webhookCaFile'>): DeliveryOptions {
  return {
    resolver: systemResolver,
    allowedHosts: parseAllowedHosts(config.webhookAllowedHosts),
    ...(config.webhookCaFile && { secureContext: trustedContext(readFileSync(config.webhookCaFile)) }),
  };
}

/** Mail settings from configuration: SMTP_URL, MAIL_ALLOWED_HOSTS, MAIL_FROM, and PUBLIC_BASE_URL (else the server's address) for links. */
export function mailOptions(config: Pick<Config, 'smtpUrl' | 'mailAllowedHosts' | 'mailFrom' | 'publicBaseUrl' | 'host' | 'port'>): MailWorkerOptions {
  return { smtpUrl: config.smtpUrl, servers: mailServerRule(config.mailAllowedHosts), mailFrom: config.mailFrom, publicBaseUrl: trackingBaseUrl(config) };
}

/**
 * The mail settings with tracking's transform and headers, signed with the deployment's
 * tracking secret, unless the caller chose its own transforms.
 */
async function withTracking(sql: postgres.Sql, mail: MailWorkerOptions = {}): Promise<MailWorkerOptions> {
  if (mail.transforms) return mail;
  const tracking = mailTracking(await loadTrackingSecret(sql), mail.publicBaseUrl ?? DEFAULT_PUBLIC_BASE_URL);
  return { ...mail, transforms: tracking.transforms, headers: [...(mail.headers ?? []), ...tracking.headers] };
}

/** Heartbeat and staleness from configuration: WORKER_HEARTBEAT_MS and WORKER_STALE_AFTER_MS. */
export function livenessOptions(config: Pick<Config, 'workerHeartbeatMs' | 'workerStaleAfterMs'>): LivenessOptions {
  return { heartbeatMs: config.workerHeartbeatMs, staleAfterMs: config.workerStaleAfterMs };
}

function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    // LogLevel is an ambient const enum (unusable under isolatedModules); its values are these strings.
    const name: string = level;
    const method = name === 'error' ? 'error' : name === 'warning' ? 'warn' : name === 'debug' ? 'debug' : 'info';
    log[method]({ scope, ...meta }, message);
  });
}

/**
 * A worker's delivery options: its connection pool, and an extra CA bundle built into a TLS
 * context once. Building one from the ~145 root certificates costs ~30 ms of CPU, which a set's
 * dozens of new connections must not each pay (a dead receiver's, never kept alive, would).
 */
function deliveryWith(delivery: DeliveryOptions, connections: DeliveryConnections): DeliveryOptions {
  const secureContext = delivery.secureContext ?? (delivery.ca !== undefined ? trustedContext(delivery.ca) : undefined);
  return { ...delivery, connections, ...(secureContext && { secureContext }) };
}

export interface StartedWorker {
  /** The runner of every task, with WORKER_CONCURRENCY slots. */
  readonly runner: Runner;
  /** It and the reserved runner of the time-critical tasks, when it has slots. */
  readonly runners: readonly Runner[];
  /** graphile-worker's ids for the runners' pools: the `locked_by` of the jobs this worker runs. */
  readonly workerIds: readonly string[];
  /** Settles when the first runner ends (an error, or a stop). */
  readonly ended: Promise<void>;
  stop(): Promise<void>;
}

/** What configuration decides about a worker; `cadence worker` and tests' workers take the same. */
export interface WorkerOptions {
  /** WORKER_CONCURRENCY: jobs run at once. */
  readonly concurrency: number;
  /** WORKER_RESERVED_CONCURRENCY: more slots, for the time-critical tasks only; 0 when unset. */
  readonly reservedConcurrency?: number;
  readonly delivery: DeliveryOptions;
  /** Heartbeat and staleness (WORKER_HEARTBEAT_MS, WORKER_STALE_AFTER_MS); 10 s and 30 s when unset. */
  readonly liveness?: LivenessOptions;
  /** Mail transports and settings (mailOptions); the local transport when unset. */
  readonly mail?: MailWorkerOptions;
  /** CADENCE_SANDBOX=true: jobs for an org run in its test clock's time. */
  readonly sandbox?: boolean;
  /**
   * How often idle slots look for jobs whose run-at has come (graphile-worker's pollInterval), and
   * how far ahead the due-job alarm looks for time-critical ones; 2 s when unset.
   */
  readonly pollIntervalMs?: number;
}

/** A worker's options from configuration. */
export function workerOptionsFrom(config: Config): WorkerOptions {
  return {
    concurrency: config.workerConcurrency,
    reservedConcurrency: config.workerReservedConcurrency,
    delivery: deliveryOptions(config),
    liveness: livenessOptions(config),
    mail: mailOptions(config),
    sandbox: config.sandbox,
  };
}

export async function startWorker(
  options: WorkerOptions & {
    readonly databaseUrl: string;
    readonly log: Logger;
    readonly clock?: () => Date;
    /** How mailbox sync connects to IMAP servers; imapflow when unset. */
    readonly imapConnect?: ImapConnect;
    /** Where compliance tasks fail on purpose (tests' fault injection). */
    readonly complianceFaults?: ComplianceFaults;
    /** The process's metrics registry: jobs, the queue, the pool and tasks' outcomes are counted into it. None when unset. */
    readonly metrics?: Registry;
  },
): Promise<StartedWorker> {
  const log = options.log.child({ component: 'worker' });
  const reservedConcurrency = options.reservedConcurrency ?? 0;
  const sql = connectDatabase(options.databaseUrl, { max: Math.max(2, options.concurrency + reservedConcurrency) });
  const mail = await withTracking(sql, options.mail);
  // Connections to mail servers, kept for the next set while the worker runs.
  const smtpPools = new SmtpPools();
  const events: WorkerEvents = new EventEmitter();
  // No one org's deliveries hold every slot (webhooks/delivery/schedule.ts).
  const share = fairShare(options.concurrency, events);
  // Kept-alive TLS connections of webhook and lifecycle deliveries, per checked target, closed
  // at stop; a pool the caller passed in is the caller's to close.
  const ownConnections = options.delivery.connections ? undefined : deliveryConnections();
  const connections = options.delivery.connections ?? ownConnections!;
  const taskList = createTaskList({
    sql,
    log,
    delivery: deliveryWith(options.delivery, connections),
    ...(options.clock && { clock: options.clock }),
    ...(options.imapConnect && { imapConnect: options.imapConnect }),
    ...(options.complianceFaults && { complianceFaults: options.complianceFaults }),
    mail,
    smtpPools,
    ...(options.metrics && { metrics: options.metrics }),
    ...(options.sandbox && { sandbox: true }),
  });
  const jobs = options.metrics && jobMetrics(options.metrics);
  if (options.metrics) {
    observePool(options.metrics, sql);
    observeQueue(options.metrics, sql);
  }
  jobs?.observe(events);
  const logger = workerLogger(log);
  const connectionString = options.databaseUrl;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const main = await startRunner({
    connectionString,
    pollIntervalMs,
    concurrency: options.concurrency,
    taskList,
    crontab: CRONTAB,
    forbiddenFlags: share.forbiddenFlags,
    logger,
    events,
  });
  const started = [main];
  try {
    if (reservedConcurrency > 0) {
      const reservedEvents: WorkerEvents = new EventEmitter();
      jobs?.observe(reservedEvents);
      started.push(
        await startRunner({
          connectionString,
          pollIntervalMs,
          concurrency: reservedConcurrency,
          taskList: tasksNamed(taskList, TIME_CRITICAL_TASKS),
          logger,
          events: reservedEvents,
        }),
      );
    }
  } catch (error) {
    await stopRunners([main.runner]);
    throw error;
  }
  const runners = started.map((s) => s.runner);
  const workerIds = started.map((s) => s.poolId);
  // A connection of its own, so that neither a heartbeat nor the due-job alarm waits behind the jobs for one.
  const livenessSql = connectDatabase(options.databaseUrl, { max: 1 });
  const liveness = startLiveness(livenessSql, workerIds, options.liveness ?? DEFAULT_LIVENESS, log);
  // Due steps start at their instant, not at the slots' next poll.
  const alarm = startDueAlarm({
    sql: livenessSql,
    priority: STEP_RUNNER_PRIORITY,
    pools: started.map((s) => s.pool),
    slots: options.concurrency + reservedConcurrency,
    events,
    pollIntervalMs,
    log,
  });
  log.info({ workerIds, pid: process.pid }, 'worker started');
  return {
    runner: main.runner,
    runners,
    workerIds,
    ended: firstToEnd(runners),
    async stop() {
      alarm.stop();
      // Heartbeats go on while running jobs finish, however long that takes.
      try {
        await stopRunners(runners);
      } finally {
        ownConnections?.destroy();
        smtpPools.close();
        try {
          await liveness.stop();
        } finally {
          await Promise.all([livenessSql.end({ timeout: 5 }), sql.end({ timeout: 5 })]);
        }
      }
    },
  };
}
