/**
 * Worker liveness: each worker process's graphile-worker pool records here that it is alive.
 * graphile-worker itself only releases a job whose worker died once its lock is four hours old;
 * with these rows a live worker releases the jobs of a dead one within a minute (liveness.ts).
 * Outside row-level security, like the other cadence_system tables: jobs belong to no one org.
 */
import { integer, text } from 'drizzle-orm/pg-core';
import { cadenceSystem, timestampColumn } from '../db/system-tables.js';

export const workerHeartbeats = cadenceSystem.table('worker_heartbeats', {
  /** graphile-worker's pool id: what it writes into `locked_by` of the jobs the pool runs. */
  workerId: text('worker_id').primaryKey(),
  /** Where the process runs, for an operator asking which process a lock belongs to. */
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestampColumn('started_at').notNull().defaultNow(),
  /** The database's clock, never a worker's: one clock decides who is stale. */
  seenAt: timestampColumn('seen_at').notNull().defaultNow(),
});
