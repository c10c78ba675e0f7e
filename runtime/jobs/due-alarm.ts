import type { WorkerEvents, WorkerPool } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';

/**
 * graphile-worker finds a job whose run-at was still ahead when it was added only when its idle
 * slots next poll (every pollInterval, 2 s): the NOTIFY of the insert woke them while the job was
 * not yet due. A step runner's job for a due instant would then start up to a poll interval
 * late, every time. The alarm reads, by the database's clock (the one graphile-worker compares
 * run_at with), when the first waiting job of one priority (the time-critical one) comes due
 * within the next poll interval, and nudges the pools' idle slots at that instant. It looks on
 * every poll interval, and again after each insert NOTIFY, so a job added a moment before it is
 * due is caught as well. A job already due that no slot has taken (all busy) gets a nudge too;
 * only idle slots answer one.
 */

export interface DueAlarmOptions {
  readonly sql: postgres.Sql;
  /** The priority of the jobs watched (STEP_RUNNER_PRIORITY): the index graphile-worker keeps on (priority, run_at) finds the first at once. */
  readonly priority: number;
  /** The pools whose idle slots run those jobs. */
  readonly pools: readonly WorkerPool[];
  /** The slots of the pools together: how many a nudge reaches at most. */
  readonly slots: number;
  /** The events of a runner listening for insert NOTIFYs. */
  readonly events: WorkerEvents;
  /** How far ahead it looks, and how often: the runners' poll interval. */
  readonly pollIntervalMs: number;
  readonly log: Logger;
}

export interface DueAlarm {
  stop(): void;
}

/**
 * At most one look per this long after NOTIFYs: a bulk write's stream of job inserts costs each
 * worker process four small reads a second, and a job added less than this before it is due is
 * nudged this late at most (instead of a poll interval).
 */
const NOTIFY_LOOK_MS = 250;

export function startDueAlarm(options: DueAlarmOptions): DueAlarm {
  const { sql, priority, pools, slots, events, pollIntervalMs, log } = options;
  let stopped = false;
  let looking = false;
  let lookAgain = false;
  let alarm: { at: number; timer: NodeJS.Timeout } | undefined;
  let notifyTimer: NodeJS.Timeout | undefined;

  const nudge = () => {
    for (const pool of pools) pool.nudge(slots);
  };

  const ring = () => {
    alarm = undefined;
    if (stopped) return;
    nudge();
    look();
  };

  /** Sets the alarm `inMs` from now, unless one rings sooner. */
  const setAlarm = (inMs: number) => {
    const at = Date.now() + inMs;
    if (alarm && alarm.at <= at) return;
    if (alarm) clearTimeout(alarm.timer);
    alarm = { at, timer: setTimeout(ring, inMs) };
    alarm.timer.unref();
  };

  const look = () => {
    if (stopped) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = true;
    firstDueInMs(sql, priority, pollIntervalMs)
      .then((inMs) => {
        if (stopped || inMs === undefined) return;
        if (inMs <= 0) nudge();
        else setAlarm(inMs);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'the due-job alarm could not look for jobs coming due; the runners poll for them'))
      .finally(() => {
        looking = false;
        if (lookAgain) {
          lookAgain = false;
          look();
        }
      });
  };

  const onNotification = () => {
    if (notifyTimer || stopped) return;
    notifyTimer = setTimeout(() => {
      notifyTimer = undefined;
      look();
    }, NOTIFY_LOOK_MS);
    notifyTimer.unref();
  };

  events.on('pool:listen:notification', onNotification);
  const interval = setInterval(look, pollIntervalMs);
  interval.unref();
  look();

  return {
    stop() {
      stopped = true;
      events.off('pool:listen:notification', onNotification);
      clearInterval(interval);
      if (alarm) clearTimeout(alarm.timer);
      if (notifyTimer) clearTimeout(notifyTimer);
    },
  };
}

/**
 * Milliseconds until the first job of `priority` that no slot holds comes due, if one does
 * within `withinMs`: zero or less when one is due already.
 */
async function firstDueInMs(sql: postgres.Sql, priority: number, withinMs: number): Promise<number | undefined> {
  const [row] = await sql<{ in_ms: number | null }[]>`
    select (extract(epoch from min(run_at) - now()) * 1000)::float8 as in_ms
      from graphile_worker._private_jobs
     where priority = ${priority} and is_available and run_at <= now() + ${withinMs} * interval '1 millisecond'`;
  return row?.in_ms ?? undefined;
}
