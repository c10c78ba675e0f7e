import { enqueueJobs } from '../jobs/enqueue.js';
import type { Transaction } from '../tenancy/index.js';
import { retryDeliveryJobs } from './delivery-job.js';

/** A delivery log record to send again: its event, its webhook, and the attempts made so far. */
export interface Redelivery {
  readonly eventId: number;
  readonly webhookId: number;
  readonly attempts: number;
}

/**
 * Enqueues redeliveries through the ordinary delivery path, in the caller's transaction (the
 * one recording the redeliver action): the same body built from the same event, signed with the
 * webhook's secret as it is when the job runs, with the same meta.eventId, meta.jobId and
 * Service-Webhook-Event-Id. Attempts go on numbering from the log's count, and SPEC.md's four
 * (network failures only) count from the redelivery's first.
 */
export async function enqueueRedeliveries(tx: Transaction, orgId: number, redeliveries: readonly Redelivery[]): Promise<void> {
  if (redeliveries.length === 0) return;
  const items = redeliveries.map(({ eventId, webhookId, attempts }) => ({ orgId, eventId, webhookId, attempt: attempts + 1, firstAttempt: attempts + 1 }));
  await enqueueJobs(tx, retryDeliveryJobs(items));
}
