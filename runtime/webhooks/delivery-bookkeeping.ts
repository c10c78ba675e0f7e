import { descriptors } from '../../generated/resources/index.js';
import { changesOfAttributes, SERVICE_ACTOR, type RecordWriter } from '../engine/index.js';
import { enqueueJobs, runAtAfter } from '../jobs/enqueue.js';
import type { Transaction } from '../tenancy/index.js';
import { retryDeliveryJobs, type DeliveryItem } from './delivery-job.js';
import type { LoadedDelivery } from './delivery-load.js';
import { attemptLogRow, recordDeliveryLog, skippedLogRow } from './delivery-log.js';
import { nextAttempt, RETRY_DELAY_MS, type DeliveryOutcome } from './delivery/index.js';

/** SPEC.md's webhook activation: how long a failing host check disables a webhook. */
export const DISABLE_FOR_PRIVATE_ADDRESS_MS = 60 * 60 * 1000;
export const DISABLE_FOR_UNRESOLVABLE_HOST_MS = 60 * 1000;
export const DISABLE_PERMANENTLY_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** What a webhook disabled by the host check says about allowing its host (runtime/config.ts). */
export const ALLOW_HOST_HINT = 'an operator allows a trusted host with WEBHOOK_ALLOWED_HOSTS';

/** One delivery of a set and how its attempt ended. */
export interface Delivered {
  readonly delivery: LoadedDelivery;
  readonly outcome: DeliveryOutcome;
}

interface BookkeepingContext {
  readonly orgId: number;
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  /** The body's meta.deliveredAt: when the set's POSTs began. */
  readonly sentAt: Date;
}

/** The attempt log's row for this attempt: its response or network error, or the host check's refusal. */
function attemptRow({ delivery, outcome }: Delivered) {
  const row = { webhook_id: delivery.webhookId, event_id: delivery.event.id, attempt: delivery.attempt };
  const [made] = outcome.attempts;
  // A refused host check is recorded too, so "why did nothing arrive?" has an answer.
  if (outcome.kind === 'private') return { ...row, status: null, error: `private address: ${outcome.addresses.join(', ')}`, latency_ms: 0 };
  if (outcome.kind === 'unresolvable') return { ...row, status: null, error: `unresolvable host: ${outcome.error}`, latency_ms: 0 };
  if (!made) throw new Error(`attempt ${delivery.attempt} made no request`);
  return {
    ...row,
    status: made.kind === 'response' ? made.status : null,
    error: made.kind === 'network-error' ? made.error : null,
    latency_ms: Math.round(made.latencyMs),
  };
}

/**
 * What a set's outcomes say about each webhook's disabled state, judged by what the set loaded:
 * a failed host check (made once per set and webhook, so all its deliveries share it) disables
 * the webhook, and an acknowledgement clears a disable. Most sets change nothing and never lock
 * the webhook row.
 */
function verdicts(delivered: readonly Delivered[]): Map<number, DeliveryOutcome['kind']> {
  const found = new Map<number, DeliveryOutcome['kind']>();
  for (const { delivery, outcome } of delivered) {
    const refused = outcome.kind === 'private' || outcome.kind === 'unresolvable';
    if (refused || (outcome.kind === 'acknowledged' && delivery.disabledSince !== null)) found.set(delivery.webhookId, outcome.kind);
  }
  return found;
}

/** The webhook's disabled-state attributes after this outcome, or undefined when unchanged. */
function disabledState(kind: DeliveryOutcome['kind'], disabledSince: Date | null, now: Date): Record<string, unknown> | undefined {
  if (kind === 'acknowledged') return disabledSince ? { disabledReason: null, disabledSince: null, disabledUntil: null } : undefined;
  if (kind === 'network-failure') return undefined;
  const since = disabledSince ?? now;
  if (now.getTime() - since.getTime() >= DISABLE_PERMANENTLY_AFTER_MS) {
    return { active: false, disabledReason: 'unrecoverable for a week', disabledUntil: null };
  }
  const period = kind === 'private' ? DISABLE_FOR_PRIVATE_ADDRESS_MS : DISABLE_FOR_UNRESOLVABLE_HOST_MS;
  return {
    disabledReason: kind === 'private' ? `host resolves to a private address; ${ALLOW_HOST_HINT}` : 'host cannot be resolved',
    disabledSince: since.toISOString(),
    disabledUntil: new Date(now.getTime() + period).toISOString(),
  };
}

/**
 * A set's bookkeeping, in the caller's one transaction: its attempt rows in one statement, its
 * delivery log records (delivery-log.ts, with those of `skipped`, the deliveries not attempted
 * because their webhook was disabled or inactive) in one statement, its retries as set jobs in
 * one statement, and the disabled-state changes of its webhooks in one write. The webhook rows that may change are locked first, in id order: an attempt row's insert
 * holds a foreign-key share lock on its webhook row, and two sets each holding one while waiting
 * to lock the row for their update would deadlock. Sets that loaded the same stale state then
 * decide from the current one, so a burst clears (or sets) a disable once, not once per set.
 */
export async function recordDeliverySet(
  tx: Transaction,
  context: BookkeepingContext,
  delivered: readonly Delivered[],
  skipped: readonly LoadedDelivery[] = [],
): Promise<void> {
  const { orgId } = context;
  const changing = verdicts(delivered);
  const current =
    changing.size === 0
      ? []
      : await tx<{ id: number; disabled_since: Date | null }[]>`
          select id, disabled_since from webhooks where org_id = ${orgId} and id = any(${[...changing.keys()]}::bigint[])
           order by id for no key update`;
  await tx.unsafe(
    `insert into webhook_attempts (org_id, webhook_id, event_id, attempt, status, error, latency_ms)
     select $1, r.webhook_id, r.event_id, r.attempt, r.status, r.error, r.latency_ms
       from jsonb_to_recordset($2::jsonb) as r(webhook_id bigint, event_id bigint, attempt int, status int, error text, latency_ms int)`,
    [orgId, delivered.map(attemptRow)] as never[],
    { prepare: true },
  );
  const logRows = [...delivered.map((d) => attemptLogRow(d.delivery, d.outcome, context.sentAt)), ...skipped.map((d) => skippedLogRow(d, context.sentAt))];
  await recordDeliveryLog(tx, orgId, logRows);
  const retries: Required<DeliveryItem>[] = [];
  for (const { delivery, outcome } of delivered) {
    const next = nextAttempt(outcome, delivery.attempt, delivery.firstAttempt);
    if (next !== undefined) retries.push({ orgId, eventId: delivery.event.id, webhookId: delivery.webhookId, attempt: next, firstAttempt: delivery.firstAttempt });
  }
  if (retries.length) await enqueueJobs(tx, retryDeliveryJobs(retries, await runAtAfter(tx, RETRY_DELAY_MS)));
  const now = context.clock();
  const attributes = descriptors.get('webhook')!.attributes;
  const updates = current.flatMap((webhook) => {
    const changes = disabledState(changing.get(Number(webhook.id))!, webhook.disabled_since, now);
    return changes ? [{ kind: 'update' as const, type: 'webhook', id: Number(webhook.id), changes: changesOfAttributes(attributes, changes) }] : [];
  });
  if (updates.length) await context.writer.write({ tx, orgId, actor: SERVICE_ACTOR }, updates);
}
