import type { WriteEffects } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { enterOrg, leaveOrg, type Transaction } from '../../tenancy/index.js';
import { enqueueFollowUpSender, enqueueSkippedSender, unscheduleSends } from './send-queue.js';

/**
 * The first step of a set send, in its first transaction: claim up to `limit` of the org's due
 * sends (mailing_sends, oldest first, FOR UPDATE SKIP LOCKED: rows another run is claiming are
 * not waited for) and lock their mailings in id order. A full set enqueues a follow-up sender
 * at once, so that a backlog is shared by every free slot of every worker.
 *
 * A set that is not full may have skipped due rows another transaction held. That one is usually
 * another run's claim, which sends them; but it may be the claim of a worker that died while it
 * waited on a lock. PostgreSQL notices the dead client only once that statement ends, so the
 * transaction lives on, holding the rows, and its job may never run again (a job whose key a newer
 * job took over while it ran is not retried). When it rolls back, the rows are due again with no
 * job left to send them. So a set that skipped rows leaves a sender behind for them
 * (enqueueSkippedSender), which does the same when it skips rows in turn.
 *
 * A row with `claimed_by` is a mailing stored `delivering` by that job, which then hands it to
 * SMTP with no transaction open. While the job runs (graphile-worker holds its lock), the send
 * is in flight and left alone. Once it does not (the worker died and its job was released, or
 * the job failed before recording the answer), the send was interrupted: the next run, the
 * job's own rerun or any other, claims the row and settles it (set-outcomes.ts).
 */

export interface ClaimedSet {
  /** `scheduled` mailings, in the order they fell due. */
  readonly scheduled: readonly Row[];
  /** `delivering` mailings whose send was interrupted. */
  readonly interrupted: readonly Row[];
  /** Whether other jobs have sends of the org in flight (see enqueueRecheckSender). */
  readonly othersInFlight: boolean;
}

interface ClaimedRow {
  readonly mailing_id: string;
}

/** The graphile-worker job claiming, and which of its attempts this is. */
export interface Claimant {
  readonly jobId: number;
  readonly attempt: number;
}

export async function claimDueSet(effects: WriteEffects, claimant: Claimant, limit: number): Promise<ClaimedSet> {
  const { jobId } = claimant;
  const { tx, orgId } = effects;
  const due = await tx.unsafe<ClaimedRow[]>(
    `select mailing_id from mailing_sends where org_id = $1 and claimed_by is null and due_at <= $2
      order by due_at, mailing_id limit $3 for update skip locked`,
    [orgId, effects.now.toISOString(), limit] as never[],
    { prepare: true },
  );
  const { abandoned, othersInFlight } = await claimAbandoned(tx, orgId, jobId, limit);
  const ids = [...due, ...abandoned].map((c) => Number(c.mailing_id));
  if (due.length === limit || abandoned.length === limit) await enqueueFollowUpSender(tx, orgId, jobId, claimant.attempt);
  else if (await skippedDueRows(effects, ids)) await enqueueSkippedSender(tx, orgId);
  if (ids.length === 0) return { scheduled: [], interrupted: [], othersInFlight };
  // Locked in id order, as set writes lock their rows, so that two never wait on each other.
  await tx.unsafe(`select 1 from mailings where org_id = $1 and id = any($2::bigint[]) order by id for no key update`, [orgId, ids] as never[], { prepare: true });
  const mailings = await effects.records.rows('mailing', ids);

  const scheduled: Row[] = [];
  const interrupted: Row[] = [];
  const stale: number[] = [];
  for (const id of ids) {
    const mailing = mailings.get(id);
    if (mailing?.state === 'scheduled') scheduled.push(mailing);
    // Unclaimed yet delivering: a send a deployment had under way when it moved to sets.
    else if (mailing?.state === 'delivering') interrupted.push(mailing);
    else stale.push(id);
  }
  // A row whose mailing left both states is not claimed again (the afterWrite removes such rows; this keeps a stray one from staying due forever).
  await unscheduleSends(tx, orgId, stale);
  return { scheduled, interrupted, othersInFlight };
}

/** Whether rows of the org are due, unclaimed, and not among `claimed`: rows this claim skipped as locked, or added since it began. */
async function skippedDueRows(effects: WriteEffects, claimed: readonly number[]): Promise<boolean> {
  const [row] = await effects.tx.unsafe<{ skipped: boolean }[]>(
    `select exists (select 1 from mailing_sends where org_id = $1 and claimed_by is null and due_at <= $2 and mailing_id <> all($3::bigint[])) as skipped`,
    [effects.orgId, effects.now.toISOString(), claimed] as never[],
    { prepare: true },
  );
  return row?.skipped === true;
}

/** Up to `limit` rows claimed by this job in an earlier attempt, or by a job that is no longer running. */
async function claimAbandoned(tx: Transaction, orgId: number, jobId: number, limit: number): Promise<{ abandoned: ClaimedRow[]; othersInFlight: boolean }> {
  const claimants = await tx.unsafe<{ claimed_by: string }[]>(`select distinct claimed_by from mailing_sends where org_id = $1 and claimed_by is not null`, [orgId], {
    prepare: true,
  });
  if (claimants.length === 0) return { abandoned: [], othersInFlight: false };
  const running = await runningJobs(
    tx,
    orgId,
    claimants.map((c) => Number(c.claimed_by)).filter((id) => id !== jobId),
  );
  const othersInFlight = running.size > 0;
  const gone = claimants.map((c) => Number(c.claimed_by)).filter((id) => !running.has(id));
  if (gone.length === 0) return { abandoned: [], othersInFlight };
  const abandoned = await tx.unsafe<ClaimedRow[]>(
    `select mailing_id from mailing_sends where org_id = $1 and claimed_by = any($2::bigint[])
      order by mailing_id limit $3 for update skip locked`,
    [orgId, gone, limit] as never[],
    { prepare: true },
  );
  return { abandoned, othersInFlight };
}

/**
 * Which of these graphile-worker jobs are running now (locked). The job queue is not a tenant
 * table: it is read as the worker's own role, and the transaction goes back to the org after.
 */
async function runningJobs(tx: Transaction, orgId: number, jobIds: readonly number[]): Promise<Set<number>> {
  if (jobIds.length === 0) return new Set();
  await leaveOrg(tx);
  const rows = await tx.unsafe<{ id: string }[]>(
    `select id from graphile_worker._private_jobs where id = any($1::bigint[]) and locked_at is not null`,
    [jobIds] as never[],
    {
      prepare: true,
    },
  );
  await enterOrg(tx, orgId);
  return new Set(rows.map((r) => Number(r.id)));
}
