import { enqueueJobs } from '../../jobs/enqueue.js';
import type { Transaction } from '../../tenancy/index.js';

/**
 * Every scheduled mailing has one graphile-worker job, `send_mailing`, at its run-at time under
 * a key of its own (`send_mailing:<org>:<mailing>`): scheduling it again (a retry, a mailing held
 * to the next day, a new scheduledAt) replaces the pending job, and a mailing that leaves
 * `scheduled` loses it. Nothing waits in a process.
 */

export const SEND_MAILING_TASK = 'send_mailing';

export interface SendJobPayload {
  readonly orgId: number;
  readonly mailingId: number;
}

export interface DueSend {
  readonly mailingId: number;
  readonly runAt: Date;
}

/** The job key of a mailing's pending send; migration 0025 builds the same to cancel it. */
export function sendJobKey(orgId: number, mailingId: number): string {
  return `${SEND_MAILING_TASK}:${orgId}:${mailingId}`;
}

/** Schedules the sends, one statement for the set, in the caller's transaction. */
export async function scheduleSends(tx: Transaction, orgId: number, due: readonly DueSend[]): Promise<void> {
  await enqueueJobs(
    tx,
    due.map((d) => ({
      task: SEND_MAILING_TASK,
      payload: { orgId, mailingId: d.mailingId } satisfies SendJobPayload,
      jobKey: sendJobKey(orgId, d.mailingId),
      runAt: d.runAt,
    })),
  );
}

/** Removes the pending send jobs of these mailings (deleted, drafted again). */
export async function cancelSends(tx: Transaction, mailingIds: readonly number[]): Promise<void> {
  if (mailingIds.length === 0) return;
  await tx.unsafe('select cadence_system.remove_send_mailing_jobs($1::bigint[])', [mailingIds] as never[], { prepare: true });
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
