/**
 * The steps the sequence automation has run: one row per sequence state and step, written in
 * the transaction that runs the step. A step runner that runs twice (a worker killed after its
 * commit, before graphile-worker heard of it) finds its row and does nothing: each step runs
 * exactly once. Tenant table like the resources (org_id in every key, row-level security).
 */
import { bigint, foreignKey, index, pgTable, primaryKey } from 'drizzle-orm/pg-core';
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

/**
 * The steps due to run: one row per sequence state waiting for its next step, and when that step
 * is due. Scheduling a state's step writes its row (replacing any), stopping the state deletes it,
 * and the step runner (step-runner/) claims the rows due by its clock in bounded sets, deleting
 * them in the transaction that runs their steps. A job per org and due instant wakes the runner;
 * the rows, not the jobs, say what is due, so any number of steps due at one instant are one job.
 */
export const sequenceStepsDue = pgTable(
  'sequence_steps_due',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    sequenceStateId: bigint('sequence_state_id', { mode: 'number' }).notNull(),
    sequenceStepId: bigint('sequence_step_id', { mode: 'number' }).notNull(),
    /** When the step is due, by the service's clock; it becomes sequence_step_runs.due_at. */
    dueAt: timestampColumn('due_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'sequence_steps_due_pkey', columns: [t.orgId, t.sequenceStateId] }),
    foreignKey({ name: 'sequence_steps_due_state_fk', columns: [t.orgId, t.sequenceStateId], foreignColumns: [sequenceStates.orgId, sequenceStates.id] }).onDelete(
      'cascade',
    ),
    // The runner claims an org's due rows earliest first.
    index('sequence_steps_due_due_at_idx').on(t.orgId, t.dueAt, t.sequenceStateId),
  ],
);
