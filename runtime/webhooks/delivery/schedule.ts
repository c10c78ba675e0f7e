/**
 * Where delivery jobs wait, so that deliveries to one slow or dead receiver cannot take the
 * worker from anyone else. graphile-worker takes due jobs by priority number (lowest first),
 * then run_at: deliveries sit behind the rest of the work (sequence steps, sends, bulk chunks,
 * imports, compliance), which take the default 0, and so delay it by at most one attempt (the
 * 5 s response timeout) whatever their backlog. Among deliveries, graphile-worker runs the jobs
 * of one named queue one at a time: one org's deliveries share DELIVERY_LANES queues, so an org,
 * and so any one of its webhooks, holds at most that many slots, and other orgs' deliveries run
 * in the rest (WORKER_CONCURRENCY is 4 by default).
 */
export const DELIVERY_PRIORITY = 10;

/**
 * Deliveries one org may have in flight at once. Two lanes let a healthy receiver take two
 * requests at a time. Every get_job locks each idle queue row, so queue rows (orgs x lanes,
 * kept until graphile-worker's GC_JOB_QUEUES) should stay few.
 */
export const DELIVERY_LANES = 2;

/**
 * The named queue of a delivery: its scope (an org's resource webhooks, an app's lifecycle
 * webhook) and a lane chosen by a number that spreads deliveries over the lanes, such as the
 * event id. Every attempt of one delivery waits in the same lane.
 */
export function deliveryQueueName(scope: string, spread: number): string {
  return `${scope}:${spread % DELIVERY_LANES}`;
}
