import { descriptors } from '../../generated/resources/index.js';
import { restoredPayload } from '../engine/index.js';
import type { Transaction } from '../tenancy/index.js';
import type { DeliveryItem } from './delivery-job.js';
import type { StoredEvent } from './payload.js';

/** What one delivery of a set needs: its webhook, its event, and whether it is still to be made. */
export interface LoadedDelivery {
  readonly webhookId: number;
  readonly attempt: number;
  /** The attempt its delivery or redelivery started at (DeliveryItem.firstAttempt). */
  readonly firstAttempt: number;
  readonly url: string;
  readonly secret: string | null;
  readonly cleanupToken: string;
  readonly payloadVersion: number;
  readonly active: boolean;
  readonly disabledUntil: Date | null;
  readonly disabledSince: Date | null;
  readonly disabledReason: string | null;
  /** Acknowledged, or this attempt already made by an earlier run of the job. */
  readonly done: boolean;
  readonly event: StoredEvent;
}

interface Row {
  webhook_id: number;
  attempt: number;
  first_attempt: number;
  url: string;
  secret: string | null;
  cleanup_token: string;
  payload_version: number | null;
  active: boolean;
  disabled_until: Date | null;
  disabled_since: Date | null;
  disabled_reason: string | null;
  done: boolean;
  event_id: number;
  resource_type: string;
  resource_id: number;
  action: string;
  payload: StoredEvent['payload'];
}

/**
 * A set's webhooks, events and attempts already made, in one statement. A delivery whose
 * webhook or event is gone is left out; the same (event, webhook, attempt) twice is loaded once.
 * A redelivery (first_attempt > 1) is done only by an acknowledgement of its own attempts.
 */
export async function loadDeliverySet(tx: Transaction, orgId: number, items: readonly Required<DeliveryItem>[]): Promise<LoadedDelivery[]> {
  const wanted = items.map((i) => ({ webhook_id: i.webhookId, event_id: i.eventId, attempt: i.attempt, first_attempt: i.firstAttempt }));
  const rows = await tx.unsafe<Row[]>(
    `select distinct on (i.webhook_id, i.event_id, i.attempt)
            i.webhook_id, i.attempt, i.first_attempt, w.url, w.secret, w.cleanup_token, w.payload_version, w.active,
            w.disabled_until, w.disabled_since, w.disabled_reason,
            e.id as event_id, e.resource_type, e.resource_id, e.action, e.payload,
            exists (select 1 from webhook_attempts a
                     where a.org_id = w.org_id and a.webhook_id = w.id and a.event_id = e.id
                       and ((a.status is not null and a.attempt >= i.first_attempt) or a.attempt >= i.attempt)) as done
       from jsonb_to_recordset($2::jsonb) as i(webhook_id bigint, event_id bigint, attempt int, first_attempt int)
       join webhooks w on w.org_id = $1 and w.id = i.webhook_id
       join events e on e.org_id = $1 and e.id = i.event_id
      order by i.webhook_id, i.event_id, i.attempt`,
    [orgId, wanted] as never[],
    { prepare: true },
  );
  return rows.map((r) => ({
    webhookId: Number(r.webhook_id),
    attempt: r.attempt,
    firstAttempt: r.first_attempt,
    url: r.url,
    secret: r.secret,
    cleanupToken: r.cleanup_token,
    payloadVersion: r.payload_version ?? 1,
    active: r.active,
    disabledUntil: r.disabled_until,
    disabledSince: r.disabled_since,
    disabledReason: r.disabled_reason,
    done: r.done,
    event: {
      id: Number(r.event_id),
      resourceType: r.resource_type,
      resourceId: Number(r.resource_id),
      action: r.action,
      // A created event is stored without its nulls; every payload version delivers them.
      payload: restoredPayload((type) => descriptors.get(type), { resourceType: r.resource_type, action: r.action, payload: r.payload }) as StoredEvent['payload'],
    },
  }));
}
