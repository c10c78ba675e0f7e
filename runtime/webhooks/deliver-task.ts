import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { descriptors } from '../../generated/routes/index.js';
import { changesOfAttributes, SERVICE_ACTOR, type RecordWriter } from '../engine/index.js';
import { enqueueJobs, runAtAfter } from '../jobs/enqueue.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { deliveryJob, type DeliverWebhookPayload } from './delivery-job.js';
import { attemptDelivery, nextAttempt, RETRY_DELAY_MS, type DeliveryOptions, type DeliveryOutcome } from './delivery/index.js';
import { deliveryBody, deliveryJobId, type StoredEvent } from './payload.js';

/** SPEC.md's webhook activation: how long a failing host check disables a webhook. */
export const DISABLE_FOR_PRIVATE_ADDRESS_MS = 60 * 60 * 1000;
export const DISABLE_FOR_UNRESOLVABLE_HOST_MS = 60 * 1000;
export const DISABLE_PERMANENTLY_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export interface DeliverWebhookDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly delivery: DeliveryOptions;
  readonly clock: () => Date;
  readonly log: Logger;
}

/** A job's payload, with the attempt number jobs enqueued before retries were jobs lack. */
type Attempt = Required<DeliverWebhookPayload>;

interface Loaded {
  url: string;
  secret: string | null;
  cleanup_token: string;
  payload_version: number | null;
  active: boolean;
  disabled_until: Date | null;
  disabled_since: Date | null;
  /** Acknowledged, or this attempt already made by an earlier run of the job. */
  done: boolean;
  resource_type: string;
  resource_id: number;
  action: string;
  payload: StoredEvent['payload'];
}

async function load(tx: Transaction, job: Attempt): Promise<Loaded | undefined> {
  const [row] = await tx<Loaded[]>`
    select w.url, w.secret, w.cleanup_token, w.payload_version, w.active, w.disabled_until, w.disabled_since,
           e.resource_type, e.resource_id, e.action, e.payload,
           exists (select 1 from webhook_attempts a
                    where a.org_id = w.org_id and a.webhook_id = w.id and a.event_id = e.id
                      and (a.status is not null or a.attempt >= ${job.attempt})) as done
      from webhooks w, events e
     where w.org_id = ${job.orgId} and w.id = ${job.webhookId} and e.org_id = ${job.orgId} and e.id = ${job.eventId}`;
  return row;
}

type DisabledState = Pick<Loaded, 'disabled_since'>;

/**
 * Whether this outcome may change the webhook, judged by what the job loaded before delivering:
 * a failed host check disables it, and an acknowledgement clears a disable. Most deliveries
 * change nothing and never lock the webhook row.
 */
function mayChangeWebhook(outcome: DeliveryOutcome, loaded: Loaded): boolean {
  return outcome.kind === 'private' || outcome.kind === 'unresolvable' || (outcome.kind === 'acknowledged' && loaded.disabled_since !== null);
}

/**
 * The webhook's disabled state as of now, its row locked until the transaction ends. Taken
 * before the attempt rows are inserted: an insert holds a foreign-key share lock on the webhook
 * row, and two deliveries each holding one while waiting to lock the row for their update
 * deadlock. Deliveries that loaded the same stale state then decide from the current one, so a
 * burst clears (or sets) a disable once instead of once per delivery.
 */
async function lockDisabledState(tx: Transaction, job: Attempt): Promise<DisabledState | undefined> {
  const [row] = await tx<DisabledState[]>`
    select disabled_since from webhooks where org_id = ${job.orgId} and id = ${job.webhookId} for no key update`;
  return row;
}

