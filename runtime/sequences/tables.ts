/**
 * The steps the sequence automation has run: one row per sequence state and step, written in
 * the transaction that runs the step. A step job that runs twice (a worker killed after its
 * commit, before graphile-worker heard of it) finds its row and does nothing: each step runs
 * exactly once. Tenant table like the resources (org_id in every key, row-level security).
 */
import { bigint, foreignKey, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { sequenceStates } from '../../generated/db/index.js';
import { orgs, timestampColumn } from '../db/system-tables.js';

export const sequenceStepRuns = pgTable(
  'sequence_step_runs',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    sequenceStateId: bigint('sequence_state_id', { mode: 'number' }).notNull(),
    sequenceStepId: bigint('sequence_step_id', { mode: 'number' }).notNull(),
    /** When the step was due (its job's run-at), by the service's clock. */
    dueAt: timestampColumn('due_at').notNull(),
    /** When it ran, by the same clock: its lateness is ran_at - due_at. */
    ranAt: timestampColumn('ran_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'sequence_step_runs_pkey', columns: [t.orgId, t.sequenceStateId, t.sequenceStepId] }),
    // A state's runs go with it.
    foreignKey({ name: 'sequence_step_runs_state_fk', columns: [t.orgId, t.sequenceStateId], foreignColumns: [sequenceStates.orgId, sequenceStates.id] }).onDelete(
      'cascade',
    ),
  ],
);
