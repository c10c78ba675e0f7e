import type { Transaction } from '../tenancy/index.js';

/** The sequence_step_runs table (tables.ts): which states have run which steps. */

/** Claims a state's step for this run; false when a run before this one claimed it. */
export async function claimStepRun(tx: Transaction, orgId: number, stateId: number, stepId: number, dueAt: Date, ranAt: Date): Promise<boolean> {
  const claimed = await tx.unsafe(
    `insert into sequence_step_runs (org_id, sequence_state_id, sequence_step_id, due_at, ran_at) values ($1, $2, $3, $4, $5)
     on conflict do nothing returning 1`,
    [orgId, stateId, stepId, dueAt.toISOString(), ranAt.toISOString()] as never[],
    { prepare: true },
  );
  return claimed.length > 0;
}

/** Of these (state, step) pairs, the keys `state:step` of those whose step has run. */
export async function ranSteps(tx: Transaction, orgId: number, pairs: readonly { stateId: number; stepId: number }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await tx.unsafe<{ state: string; step: string }[]>(
    `select r.sequence_state_id as state, r.sequence_step_id as step from sequence_step_runs r
       join unnest($2::bigint[], $3::bigint[]) as p(state, step) on r.sequence_state_id = p.state and r.sequence_step_id = p.step
      where r.org_id = $1`,
    [orgId, pairs.map((p) => p.stateId), pairs.map((p) => p.stepId)] as never[],
    { prepare: true },
  );
  return new Set(rows.map((r) => `${r.state}:${r.step}`));
}
