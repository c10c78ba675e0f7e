import type { Logger } from 'pino';
import type postgres from 'postgres';
import { readCount, settleCounts, type CounterDelta, type CounterKey, type CounterRow } from './counter-store.js';
import type { HolderKey } from './holder.js';
import { hourWindowAt, type HourWindow } from './window.js';

/** How often a process settles its counts with PostgreSQL, at most. */
export const DEFAULT_SETTLE_INTERVAL_MS = 1000;

export interface RateLimiterOptions {
  readonly sql: postgres.Sql;
  readonly log: Logger;
  /** RATE_LIMIT_PER_HOUR: a holder's requests per hour unless its org has a limit of its own. */
  readonly perHour: number;
  /** Decides the window; injectable so tests can move time. */
  readonly clock: () => Date;
  readonly settleIntervalMs?: number;
}

/** What a request's check came to: the X-RateLimit-* headers, and whether it may go on. */
export interface RateDecision {
  readonly admitted: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly window: HourWindow;
  readonly now: Date;
}

/** A holder in a window, as the map of counts and the settle's answers are keyed. */
function idOf(key: CounterKey): string {
  return `${key.orgId}:${key.windowStart}:${key.holder}`;
}

/** One holder in one window, as this process knows it. */
interface WindowCount {
  readonly key: CounterDelta & { delta: 0 };
  /** The count PostgreSQL last answered with: every process's admissions as settled then. */
  settled: number;
  /** Admitted here and sent in the settle under way. */
  inFlight: number;
  /** Admitted here since the last settle was sent. */
  pending: number;
  limit: number;
  /** performance.now() when the statement `settled` came from was sent; -Infinity: never read. */
  observedAt: number;
  /** Asked about since the last settle was sent: the next settle refreshes `settled`. */
  asked: boolean;
  loading: Promise<void> | undefined;
}

/**
 * Counts requests per holder and hourly window in this process and settles with PostgreSQL at
 * most once per interval, so the hot path writes nothing: a decision is a comparison in memory.
 *
 * A holder's count here is `settled` (what PostgreSQL said, the other processes' admissions
 * included) plus what this process admitted since. The settle sends every holder asked about
 * since the last one in one statement: the admissions are added to the stored counts, and the
 * totals come back, which is how a process learns what the others admitted. A holder this
 * process has not heard about within two intervals (new to it, or idle here) is read from
 * PostgreSQL once before its request is decided, so a fresh process does not start at zero.
 * See README, "Request rate limits", for the overshoot this allows.
 */
export class RequestRateLimiter {
  private readonly counts = new Map<string, WindowCount>();
  private readonly intervalMs: number;
  private readonly timer: NodeJS.Timeout;
  private settling: Promise<void> | undefined;

  constructor(private readonly options: RateLimiterOptions) {
    this.intervalMs = options.settleIntervalMs ?? DEFAULT_SETTLE_INTERVAL_MS;
    this.timer = setInterval(() => void this.settle(), this.intervalMs);
    // A pending settle must not keep a process alive that has nothing else to do; stop() flushes it.
    this.timer.unref();
  }

  /** Counts one request of `holder` if it is within the limit; refused requests are not counted. */
  async decide(holder: HolderKey): Promise<RateDecision> {
    const now = this.options.clock();
    const window = hourWindowAt(now);
    const count = this.countOf(holder, window);
    count.asked = true;
    // Settled counts older than two intervals may lack a whole settle of the other processes'.
    if (performance.now() - count.observedAt > 2 * this.intervalMs) await this.observe(count);
    const used = count.settled + count.inFlight + count.pending;
    if (used >= count.limit) return { admitted: false, limit: count.limit, remaining: 0, window, now };
    count.pending += 1;
    return { admitted: true, limit: count.limit, remaining: count.limit - used - 1, window, now };
  }

  /** Stops settling on a timer, and settles what is pending: the server is closing. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.settle();
    // Requests admitted while that settle was under way.
    await this.settle();
  }

  /** Settles now (tests and stop); one settle at a time, a call during one waits for it. */
  async settle(): Promise<void> {
    if (!this.settling) this.settling = this.settleOnce().finally(() => (this.settling = undefined));
    await this.settling;
  }

  private countOf(holder: HolderKey, window: HourWindow): WindowCount {
    const key = { orgId: holder.orgId, holder: holder.holder, windowStart: window.start, delta: 0 as const };
    let count = this.counts.get(idOf(key));
    if (!count) {
      count = { key, settled: 0, inFlight: 0, pending: 0, limit: this.options.perHour, observedAt: -Infinity, asked: false, loading: undefined };
      this.counts.set(idOf(key), count);
    }
    return count;
  }

  /** Reads the holder's count; concurrent requests of one holder wait for the same read. */
  private observe(count: WindowCount): Promise<void> {
    if (!count.loading) {
      const sent = performance.now();
      count.loading = readCount(this.options.sql, count.key)
        .then((row) => this.apply(count, { ...count.key, ...row }, sent))
        .finally(() => (count.loading = undefined));
    }
    return count.loading;
  }

  /**
   * Takes an answer of PostgreSQL's. Stored counts only grow within a window, so a larger one is
   * the newer; an answer overtaken by another (a read crossing a settle) cannot lower the count.
   */
  private apply(count: WindowCount, row: CounterRow, sent: number): void {
    count.settled = Math.max(count.settled, row.count);
    count.limit = row.orgLimit ?? this.options.perHour;
    count.observedAt = Math.max(count.observedAt, sent);
  }

  private async settleOnce(): Promise<void> {
    this.forgetEndedWindows();
    const batch = [...this.counts.values()].filter((c) => c.asked || c.pending > 0);
    if (!batch.length) return;
    for (const count of batch) {
      count.inFlight = count.pending;
      count.pending = 0;
      count.asked = false;
    }
    const sent = performance.now();
    try {
      const rows = await settleCounts(
        this.options.sql,
        batch.map((c) => ({ ...c.key, delta: c.inFlight })),
      );
      const byKey = new Map(rows.map((r) => [idOf(r), r]));
      for (const count of batch) {
        const row = byKey.get(idOf(count.key));
        // No row: the org is gone. The admissions stay counted here for the rest of the window.
        if (row) this.apply(count, row, sent);
        else count.settled += count.inFlight;
        count.inFlight = 0;
      }
    } catch (error) {
      // Nothing was added: what was in flight is pending again, for the next settle.
      for (const count of batch) {
        count.pending += count.inFlight;
        count.inFlight = 0;
        count.asked = true;
      }
      this.options.log.warn({ err: error, holders: batch.length }, 'rate limit counts not settled');
    }
  }

  /** Windows that have ended, with nothing left to settle and no request waiting on them. */
  private forgetEndedWindows(): void {
    const current = hourWindowAt(this.options.clock()).start;
    for (const [id, count] of this.counts) {
      if (count.key.windowStart < current && count.pending === 0 && count.inFlight === 0 && !count.asked && !count.loading) this.counts.delete(id);
    }
  }
}
