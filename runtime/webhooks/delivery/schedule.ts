/**
 * Where delivery jobs stand, so that deliveries to one slow or dead receiver cannot take the
 * worker from anyone else. graphile-worker takes due jobs by priority number (lowest first),
 * then run_at: deliveries sit behind the rest of the work (sequence steps, sends, bulk chunks,
 * imports, compliance), which take the default 0, and so delay it by at most one set of
 * attempts (two 5 s response timeouts: 64 deliveries, 32 at once) whatever their backlog. Among deliveries, each carries its org's (or
 * app's) share flag (runtime/jobs/fair-share.ts): a worker runs one org's deliveries in all but
 * one of its slots at most, so other orgs' deliveries keep running beside a dead receiver's.
 */
export const DELIVERY_PRIORITY = 10;
