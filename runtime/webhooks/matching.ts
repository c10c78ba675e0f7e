import type { EventSink } from '../engine/event-log.js';
import { enqueueJobs, type JobSpec } from '../jobs/enqueue.js';
import { deliveryJob } from './delivery-job.js';

/** The actions a `*` resource subscription covers (SPEC.md's subscription table). */
export const GENERIC_ACTIONS: ReadonlySet<string> = new Set(['created', 'updated', 'destroyed']);

/** Whether a webhook's resource/action subscription covers an event (`*` is a wildcard). */
export function subscriptionMatches(subscription: { resource: string; action: string }, resourceType: string, action: string): boolean {
  if (subscription.resource !== '*' && subscription.resource !== resourceType) return false;
  if (subscription.action !== '*' && subscription.action !== action) return false;
  return subscription.resource !== '*' || GENERIC_ACTIONS.has(action);
}

/**
 * The event sink of webhook deliveries: one delivery job per (event, matching active webhook),
 * enqueued in the events' own transaction, so a rolled-back write leaves neither event nor
 * delivery. The org's webhooks are read once per write and the jobs enqueued with one call;
 * the job key makes a repeated enqueue of the same (event, webhook) one job. Each job makes one
 * attempt and schedules the next (deliver-task.ts).
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
  const jobs: JobSpec[] = [];
  for (const event of events) {
    for (const webhook of webhooks) {
      if (!subscriptionMatches(webhook, event.resourceType, event.action)) continue;
      jobs.push(deliveryJob({ orgId, eventId: event.id, webhookId: webhook.id, attempt: 1 }));
    }
  }
  await enqueueJobs(tx, jobs);
};
