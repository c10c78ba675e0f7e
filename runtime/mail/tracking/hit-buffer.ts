import type { Logger } from 'pino';
import type postgres from 'postgres';
import { appendHits, type TrackingHit } from './hit-store.js';

/** How long a hit waits in memory at most before its flush starts. */
export const DEFAULT_FLUSH_INTERVAL_MS = 250;
/** Hits that start a flush at once, and the most one flush appends. */
export const DEFAULT_FLUSH_HITS = 2000;
/**
 * Hits held while the database does not keep up: past this, new hits are dropped (and counted
 * in the log), so that an outage cannot grow the process without bound.
 */
export const DEFAULT_MAX_PENDING_HITS = 100_000;

export interface HitBufferOptions {
  readonly sql: postgres.Sql;
  readonly log: Logger;
  readonly flushIntervalMs?: number;
  readonly flushHits?: number;
  readonly maxPendingHits?: number;
}

/**
 * Opens and clicks as the API answers them, appended to tracking_hits a few times a second
 * with one statement per flush (hit-store.ts), whatever their orgs and mailings: a pixel or a
 * link is answered from memory, and no hit waits on another's row lock. A flush starts
 * `flushIntervalMs` after the first hit it holds, or at once when `flushHits` are waiting; one
 * flush at a time, the next taking whatever came meanwhile. The fold (hit-fold.ts) counts them.
 *
 * The loss window (README, Tracking): hits still in memory when the process dies uncleanly
 * (SIGKILL, a crash, the machine lost), at most about `flushIntervalMs` of them, and the hits
 * of a flush the database refuses, are lost. A lost hit is a lost count, no more: the recipient
 * had their pixel or redirect. stop() flushes what is held, for a clean shutdown.
 */
export class HitBuffer {
  private pending: TrackingHit[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private dropped = 0;
  private inFlight = 0;
  private readonly intervalMs: number;
  private readonly flushHits: number;
  private readonly maxPending: number;

  constructor(private readonly options: HitBufferOptions) {
    this.intervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.flushHits = options.flushHits ?? DEFAULT_FLUSH_HITS;
    this.maxPending = options.maxPendingHits ?? DEFAULT_MAX_PENDING_HITS;
  }

  /** Holds a hit for the next flush; never waits, never throws. */
  add(hit: TrackingHit): void {
    if (this.pending.length >= this.maxPending) {
      this.dropped++;
      return;
    }
    this.pending.push(hit);
    if (this.pending.length >= this.flushHits) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(this.flushOnTimer, this.intervalMs);
      // A pending flush must not keep a process alive that has nothing else to do; stop() flushes it.
      this.timer.unref();
    }
  }

  /**
   * The timer is forgotten as it fires, even when a flush is under way (which takes the hits
   * it was set for): a fired timer still remembered would keep add() from setting the next, and
   * hits would wait for the size bound, or forever at the end of a burst.
   */
  private readonly flushOnTimer = (): void => {
    this.timer = undefined;
    void this.flush();
  };

  /** Hits held and not yet appended (those of a flush under way included). */
  holding(): number {
    return this.pending.length + this.inFlight;
  }

  /** Flushes what is held now and whatever arrives while it is written; resolves when all of it is. */
  async flush(): Promise<void> {
    if (!this.flushing) this.flushing = this.flushAll().finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  /** Writes what is held: the server is closing, and no request will add more. */
  async stop(): Promise<void> {
    await this.flush();
  }

  private async flushAll(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.flushHits);
      this.inFlight = batch.length;
      try {
        await appendHits(this.options.sql, batch);
      } catch (error) {
        // Not retried: a COMMIT whose answer was lost may have appended them, and a count
        // twice is worse than a count lost.
        this.options.log.error({ err: error, hits: batch.length }, 'tracking hits lost: their append failed');
      } finally {
        this.inFlight = 0;
      }
    }
    if (this.dropped > 0) {
      this.options.log.error({ hits: this.dropped }, 'tracking hits lost: more were waiting than the buffer holds');
      this.dropped = 0;
    }
  }
}
