import { enqueueJob } from '../jobs/enqueue.js';
import type { Transaction } from '../tenancy/index.js';

/** The actions a `*` resource subscription covers (SPEC.md's subscription table). */
export const GENERIC_ACTIONS: ReadonlySet<string> = new Set(['created', 'updated', 'destroyed']);

/** graphile-worker retries only crashes (a killed worker); delivery retries are the task's own. */
const DELIVERY_JOB_ATTEMPTS = 5;

export interface DeliverableEvent {
  readonly orgId: number;
  readonly eventId: number;
  readonly resourceType: string;
  readonly action: string;
  readonly now: Date;
}

/** Whether a webhook's resource/action subscription covers an event (`*` is a wildcard). */
export function subscriptionMatches(subscription: { resource: string; action: string }, resourceType: string, action: string): boolean {
  if (subscription.resource !== '*' && subscription.resource !== resourceType) return false;
  if (subscription.action !== '*' && subscription.action !== action) return false;
  return subscription.resource !== '*' || GENERIC_ACTIONS.has(action);
}

/**
 * Enqueues one delivery job per matching active webhook, in the event's own transaction: a
 * rolled-back write leaves neither event nor delivery. The job key makes a repeated enqueue of
 * the same (event, webhook) one job.
 */
export async function enqueueDeliveries(tx: Transaction, event: DeliverableEvent): Promise<void> {
  const webhooks = await tx.unsafe<{ id: number; resource: string; action: string }[]>(
    `select "id", "resource", "action" from "webhooks"
      where "org_id" = $1 and "active" and ("disabled_until" is null or "disabled_until" <= $2::timestamptz)
        and "resource" in ('*', $3) and "action" in ('*', $4)`,
    [event.orgId, event.now.toISOString(), event.resourceType, event.action],
    { prepare: true },
  );
  for (const webhook of webhooks) {
    if (!subscriptionMatches(webhook, event.resourceType, event.action)) continue;
    await enqueueJob(
      tx,
      'deliver_webhook',
      { orgId: event.orgId, eventId: event.eventId, webhookId: webhook.id },
      { maxAttempts: DELIVERY_JOB_ATTEMPTS, jobKey: `webhook:${event.orgId}:${event.eventId}:${webhook.id}` },
    );
  }
}
