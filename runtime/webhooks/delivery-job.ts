import type { JobSpec } from '../jobs/enqueue.js';
import { shareFlag } from '../jobs/fair-share.js';
import { DELIVERY_PRIORITY } from './delivery/index.js';

export const DELIVER_WEBHOOK_TASK = 'deliver_webhook';

/** graphile-worker retries only crashes (a killed worker); delivery retries are jobs of their own. */
const DELIVERY_JOB_ATTEMPTS = 5;

/**
 * The most deliveries one job runs as a set: its loads one statement, its POSTs at once (up to
 * a connection pool's bound), its bookkeeping one transaction. Bounded so that a set to a
 * receiver that hangs ends within two response timeouts, and a job's payload stays small.
 */
export const DELIVERY_SET_SIZE = 64;

/** One attempt to deliver one event to one webhook: an item of a deliver_webhook job's payload. */
export interface DeliveryItem {
  readonly orgId: number;
  readonly eventId: number;
  readonly webhookId: number;
  /** The attempt's number among all made of this delivery; 1 when absent (jobs enqueued before retries were jobs). */
  readonly attempt?: number;
  /**
   * The attempt a redelivery started at (runtime/webhooks/redelivery.ts): SPEC.md's 4 attempts
   * count from it, and only an acknowledgement from it on makes the delivery done. 1 when absent.
   */
  readonly firstAttempt?: number;
}

function setJob(items: readonly Required<DeliveryItem>[], jobKey: string | undefined, runAt: Date | undefined): JobSpec {
  const [first] = items;
  if (!first) throw new Error('a delivery set needs an item');
  return {
    task: DELIVER_WEBHOOK_TASK,
    // An array payload makes it one of graphile-worker's batch jobs: a job enqueued with the same
    // key while this one waits appends its items to this one's instead of replacing them.
    payload: items.map(({ orgId, eventId, webhookId, attempt, firstAttempt }) => ({
      orgId,
      eventId,
      webhookId,
      attempt,
      ...(firstAttempt > 1 && { firstAttempt }),
    })),
    maxAttempts: DELIVERY_JOB_ATTEMPTS,
    ...(jobKey !== undefined && { jobKey }),
    priority: DELIVERY_PRIORITY,
    flags: [shareFlag(`webhook:${first.orgId}`)],
    ...(runAt && { runAt }),
  };
}

/**
 * First attempts, as jobs that gather them into sets: one job per (org, webhook, run of
 * DELIVERY_SET_SIZE event ids). Writes that follow one another before a worker takes the job
 * append to it (its key), so single-record writes are delivered in sets too, and no job grows
 * past DELIVERY_SET_SIZE items, however large a backlog gets.
 */
export function firstDeliveryJobs(items: readonly Omit<DeliveryItem, 'attempt' | 'firstAttempt'>[]): JobSpec[] {
  const sets = new Map<string, Required<DeliveryItem>[]>();
  for (const item of items) {
    const key = `webhook:${item.orgId}:${item.webhookId}:${Math.floor(item.eventId / DELIVERY_SET_SIZE)}`;
    const set = sets.get(key);
    const attempt = { ...item, attempt: 1, firstAttempt: 1 };
    if (set) set.push(attempt);
    else sets.set(key, [attempt]);
  }
  return [...sets].map(([key, set]) => setJob(set, key, undefined));
}

/**
 * Later attempts of a set's deliveries, at `runAt` (now when unset: redeliveries): already a
 * set, so jobs without keys, of at most DELIVERY_SET_SIZE items each per webhook.
 */
export function retryDeliveryJobs(items: readonly Required<DeliveryItem>[], runAt?: Date): JobSpec[] {
  const byWebhook = new Map<string, Required<DeliveryItem>[]>();
  for (const item of items) {
    const key = `${item.orgId}:${item.webhookId}`;
    const set = byWebhook.get(key);
    if (set) set.push(item);
    else byWebhook.set(key, [item]);
  }
  const jobs: JobSpec[] = [];
  for (const set of byWebhook.values()) {
    for (let i = 0; i < set.length; i += DELIVERY_SET_SIZE) jobs.push(setJob(set.slice(i, i + DELIVERY_SET_SIZE), undefined, runAt));
  }
  return jobs;
}
