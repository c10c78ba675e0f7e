/**
 * The request counters of the rate limit (runtime/ratelimit): how many requests each token
 * holder made in each hourly window, as settled by the API processes. In `cadence_system`, outside
 * row-level security, because one settle statement writes the counters of many orgs at once;
 * `org_id` leads the key, so on Citus the table can be distributed by org like everything else.
 */
import { bigint, index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { cadenceSystem, orgs, timestampColumn } from '../db/system-tables.js';

export const requestCounts = cadenceSystem.table(
  'request_counts',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** `user:<id>`, or `app:<guid>` for an application acting alone in the org. */
    holder: text('holder').notNull(),
    /** The start of the hour the requests were made in. */
    windowStart: timestampColumn('window_start').notNull(),
    /** Requests admitted in the window by every API process, as far as they have settled. */
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ name: 'request_counts_pkey', columns: [t.orgId, t.holder, t.windowStart] }), index('request_counts_window_start_idx').on(t.windowStart)],
);
