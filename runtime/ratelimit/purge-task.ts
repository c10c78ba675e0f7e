import type { Task } from 'graphile-worker';
import type postgres from 'postgres';
import { WINDOW_SECONDS } from './window.js';

export const PURGE_REQUEST_COUNTS_TASK = 'purge_request_counts';

/** Hourly, a few minutes past the hour: by then every process has settled the window that ended. */
export const RATE_LIMIT_CRONTAB = `7 * * * * ${PURGE_REQUEST_COUNTS_TASK}`;

/**
 * Deletes the counters of windows that ended more than a window ago. The one before the current
 * is kept: a process may still be settling its last requests of it, and an upsert after a
 * delete would only start the ended window over, harmlessly, but uselessly.
 */
export function purgeRequestCountsTask(deps: { sql: postgres.Sql; clock: () => Date }): Task {
  return async () => {
    const cutoffSeconds = Math.floor(deps.clock().getTime() / 1000) - 2 * WINDOW_SECONDS;
    await deps.sql`delete from cadence_system.request_counts where window_start < to_timestamp(${cutoffSeconds})`;
  };
}
