import type { Job, WorkerEvents } from 'graphile-worker';

/**
 * A worker's fair share: no one tenant's jobs may hold every slot. A job that carries a share
 * flag (shareFlag: an org's webhook deliveries, an app's lifecycle deliveries) counts against
 * that flag while it runs, and while a flag's jobs hold `limit` slots the worker asks
 * graphile-worker for other jobs only (its forbiddenFlags). The count is per worker process: a
 * flag's jobs may momentarily overshoot by the slots that were fetching at the same time, for
 * as long as one job runs.
 */
export interface FairShare {
  /** The most slots one flag's jobs take: all but one, so another tenant always has one. */
  readonly limit: number;
  /** graphile-worker's forbiddenFlags, asked before each fetch: the flags at their limit. */
  readonly forbiddenFlags: () => string[];
}

const SHARE_PREFIX = 'share:';

/** The flag that counts a job against `key`'s share (e.g. `webhook:<orgId>`). */
export function shareFlag(key: string): string {
  return `${SHARE_PREFIX}${key}`;
}

/** A share of a worker of `concurrency` slots, kept up to date from its job events. */
export function fairShare(concurrency: number, events: WorkerEvents): FairShare {
  const limit = Math.max(1, concurrency - 1);
  const running = new Map<string, number>();
  const sharesOf = (job: Job): string[] => Object.keys(job.flags ?? {}).filter((flag) => flag.startsWith(SHARE_PREFIX));
  events.on('job:start', ({ job }) => {
    for (const flag of sharesOf(job)) running.set(flag, (running.get(flag) ?? 0) + 1);
  });
  events.on('job:complete', ({ job }) => {
    for (const flag of sharesOf(job)) {
      const left = (running.get(flag) ?? 1) - 1;
      if (left > 0) running.set(flag, left);
      else running.delete(flag);
    }
  });
  return { limit, forbiddenFlags: () => [...running].filter(([, count]) => count >= limit).map(([flag]) => flag) };
}