/** The webhook's disabled-state attributes after this outcome, or undefined when unchanged. */
function disabledState(outcome: DeliveryOutcome, webhook: DisabledState, now: Date): Record<string, unknown> | undefined {
  if (outcome.kind === 'acknowledged') {
    return webhook.disabled_since ? { disabledReason: null, disabledSince: null, disabledUntil: null } : undefined;
  }
  if (outcome.kind === 'network-failure') return undefined;
  const since = webhook.disabled_since ?? now;
  if (now.getTime() - since.getTime() >= DISABLE_PERMANENTLY_AFTER_MS) {
    return { active: false, disabledReason: 'unrecoverable for a week', disabledUntil: null };
  }
  const period = outcome.kind === 'private' ? DISABLE_FOR_PRIVATE_ADDRESS_MS : DISABLE_FOR_UNRESOLVABLE_HOST_MS;
  return {
    disabledReason: outcome.kind === 'private' ? 'host resolves to a private address' : 'host cannot be resolved',
    disabledSince: since.toISOString(),
    disabledUntil: new Date(now.getTime() + period).toISOString(),
  };
}

/** The attempt log's row for this attempt: its response or network error, or the host check's refusal. */
function attemptRow(outcome: DeliveryOutcome, number: number): { status: number | null; error: string | null; latencyMs: number } {
  const [made] = outcome.attempts;
  // A refused host check is recorded too, so "why did nothing arrive?" has an answer.
  if (outcome.kind === 'private') return { status: null, error: `private address: ${outcome.addresses.join(', ')}`, latencyMs: 0 };
  if (outcome.kind === 'unresolvable') return { status: null, error: `unresolvable host: ${outcome.error}`, latencyMs: 0 };
  if (!made) throw new Error(`attempt ${number} made no request`);
  return {
    status: made.kind === 'response' ? made.status : null,
    error: made.kind === 'network-error' ? made.error : null,
    latencyMs: Math.round(made.latencyMs),
  };
}

/**
 * The deliver_webhook job: one attempt to deliver one event to one webhook. A network failure
 * schedules the next attempt as a job of its own, RETRY_DELAY_MS later, in the same transaction
 * that records this one: a retry waits in the queue, not in a worker's slot. It is idempotent: an
 * acknowledged delivery is not sent again, nor an attempt already recorded, when a job runs twice.
 * Delivery failures are recorded, not thrown, so graphile-worker's own retries (for a crashed
 * worker) never multiply attempts.
 */
export function deliverWebhookTask(deps: DeliverWebhookDependencies): Task {
  const webhook = descriptors.get('webhook')!;
  return async (payload) => {
    const job: Attempt = { attempt: 1, ...(payload as DeliverWebhookPayload) };
    const now = deps.clock();
    const loaded = await orgScopedTransaction(deps.sql, job.orgId, (tx) => load(tx, job));
    if (!loaded || !loaded.active || loaded.done) return;
    if (loaded.disabled_until && loaded.disabled_until > now) return;
    const event: StoredEvent = { id: job.eventId, resourceType: loaded.resource_type, resourceId: loaded.resource_id, action: loaded.action, payload: loaded.payload };
    const body = deliveryBody(event, loaded.payload_version ?? 1, now, deliveryJobId(job.eventId, job.webhookId));
    const outcome = await attemptDelivery(
      { url: new URL(loaded.url), body, secret: loaded.secret, cleanupToken: loaded.cleanup_token, eventId: String(job.eventId) },
      deps.delivery,
      job.attempt,
    );
    deps.log.info({ webhookId: job.webhookId, eventId: job.eventId, outcome: outcome.kind, attempt: job.attempt }, 'webhook delivery');
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      const current = mayChangeWebhook(outcome, loaded) ? await lockDisabledState(tx, job) : undefined;
      const row = attemptRow(outcome, job.attempt);
      await tx`insert into webhook_attempts (org_id, webhook_id, event_id, attempt, status, error, latency_ms)
               values (${job.orgId}, ${job.webhookId}, ${job.eventId}, ${job.attempt}, ${row.status}, ${row.error}, ${row.latencyMs})`;
      const next = nextAttempt(outcome, job.attempt);
      if (next !== undefined) await enqueueJobs(tx, [deliveryJob({ ...job, attempt: next }, await runAtAfter(tx, RETRY_DELAY_MS))]);
      const changes = current && disabledState(outcome, current, deps.clock());
      if (!changes) return;
      await deps.writer.write({ tx, orgId: job.orgId, actor: SERVICE_ACTOR }, [
        { kind: 'update', type: 'webhook', id: job.webhookId, changes: changesOfAttributes(webhook.attributes, changes) },
      ]);
    });
  };
}
