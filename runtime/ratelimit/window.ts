/**
 * The rate limit's windows: fixed clock hours. Every API process computes the same window from
 * the same instant, so their counts for a holder land in the same row whichever serves it.
 */

export const WINDOW_SECONDS = 3600;

export interface HourWindow {
  /** Epoch seconds of the window's first instant. */
  readonly start: number;
  /** Epoch seconds of the instant the next window starts: X-RateLimit-Reset. */
  readonly end: number;
}

export function hourWindowAt(now: Date): HourWindow {
  const start = Math.floor(now.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  return { start, end: start + WINDOW_SECONDS };
}

/** Whole seconds from `now` until the window ends, at least 1: a Retry-After. */
export function secondsUntilEnd(window: HourWindow, now: Date): number {
  return Math.max(1, Math.ceil(window.end - now.getTime() / 1000));
}
