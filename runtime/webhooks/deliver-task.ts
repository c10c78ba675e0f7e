import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { orgScopedTransaction } from '../tenancy/index.js';
import { recordDeliverySet, type Delivered } from './delivery-bookkeeping.js';
import type { DeliveryItem } from './delivery-job.js';
import { checkDeliveryTarget, postDelivery, type DeliveryOptions, type DeliveryTarget } from './delivery/index.js';
import type { RecordWriter } from '../engine/index.js';
import type { LabelledCounter } from '../metrics/index.js';
import { loadDeliverySet, type LoadedDelivery } from './delivery-load.js';
import { deliveryBody, deliveryJobId } from './payload.js';

export { DISABLE_FOR_PRIVATE_ADDRESS_MS, DISABLE_FOR_UNRESOLVABLE_HOST_MS, DISABLE_PERMANENTLY_AFTER_MS } from './delivery-bookkeeping.js';

export interface DeliverWebhookDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly delivery: DeliveryOptions;
  readonly clock: () => Date;
  readonly log: Logger;
  /** Counts the attempts by outcome once they are recorded (cadence_webhook_deliveries_total); none when unset. */
  readonly deliveries?: LabelledCounter<'outcome'>;
}

/** POSTs of one set in flight at once; the pool's bound per target (connections.ts) matches it. */
const POSTS_IN_FLIGHT = 32;

/** A job's items: an array (a set), or one delivery's object from jobs enqueued before sets. */
function itemsOf(payload: unknown): Required<DeliveryItem>[] {
  const items = (Array.isArray(payload) ? payload : [payload]) as DeliveryItem[];
  return items.map((item) => ({ attempt: 1, firstAttempt: 1, ...item }));
}

/**
 * Takes the job's key off it as it starts. A job enqueued with the key of a running job makes
 * graphile-worker drop the key and set the running job's attempts to its maximum, which would
 * keep it from running again after a crash; with the key gone first, later deliveries make a
 * job of their own and this one keeps its attempts (restored, should that have happened before
 * this statement).
 */
async function releaseJobKey(sql: postgres.Sql, job: { id: string; key: string | null; attempts: number; locked_by: string | null }): Promise<void> {
  if (job.key === null) return;
  await sql`update graphile_worker._private_jobs set key = null, attempts = ${job.attempts}
             where id = ${job.id} and locked_by = ${job.locked_by}`;
}

/** Runs `each` over `items`, at most `limit` at once, keeping their order in the results. */
async function boundedMap<T, R>(items: readonly T[], limit: number, each: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await each(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** The host check of each webhook URL in the set, made once, just before the set's POSTs. */
async function checkTargets(deliveries: readonly LoadedDelivery[], options: DeliveryOptions): Promise<Map<string, DeliveryTarget>> {
  const urls = [...new Set(deliveries.map((d) => d.url))];
  const targets = await Promise.all(urls.map((url) => checkDeliveryTarget(new URL(url), options)));
  return new Map(urls.map((url, i) => [url, targets[i]!]));
}

/** One org's deliveries of a set: loaded in one statement, POSTed at once, recorded in one transaction. */
async function deliverSet(deps: DeliverWebhookDependencies, orgId: number, items: readonly Required<DeliveryItem>[]): Promise<void> {
  const now = deps.clock();
  const loaded = await orgScopedTransaction(deps.sql, orgId, (tx) => loadDeliverySet(tx, orgId, items));
  // Acknowledged or already tried, or a webhook gone: nothing to send. A webhook inactive or
  // disabled: nothing to send either, and the log says why.
  const open = loaded.filter((d) => !d.done);
  const sendable = (d: LoadedDelivery) => d.active && !(d.disabledUntil && d.disabledUntil > now);
  const due = open.filter(sendable);
  const skipped = open.filter((d) => !sendable(d));
  const context = { orgId, writer: deps.writer, clock: deps.clock, sentAt: now };
  if (due.length === 0) {
    if (skipped.length) await orgScopedTransaction(deps.sql, orgId, (tx) => recordDeliverySet(tx, context, [], skipped));
    return;
  }
  const targets = await checkTargets(due, deps.delivery);
  const delivered = await boundedMap(due, POSTS_IN_FLIGHT, async (d): Promise<Delivered> => {
    const body = deliveryBody(d.event, d.payloadVersion, now, deliveryJobId(d.event.id, d.webhookId));
    const delivery = { url: new URL(d.url), body, secret: d.secret, cleanupToken: d.cleanupToken, eventId: String(d.event.id) };
    return { delivery: d, outcome: await postDelivery(delivery, targets.get(d.url)!, deps.delivery, d.attempt) };
  });
  const counts: Record<string, number> = {};
  for (const { outcome } of delivered) counts[outcome.kind] = (counts[outcome.kind] ?? 0) + 1;
  deps.log.info({ orgId, webhookIds: [...new Set(due.map((d) => d.webhookId))], deliveries: due.length, outcomes: counts }, 'webhook deliveries');
  await orgScopedTransaction(deps.sql, orgId, (tx) => recordDeliverySet(tx, context, delivered, skipped));
  for (const [outcome, count] of Object.entries(counts)) deps.deliveries?.inc({ outcome }, count);
}

/**
 * The deliver_webhook job: one attempt of each delivery in its set (delivery-job.ts). A
 * network failure schedules the next attempt, RETRY_DELAY_MS later, as a set job of its own in
 * the transaction that records this one: a retry waits in the queue, not in a worker's slot. It
 * is idempotent: an acknowledged delivery is not sent again, nor an attempt already recorded,
 * when a job runs twice. Delivery failures are recorded, not thrown, so graphile-worker's own
 * retries (for a crashed worker) never multiply attempts.
 */
export function deliverWebhookTask(deps: DeliverWebhookDependencies): Task {
  return async (payload, helpers) => {
    await releaseJobKey(deps.sql, helpers.job);
    const byOrg = new Map<number, Required<DeliveryItem>[]>();
    for (const item of itemsOf(payload)) {
      const set = byOrg.get(item.orgId);
      if (set) set.push(item);
      else byOrg.set(item.orgId, [item]);
    }
    for (const [orgId, items] of byOrg) await deliverSet(deps, orgId, items);
  };
}
