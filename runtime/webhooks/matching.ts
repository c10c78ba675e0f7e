import type { EventSink } from '../engine/event-log.js';
import { enqueueJobs } from '../jobs/enqueue.js';
import { firstDeliveryJobs, type DeliveryItem } from './delivery-job.js';

/** The actions a `*` resource subscription covers (SPEC.md's subscription table). */
export const GENERIC_ACTIONS: ReadonlySet<string> = new Set(['created', 'updated', 'destroyed']);

/** Whether a webhook's resource/action subscription covers an event (`*` is a wildcard). */
export function subscriptionMatches(subscription: { resource: string; action: string }, resourceType: string, action: string): boolean {
  if (subscription.resource !== '*' && subscription.resource !== resourceType) return false;
  if (subscription.action !== '*' && subscription.action !== action) return false;
  return subscription.resource !== '*' || GENERIC_ACTIONS.has(action);
}

/**
 * The event sink of webhook deliveries: a delivery per (event, matching active webhook),
 * enqueued in the events' own transaction, so a rolled-back write leaves neither event nor
 * delivery. The org's webhooks are read once per write and the deliveries enqueued with one
 * statement, gathered into set jobs of up to DELIVERY_SET_SIZE per webhook (delivery-job.ts):
 * a write of a thousand records adds some sixteen jobs per webhook, not a thousand. Each set
 * makes one attempt of its deliveries and schedules the next (deliver-task.ts).
 */
export const webhookDeliveries: EventSink = async (tx, orgId, now, events) => {
  const types = [...new Set(events.map((e) => e.resourceType))];
  const webhooks = await tx.unsafe<{ id: number; resource: string; action: string }[]>(
    `select "id", "resource", "action" from "webhooks"
      where "org_id" = $1 and "active" and ("disabled_until" is null or "disabled_until" <= $2::timestamptz)
        and ("resource" = '*' or "resource" = any($3::text[]))`,
    [orgId, now.toISOString(), types] as never[],
    { prepare: true },
  );
  if (webhooks.length === 0) return;
  const deliveries: Omit<DeliveryItem, 'attempt'>[] = [];
  for (const event of events) {
    for (const webhook of webhooks) {
      if (subscriptionMatches(webhook, event.resourceType, event.action)) deliveries.push({ orgId, eventId: event.id, webhookId: webhook.id });
    }
  }
  await enqueueJobs(tx, firstDeliveryJobs(deliveries));
};
