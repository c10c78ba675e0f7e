import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An org's time in sandbox mode (CADENCE_SANDBOX=true, issue #28): real time plus the offset its
 * test clock was advanced by (runtime/sandbox/clock.ts). A request or a job that works for one
 * org runs inside `runInOrgTime`; the service's clock (`orgTimeClock`) and the run-at of the jobs
 * it enqueues (jobs/enqueue.ts) read the offset from there, so none of the code in between needs
 * to know about test clocks.
 *
 * The storage is per asynchronous context, not shared mutable state: what one request or job
 * runs in is invisible to every other. Outside sandbox mode nothing enters it, and the offset
 * is always 0.
 */
const current = new AsyncLocalStorage<OrgTime>();

export interface OrgTime {
  readonly orgId: number;
  /** How far the org's clock is ahead of real time. */
  readonly offsetMs: number;
}

/** Runs `work` in the org's time. */
export function runInOrgTime<T>(time: OrgTime, work: () => T): T {
  return current.run(time, work);
}

/** How far the clock of the org being worked for is ahead of real time: 0 outside sandbox mode. */
export function orgTimeOffsetMs(): number {
  return current.getStore()?.offsetMs ?? 0;
}

/** `base` moved to the time of the org being worked for. */
export function orgTimeClock(base: () => Date): () => Date {
  return () => {
    const offsetMs = orgTimeOffsetMs();
    return offsetMs === 0 ? base() : new Date(base().getTime() + offsetMs);
  };
}

/** The real instant at which the org's clock shows `orgInstant`: what graphile-worker's run_at must be. */
export function realInstantOf(orgInstant: Date): Date {
  const offsetMs = orgTimeOffsetMs();
  return offsetMs === 0 ? orgInstant : new Date(orgInstant.getTime() - offsetMs);
}

/**
 * The SQL for "now" in statements that stamp a record's times (the record writer's created and
 * updated times, events): the transaction's time, moved by the org's offset in sandbox mode. The
 * offset is an integer, so inlining it is safe.
 */
export function orgNowSql(): string {
  const offsetMs = orgTimeOffsetMs();
  if (!Number.isSafeInteger(offsetMs)) throw new TypeError(`an org's offset must be an integer of milliseconds, not ${String(offsetMs)}`);
  return offsetMs === 0 ? 'now()' : `(now() + interval '${offsetMs} milliseconds')`;
}
