/**
 * The app lifecycle webhook: tells an app that it was installed in an org, uninstalled from
 * one, or that an org it is installed in was deleted (SPEC.md: "deletion and uninstall are
 * signalled to the app by lifecycle webhook; locking is not signalled"). Each delivery is an
 * HTTPS POST of `application/json`, signed like resource webhooks (`Service-Webhook-Signature`:
 * hex HMAC-SHA256 of the raw body keyed by the app's lifecycle secret):
 *
 *   {"id": "<uuid>", "type": "app.installed" | "app.uninstalled" | "org.deleted",
 *    "occurredAt": "<ISO 8601>", "data": {"appId": "<app GUID>", "installId": "<uuid>", "orgId": "<org id>"}}
 *
 * `id` names the event, not the attempt, and is also sent as the Service-Webhook-Event-Id
 * header: a retried or repeated delivery carries the same id and the same bytes, so a receiver
 * deduplicates by it. `orgId` is a string, as in the install
 * resource. Only a new install is announced: installing again while installed re-issues the
 * setup token for the same install id, which the app already knows. Org deletion is announced
 * once per install current at that moment; an install that ends later in a deleted org is
 * announced as `app.uninstalled` like any other.
 *
 * The event is fixed and its job enqueued in the transaction of the change, so it exists
 * exactly when the change commits. The delivery reads the app's URL and secret when it runs,
 * which keeps the secret out of the job queue.
 */
import { randomUUID } from 'node:crypto';
import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { enqueueJobs, runAtAfter, type JobSpec } from '../jobs/enqueue.js';
import { shareFlag } from '../jobs/fair-share.js';
import { attemptDelivery, DELIVERY_PRIORITY, nextAttempt, RETRY_DELAY_MS, type DeliveryOptions, type DeliveryOutcome } from '../webhooks/delivery/index.js';

export type LifecycleEventType = 'app.installed' | 'app.uninstalled' | 'org.deleted';

export const LIFECYCLE_TASK = 'deliver_app_lifecycle';

// graphile-worker's own retries, for a worker that dies mid-delivery; network retries are the delivery's.
const LIFECYCLE_JOB_ATTEMPTS = 5;

export interface LifecycleEvent {
  readonly type: LifecycleEventType;
  readonly appId: string;
  readonly installId: string;
  readonly orgId: number;
  readonly occurredAt: Date;
}

export interface LifecycleJobPayload {
  readonly appId: string;
  readonly eventId: string;
  readonly type: LifecycleEventType;
  /** The exact bytes to send and sign, fixed when the event happened. */
  readonly body: string;
  /** Which of the 4 attempts this job makes; 1 when absent (jobs enqueued before retries were jobs). */
  readonly attempt?: number;
}

/**
 * The job of one attempt, behind the rest of the work and within its app's share of a worker,
 * like resource webhooks' (webhooks/delivery/schedule.ts). The first attempt's key is the install's
 * event, so a repeated enqueue of it is one job; a retry's is the event's and attempt's.
 */
function lifecycleJob(payload: Required<LifecycleJobPayload>, key: string, runAt?: Date): JobSpec {
  return {
    task: LIFECYCLE_TASK,
    payload: { ...payload },
    maxAttempts: LIFECYCLE_JOB_ATTEMPTS,
    jobKey: key,
    priority: DELIVERY_PRIORITY,
    flags: [shareFlag(`${LIFECYCLE_TASK}:${payload.appId}`)],
    ...(runAt && { runAt }),
  };
}

export function lifecycleBody(eventId: string, event: LifecycleEvent): string {
  return JSON.stringify({
    id: eventId,
    type: event.type,
    occurredAt: event.occurredAt.toISOString(),
    data: { appId: event.appId, installId: event.installId, orgId: String(event.orgId) },
  });
}

/**
 * Enqueues the delivery of `event` in the caller's transaction, when the app has a lifecycle
 * URL. An install has at most one event of each type, so the job key makes a repeated enqueue
 * of it one job.
 */
