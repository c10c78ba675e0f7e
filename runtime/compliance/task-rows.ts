import type { Transaction } from '../tenancy/index.js';

/**
 * compliance_request_tasks, read and written here only (schema/complianceRequestTask.json
 * serves them read-only). Tasks are the request's bookkeeping, not records a client writes, so
 * they change with plain statements and no events; the request itself changes through the
 * writer, with its `updated` events.
 */

export type TaskState = 'pending' | 'queued' | 'running' | 'done' | 'temporary_failure';

/** Phase 1 deletes the prospects; phase 2 scrubs what is left, the destroyed events of phase 1 included. */
export const PROSPECT_PHASE = 1;
export const TRACE_PHASE = 2;

/** The kind of a phase-1 task; phase-2 kinds are the erasure steps' (runtime/compliance/erasure). */
export const PROSPECT_KIND = 'prospect';

export interface TaskRow {
  readonly id: number;
  readonly requestId: number;
  readonly kind: string;
  readonly phase: number;
  readonly prospectId: number | null;
  readonly state: TaskState;
  readonly attempts: number;
}

export interface NewTask {
  readonly kind: string;
  readonly phase: number;
  readonly prospectId: number | null;
  readonly state: 'pending' | 'queued';
}

/** Inserts a request's tasks with one statement; their ids, in the order given. */
export async function insertTasks(tx: Transaction, orgId: number, requestId: number, tasks: readonly NewTask[], now: Date): Promise<number[]> {
  if (tasks.length === 0) return [];
  const rows = await tx.unsafe<{ id: string }[]>(
    `insert into compliance_request_tasks (org_id, compliance_request_id, kind, phase, prospect_id, state, attempts, created_at, updated_at)
     select $1, $2, t.kind, t.phase, t.prospect_id, t.state, 0, $7, $7
       from unnest($3::text[], $4::int[], $5::int[], $6::text[]) with ordinality as t(kind, phase, prospect_id, state, n)
      order by t.n
     returning id`,
    [orgId, requestId, tasks.map((t) => t.kind), tasks.map((t) => t.phase), tasks.map((t) => t.prospectId), tasks.map((t) => t.state), now.toISOString()] as never[],
    { prepare: true },
  );
  return rows.map((r) => Number(r.id));
}

/** The task, locked until the transaction ends: two runs of one task take turns. */
export async function lockTask(tx: Transaction, orgId: number, taskId: number): Promise<TaskRow | undefined> {
  const [row] = await tx.unsafe<
    { id: string; compliance_request_id: string; kind: string; phase: number; prospect_id: number | null; state: TaskState; attempts: number | null }[]
  >(
    `select id, compliance_request_id, kind, phase, prospect_id, state, attempts from compliance_request_tasks where org_id = $1 and id = $2 for update`,
    [orgId, taskId] as never[],
    { prepare: true },
  );
  if (!row) return undefined;
  return {
    id: Number(row.id),
    requestId: Number(row.compliance_request_id),
    kind: row.kind,
    phase: row.phase,
    prospectId: row.prospect_id,
    state: row.state,
    attempts: row.attempts ?? 0,
  };
}

/** Moves tasks to `state`; a task done, or running again, has no error or next attempt to show. */
export async function setTaskState(tx: Transaction, orgId: number, taskIds: readonly number[], state: TaskState, now: Date): Promise<void> {
  if (taskIds.length === 0) return;
  await tx.unsafe(
    `update compliance_request_tasks set state = $3, updated_at = $4,
            last_error = case when $3 = 'done' then null else last_error end, next_attempt_at = null
      where org_id = $1 and id = any($2::bigint[])`,
    [orgId, taskIds, state, now.toISOString()] as never[],
    { prepare: true },
  );
}

/** A failed run: counted, its error kept, and when the next one is. */
export async function recordFailure(tx: Transaction, orgId: number, taskId: number, error: string, nextAttemptAt: Date, now: Date): Promise<number> {
  const [row] = await tx.unsafe<{ attempts: number }[]>(
    `update compliance_request_tasks
        set state = 'temporary_failure', attempts = coalesce(attempts, 0) + 1, last_error = $3, next_attempt_at = $4, updated_at = $5
      where org_id = $1 and id = $2
      returning attempts`,
    [orgId, taskId, error, nextAttemptAt.toISOString(), now.toISOString()] as never[],
    { prepare: true },
  );
  return row?.attempts ?? 0;
}

/**
 * Whether a task of the request's phase is not done yet: one probe of the state index, that
 * stops at the first such task. Each task that finishes asks it first, so a request with many
 * prospect tasks does not count all of them after each one (a cost growing with their square).
 */
export async function hasUnfinishedTask(tx: Transaction, orgId: number, requestId: number, phase: number): Promise<boolean> {
  const [row] = await tx.unsafe<{ unfinished: boolean }[]>(
    `select exists (select 1 from compliance_request_tasks
                     where org_id = $1 and state in ('pending', 'queued', 'running', 'temporary_failure')
                       and compliance_request_id = $2 and phase = $3) as unfinished`,
    [orgId, requestId, phase] as never[],
    { prepare: true },
  );
  return row?.unfinished ?? false;
}

/** Per phase, a request's tasks: how many, which are pending, how many not done. What decides the next step. */
export async function remainingTasks(
  tx: Transaction,
  orgId: number,
  requestId: number,
): Promise<{ phase: number; total: number; pending: number[]; unfinished: number }[]> {
  const rows = await tx.unsafe<{ phase: number; total: number; pending: string[]; unfinished: number }[]>(
    `select phase, count(*)::int as total, coalesce(array_agg(id order by id) filter (where state = 'pending'), '{}') as pending,
            (count(*) filter (where state <> 'done'))::int as unfinished
       from compliance_request_tasks where org_id = $1 and compliance_request_id = $2 group by phase order by phase`,
    [orgId, requestId] as never[],
    { prepare: true },
  );
  return rows.map((r) => ({ phase: r.phase, total: r.total, pending: r.pending.map(Number), unfinished: r.unfinished }));
}
