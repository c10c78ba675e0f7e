import { enqueueJobs, runAtAfter, type JobSpec } from '../../jobs/enqueue.js';
import type { Transaction } from '../../tenancy/index.js';

/**
 * The sends to make are rows, not jobs: mailing_sends (../tables.ts) has one per mailing that is
 * `scheduled` or `delivering`, with when it is due. What runs them is a `send_mailings` job per
 * org and due second (`send_mailings:<org>:<epoch second>`, run-at that second), which claims
 * the org's due rows in bounded sets (set-sender.ts): 10,000 mailings due at one instant are one
 * job and a few follow-ups, not 10,000 jobs. Scheduling again (a retry, a hold to the next day, a
 * new scheduledAt) moves the row's due time and adds the job for it; a mailing that leaves
 * `scheduled` loses its row, and a job that finds nothing due does nothing. Nothing waits in a
 * process.
 */

export const SEND_MAILINGS_TASK = 'send_mailings';

/**
 * The job of the design before sets: one per mailing, keyed `send_mailing:<org>:<mailing>`
 * (migration 0025 cancels them). A deployment may still hold pending ones; each runs its org's
 * set sender (set-sender.ts), so they go the new way.
 */
export const SEND_MAILING_TASK = 'send_mailing';

/** Sequence steps (0) run before sends; webhook deliveries (10) after them. */
export const SEND_PRIORITY = 5;

export interface SenderJobPayload {
  readonly orgId: number;
}

/** A pending `send_mailing` job's payload. */
export interface LegacySendJobPayload {
  readonly orgId: number;
  readonly mailingId: number;
}

export interface DueSend {
  readonly mailingId: number;
  readonly dueAt: Date;
}

/** The first whole second at or after `at`: a job at that second finds everything due by it. */
function secondOf(at: Date): number {
  return Math.ceil(at.getTime() / 1000);
}

/** The job key of an org's sender for one due second. */
export function senderJobKey(orgId: number, second: number): string {
  return `${SEND_MAILINGS_TASK}:${orgId}:${second}`;
}

/** One sender job per distinct due second: many sends due at one instant share one job. */
function senderJobs(orgId: number, times: readonly Date[]): JobSpec[] {
  const seconds = [...new Set(times.map(secondOf))].sort((a, b) => a - b);
  return seconds.map((second) => ({
    task: SEND_MAILINGS_TASK,
    payload: { orgId } satisfies SenderJobPayload,
    jobKey: senderJobKey(orgId, second),
    runAt: new Date(second * 1000),
    priority: SEND_PRIORITY,
  }));
}

/**
 * Another sender for the org, to run at once, for the due rows a full set left behind: its own
 * key (the claiming job's id and attempt), so that it never replaces a job that is running.
 */
export async function enqueueFollowUpSender(tx: Transaction, orgId: number, claimingJobId: number, attempt: number): Promise<void> {
  await enqueueJobs(tx, [
    {
      task: SEND_MAILINGS_TASK,
      payload: { orgId } satisfies SenderJobPayload,
      jobKey: `${SEND_MAILINGS_TASK}:${orgId}:after:${claimingJobId}:${attempt}`,
      priority: SEND_PRIORITY,
    },
  ]);
}

/** How long after a claim skipped due rows another transaction held the org's sender looks at them again. */
export const SKIPPED_RECHECK_MS = 5_000;

/**
 * A sender for the org a few seconds from now (by the database's clock), for due rows a claim
 * skipped because another transaction held them (set-claim.ts says why that transaction may be
 * a dead worker's). One per org (`send_mailings:<org>:skipped`): claims that skip rows at once
 * share it, each moving it to their own time.
 */
export async function enqueueSkippedSender(tx: Transaction, orgId: number): Promise<void> {
  await enqueueLaterSender(tx, orgId, 'skipped', SKIPPED_RECHECK_MS);
}

/** How long after seeing another job's sends in flight the org's sender looks at them again. */
export const RECHECK_AFTER_MS = 60_000;

/**
 * A sender for the org a minute from now (by the database's clock, graphile-worker's), for sends
 * in flight in another job: if that job dies and is not run again (a job whose key a new one
 * took over while it ran is not retried), this run settles what it left `delivering`.
 */
export async function enqueueRecheckSender(tx: Transaction, orgId: number): Promise<void> {
  await enqueueLaterSender(tx, orgId, 'recheck', RECHECK_AFTER_MS);
}

/** The org's sender keyed `send_mailings:<org>:<name>`, `ms` from now by the database's clock: a later one under the key moves it. */
async function enqueueLaterSender(tx: Transaction, orgId: number, name: string, ms: number): Promise<void> {
  await enqueueJobs(tx, [
    {
      task: SEND_MAILINGS_TASK,
      payload: { orgId } satisfies SenderJobPayload,
      jobKey: `${SEND_MAILINGS_TASK}:${orgId}:${name}`,
      runAt: await runAtAfter(tx, ms),
      priority: SEND_PRIORITY,
    },
  ]);
}

/** Makes these sends due at their times (a new row, or the row's new time, unclaimed) with their sender jobs: two statements for the set. */
export async function scheduleSends(tx: Transaction, orgId: number, due: readonly DueSend[]): Promise<void> {
  if (due.length === 0) return;
  await tx.unsafe(
    `insert into mailing_sends (org_id, mailing_id, due_at, claimed_by)
     select $1, m, d, null from unnest($2::bigint[], $3::timestamptz[]) as s(m, d)
     on conflict (org_id, mailing_id) do update set due_at = excluded.due_at, claimed_by = null`,
    [orgId, due.map((d) => d.mailingId), due.map((d) => d.dueAt.toISOString())] as never[],
    { prepare: true },
  );
  await enqueueJobs(
    tx,
    senderJobs(
      orgId,
      due.map((d) => d.dueAt),
    ),
  );
}

/** Removes the sends of these mailings (sent, failed, drafted again). */
export async function unscheduleSends(tx: Transaction, orgId: number, mailingIds: readonly number[]): Promise<void> {
  if (mailingIds.length === 0) return;
  await tx.unsafe('delete from mailing_sends where org_id = $1 and mailing_id = any($2::bigint[])', [orgId, mailingIds] as never[], { prepare: true });
}

/** When a scheduled mailing is due: its retry time after a temporary failure, else scheduledAt, else now. */
export function sendDueAt(mailing: Readonly<Record<string, unknown>>, now: Date): Date {
  const at = mailing.retryAt ?? mailing.scheduledAt;
  return typeof at === 'string' ? new Date(at) : now;
}

/** The start of the next UTC day after `now`: when a mailing held back by a mailbox's limits is tried again. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
