/**
 * The delivery log (schema/webhookDelivery.json): one record per (event, webhook), written by a
 * delivery set's bookkeeping in one statement per set, never on the API's write path. A record
 * appears with its delivery's first attempt (or when the set finds the webhook disabled or
 * inactive), and every later attempt of the delivery, redeliveries included, updates it.
 */
import type { Transaction } from '../tenancy/index.js';
import type { LoadedDelivery } from './delivery-load.js';
import { nextAttempt, type DeliveryOutcome } from './delivery/index.js';
import { deliveryJobId } from './payload.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One log record as a set's bookkeeping writes it. */
export interface DeliveryLogRow {
  readonly webhook_id: number;
  readonly event_id: number;
  readonly job_id: string;
  readonly event_name: string;
  readonly state: DeliveryState;
  /** Attempts made so far: the last one's number. */
  readonly attempts: number;
  /** Null when the last attempt got no status; the record then keeps the status of an earlier one. */
  readonly response_status: number | null;
  readonly error: string | null;
  readonly delivered_at: string | null;
}

function base(delivery: LoadedDelivery) {
  const { event } = delivery;
  return {
    webhook_id: delivery.webhookId,
    event_id: event.id,
    job_id: deliveryJobId(event.id, delivery.webhookId),
    event_name: `${event.resourceType}.${event.action}`,
  };
}

/** Why a set's host check refused, or why its attempt got no status. */
function failureOf(outcome: DeliveryOutcome): string | null {
  if (outcome.kind === 'private') return `private address: ${outcome.addresses.join(', ')}`;
  if (outcome.kind === 'unresolvable') return `unresolvable host: ${outcome.error}`;
  const [made] = outcome.attempts;
  return made?.kind === 'network-error' ? made.error : null;
}

/**
 * The record after an attempt: delivered on any status (SPEC.md), pending while a retry is
 * scheduled, failed when the attempts ran out or the host check refused.
 */
export function attemptLogRow(delivery: LoadedDelivery, outcome: DeliveryOutcome, deliveredAt: Date): DeliveryLogRow {
  const acknowledged = outcome.kind === 'acknowledged';
  const retried = nextAttempt(outcome, delivery.attempt, delivery.firstAttempt) !== undefined;
  return {
    ...base(delivery),
    state: acknowledged ? 'delivered' : retried ? 'pending' : 'failed',
    attempts: delivery.attempt,
    response_status: acknowledged ? outcome.status : null,
    error: failureOf(outcome),
    delivered_at: acknowledged ? deliveredAt.toISOString() : null,
  };
}

/** The record of a delivery a set did not attempt, because its webhook was disabled or inactive. */
export function skippedLogRow(delivery: LoadedDelivery, now: Date): DeliveryLogRow {
  const disabled = delivery.disabledUntil !== null && delivery.disabledUntil > now;
  const why = delivery.disabledReason ? `: ${delivery.disabledReason}` : '';
  return {
    ...base(delivery),
    state: 'failed',
    attempts: delivery.attempt - 1,
    response_status: null,
    error: disabled ? `not sent: the webhook is disabled until ${delivery.disabledUntil.toISOString()}${why}` : `not sent: the webhook is inactive${why}`,
    delivered_at: null,
  };
}

/**
 * Upserts a set's log records with one statement, in (event, webhook) order so that two sets
 * never wait on each other's rows in opposite orders. A record already past this attempt (a
 * redelivery recorded while a re-run of an older job was in flight) is left as it is; a status
 * and delivery time received earlier stay when the last attempt got none.
 */
export async function recordDeliveryLog(tx: Transaction, orgId: number, rows: readonly DeliveryLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  // One statement may not update a row twice: of one delivery's attempts in a set, the last.
  const latest = new Map<string, DeliveryLogRow>();
  for (const row of rows) {
    const key = row.job_id;
    const seen = latest.get(key);
    if (!seen || seen.attempts < row.attempts) latest.set(key, row);
  }
  await tx.unsafe(
    `insert into webhook_deliveries as d (org_id, webhook_id, event_id, job_id, event_name, state, attempts, response_status, error, delivered_at)
     select $1, r.webhook_id, r.event_id, r.job_id, r.event_name, r.state, r.attempts, r.response_status, r.error, r.delivered_at
       from jsonb_to_recordset($2::jsonb)
         as r(webhook_id bigint, event_id bigint, job_id text, event_name text, state text, attempts int, response_status int, error text, delivered_at timestamptz)
      order by r.event_id, r.webhook_id
     on conflict (org_id, event_id, webhook_id) do update
        set state = excluded.state, attempts = excluded.attempts, error = excluded.error,
            response_status = coalesce(excluded.response_status, d.response_status),
            delivered_at = coalesce(excluded.delivered_at, d.delivered_at), updated_at = now()
      where d.attempts <= excluded.attempts`,
    [orgId, [...latest.values()]] as never[],
    { prepare: true },
  );
}
