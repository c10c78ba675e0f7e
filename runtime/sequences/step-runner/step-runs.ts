import type { Transaction } from '../../tenancy/index.js';
import type { DueStep } from './due-steps.js';

/**
 * The sequence_step_runs table (tables.ts): which states have run which steps. A step is run by
 * the transaction that writes its row, so a runner that runs twice (a worker killed after its
 * commit, before graphile-worker heard of it), or two rows for one step, run it once.
 */

const runKey = (stateId: number, stepId: number) => `${stateId}:${stepId}`;

/** Claims these steps for this run, one statement; the keys `state:step` of those no run before this one claimed. */
export async function claimStepRuns(tx: Transaction, orgId: number, steps: readonly DueStep[], ranAt: Date): Promise<Set<string>> {
  if (steps.length === 0) return new Set();
  const rows = await tx.unsafe<{ state: string; step: string }[]>(
    `insert into sequence_step_runs (org_id, sequence_state_id, sequence_step_id, due_at, ran_at)
     select $1, r.state, r.step, r.due_at, $5 from unnest($2::bigint[], $3::bigint[], $4::timestamptz[]) as r(state, step, due_at)
     on conflict do nothing
     returning sequence_state_id as state, sequence_step_id as step`,
    [orgId, steps.map((s) => s.stateId), steps.map((s) => s.stepId), steps.map((s) => s.dueAt.toISOString()), ranAt.toISOString()] as never[],
    { prepare: true },
  );
  return new Set(rows.map((r) => runKey(Number(r.state), Number(r.step))));
}

/** Whether `keys` (claimStepRuns's or ranSteps's answer) holds this state's step. */
export function includesStep(keys: ReadonlySet<string>, step: Pick<DueStep, 'stateId' | 'stepId'>): boolean {
  return keys.has(runKey(step.stateId, step.stepId));
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
  return new Set(rows.map((r) => runKey(Number(r.state), Number(r.step))));
}
