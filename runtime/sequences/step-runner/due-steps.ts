import type { Transaction } from '../../tenancy/index.js';
import { wakeRunnerAt } from './runner-jobs.js';

/**
 * The steps due to run, as rows of sequence_steps_due (tables.ts): one per sequence state at
 * most. Every statement here takes a whole set, whatever its size.
 */

export interface DueStep {
  readonly stateId: number;
  readonly stepId: number;
  readonly dueAt: Date;
}

/**
 * Schedules the steps: each state's row is written (replacing the step it was waiting for, if
 * any) and a runner job is enqueued for each distinct due instant, in the caller's transaction.
 */
export async function scheduleSteps(tx: Transaction, orgId: number, due: readonly DueStep[]): Promise<void> {
  const byState = lastPerState(due);
  if (byState.length === 0) return;
  await tx.unsafe(
    `insert into sequence_steps_due (org_id, sequence_state_id, sequence_step_id, due_at)
     select $1, d.state, d.step, d.due_at from unnest($2::bigint[], $3::bigint[], $4::timestamptz[]) as d(state, step, due_at)
     on conflict (org_id, sequence_state_id) do update set sequence_step_id = excluded.sequence_step_id, due_at = excluded.due_at`,
    [orgId, ...columnsOf(byState)] as never[],
    { prepare: true },
  );
  await wakeRunnerAt(
    tx,
    orgId,
    byState.map((d) => d.dueAt),
  );
}

/**
 * Schedules the steps of states that have none due: a state with a row keeps it. For step jobs
 * enqueued before the runner existed (legacy-step-task.ts), which a newer schedule supersedes.
 */
export async function scheduleUnlessDue(tx: Transaction, orgId: number, due: readonly DueStep[]): Promise<void> {
  const byState = lastPerState(due);
  if (byState.length === 0) return;
  const added = await tx.unsafe<{ due_at: Date }[]>(
    `insert into sequence_steps_due (org_id, sequence_state_id, sequence_step_id, due_at)
     select $1, d.state, d.step, d.due_at from unnest($2::bigint[], $3::bigint[], $4::timestamptz[]) as d(state, step, due_at)
     on conflict (org_id, sequence_state_id) do nothing returning due_at`,
    [orgId, ...columnsOf(byState)] as never[],
    { prepare: true },
  );
  await wakeRunnerAt(
    tx,
    orgId,
    added.map((r) => r.due_at),
  );
}

/** Removes the due steps of these states (paused, finished, disabled, failed). */
export async function cancelSteps(tx: Transaction, orgId: number, stateIds: readonly number[]): Promise<void> {
  if (stateIds.length === 0) return;
  await tx.unsafe('delete from sequence_steps_due where org_id = $1 and sequence_state_id = any($2::bigint[])', [orgId, stateIds] as never[], { prepare: true });
}

/**
 * Claims up to `limit` of the org's steps due by `horizon`, earliest first, and deletes their
 * rows: they run in this transaction or, if it rolls back, stay due. Each row's state is locked
 * with it, so that what the step reads of its state holds until it commits. SKIP LOCKED on both:
 * runners beside this one claim other rows, and a state some other transaction is writing (a
 * pause, a bulk action's chunk) is left for a later runner instead of waited for: this one
 * never waits on a lock while holding its set's, so it cannot deadlock with the writes of the
 * API, which lock a state before its due row. (A due row whose state was skipped stays locked
 * by this transaction, not deleted: it is due again once this one ends.)
 *
 * Each step of the statement reaches its rows by key (`= any(array(...))`), never by a join:
 * with a young org's statistics (a table analyzed when it had none of the org's rows) the
 * planner took both sides of a join for one row and chose nested loops over the org's whole
 * index, 500 x 1,000 comparisons a claim, seconds per set in the benchmark.
 */
export async function claimDueSteps(tx: Transaction, orgId: number, horizon: Date, limit: number): Promise<DueStep[]> {
  const rows = await tx.unsafe<{ state: string; step: string; due_at: Date }[]>(
    `with due as (
       select sequence_state_id from sequence_steps_due
        where org_id = $1 and due_at <= $2
        order by due_at, sequence_state_id
        limit $3
          for update skip locked),
     states as (
       select id from sequence_states
        where org_id = $1 and id = any(array(select sequence_state_id from due))
          for no key update skip locked)
     delete from sequence_steps_due
      where org_id = $1 and sequence_state_id = any(array(select id from states))
     returning sequence_state_id as state, sequence_step_id as step, due_at`,
    [orgId, horizon.toISOString(), limit] as never[],
    { prepare: true },
  );
  return rows
    .map((r) => ({ stateId: Number(r.state), stepId: Number(r.step), dueAt: r.due_at }))
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.stateId - b.stateId);
}

/** How many of the org's steps are due by `horizon`, counting no further than `upTo`. */
export async function dueCount(tx: Transaction, orgId: number, horizon: Date, upTo: number): Promise<number> {
  const [row] = await tx.unsafe<{ n: number }[]>(
    'select count(*)::int as n from (select 1 from sequence_steps_due where org_id = $1 and due_at <= $2 limit $3) due',
    [orgId, horizon.toISOString(), upTo] as never[],
    { prepare: true },
  );
  return row?.n ?? 0;
}

function lastPerState(due: readonly DueStep[]): DueStep[] {
  return [...new Map(due.map((d) => [d.stateId, d])).values()];
}

function columnsOf(due: readonly DueStep[]): [number[], number[], string[]] {
  return [due.map((d) => d.stateId), due.map((d) => d.stepId), due.map((d) => d.dueAt.toISOString())];
}