export async function enqueueLifecycleEvent(tx: postgres.TransactionSql, event: LifecycleEvent): Promise<void> {
  const [app] = await tx`select 1 from cadence_system.apps where guid = ${event.appId} and lifecycle_webhook_url is not null`;
  if (!app) return;
  const eventId = randomUUID();
  const payload = { appId: event.appId, eventId, type: event.type, body: lifecycleBody(eventId, event), attempt: 1 };
  await enqueueJobs(tx, [lifecycleJob(payload, `app_lifecycle:${event.installId}:${event.type}`)]);
}

/** `org.deleted` for every app installed in the org at deletion that has a lifecycle URL. */
export async function enqueueOrgDeleted(tx: postgres.TransactionSql, orgId: number, occurredAt: Date): Promise<void> {
  const installs = await tx<{ id: string; appId: string }[]>`
    select i.id, i.app_guid as "appId"
      from cadence_system.app_installs i
      join cadence_system.apps a on a.guid = i.app_guid
     where i.org_id = ${orgId} and i.uninstalled_at is null and a.lifecycle_webhook_url is not null
     order by i.installed_at, i.id`;
  for (const install of installs) {
    await enqueueLifecycleEvent(tx, { type: 'org.deleted', appId: install.appId, installId: install.id, orgId, occurredAt });
  }
}

export interface DeliverLifecycleDependencies {
  readonly sql: postgres.Sql;
  readonly delivery: DeliveryOptions;
  readonly log: Logger;
}

function outcomeFields(outcome: DeliveryOutcome, attempt: number): Record<string, unknown> {
  if (outcome.kind === 'acknowledged') return { outcome: outcome.kind, status: outcome.status, attempt };
  if (outcome.kind === 'network-failure') {
    const made = outcome.attempts[0];
    return { outcome: outcome.kind, attempt, error: made?.kind === 'network-error' ? made.error : undefined };
  }
  if (outcome.kind === 'private') return { outcome: outcome.kind, attempt, addresses: outcome.addresses };
  return { outcome: outcome.kind, attempt, error: outcome.error };
}

/**
 * The deliver_app_lifecycle job: one attempt to deliver an event to its app, through the same
 * host check, TLS trust, timeout and retries as resource webhooks; a network failure schedules
 * the next attempt as a job RETRY_DELAY_MS later. The outcome is logged, not thrown:
 * graphile-worker retries only a worker that died, so attempts are never multiplied. Unlike a resource webhook,
 * an app's lifecycle URL is not disabled when its host check fails; the next event tries again.
 */
export function deliverLifecycleTask(deps: DeliverLifecycleDependencies): Task {
  return async (payload) => {
    const job: Required<LifecycleJobPayload> = { attempt: 1, ...(payload as LifecycleJobPayload) };
    const log = deps.log.child({ appId: job.appId, eventId: job.eventId, type: job.type });
    const [app] = await deps.sql<{ url: string | null; secret: string | null }[]>`
      select lifecycle_webhook_url as url, lifecycle_webhook_secret as secret from cadence_system.apps where guid = ${job.appId}`;
    const url = app?.url ? new URL(app.url) : undefined;
    if (!app || !url || url.protocol !== 'https:') {
      log.warn('app lifecycle delivery skipped: the app has no https lifecycle URL');
      return;
    }
    const outcome = await attemptDelivery({ url, body: job.body, secret: app.secret, contentType: 'application/json', eventId: job.eventId }, deps.delivery, job.attempt);
    const fields = outcomeFields(outcome, job.attempt);
    if (outcome.kind === 'acknowledged') log.info(fields, 'app lifecycle delivery');
    else log.warn(fields, 'app lifecycle delivery failed');
    const next = nextAttempt(outcome, job.attempt);
    if (next === undefined) return;
    await deps.sql.begin(async (tx) => {
      const retry = { ...job, attempt: next };
      await enqueueJobs(tx, [lifecycleJob(retry, `app_lifecycle:${job.eventId}:${next}`, await runAtAfter(tx, RETRY_DELAY_MS))]);
    });
  };
}
