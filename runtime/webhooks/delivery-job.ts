import type { JobSpec } from '../jobs/enqueue.js';
import { shareFlag } from '../jobs/fair-share.js';
import { DELIVERY_PRIORITY } from './delivery/index.js';

const DELIVER_WEBHOOK_TASK = 'deliver_webhook';

/** graphile-worker retries only crashes (a killed worker); delivery retries are jobs of their own. */
const DELIVERY_JOB_ATTEMPTS = 5;

export interface DeliverWebhookPayload {
  readonly orgId: number;
  readonly eventId: number;
  readonly webhookId: number;
  /** Which of SPEC.md's 4 attempts this job makes; 1 when absent (jobs enqueued before retries were jobs). */
  readonly attempt?: number;
}

/**
 * The job of one attempt to deliver an event to a webhook, behind the rest of the work and within
 * its org's share of a worker (delivery/schedule.ts). The job key is the (event, webhook, attempt): enqueueing
 * the same attempt again, from a repeated write or a re-run job, leaves one job.
 */
export function deliveryJob(delivery: Required<DeliverWebhookPayload>, runAt?: Date): JobSpec {
  const { orgId, eventId, webhookId, attempt } = delivery;
  return {
    task: DELIVER_WEBHOOK_TASK,
    payload: { orgId, eventId, webhookId, attempt },
    maxAttempts: DELIVERY_JOB_ATTEMPTS,
    jobKey: `webhook:${orgId}:${eventId}:${webhookId}${attempt === 1 ? '' : `:${attempt}`}`,
    priority: DELIVERY_PRIORITY,
    flags: [shareFlag(`webhook:${orgId}`)],
    ...(runAt && { runAt }),
  };
}
