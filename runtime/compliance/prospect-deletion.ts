import type { WriteEffects } from '../engine/index.js';
import type { Transaction } from '../tenancy/index.js';
import type { ErasureSubject } from './erasure/step.js';

/** A prospect is deleted in one transaction of the task, through the writer's effects in it. */
export interface ProspectDeletionContext {
  readonly tx: Transaction;
  readonly subject: ErasureSubject;
  readonly effects: WriteEffects;
}

/**
 * The resources that hold a prospect's personal data, deleted with it through the writer (so
 * each gets its `destroyed` event and webhooks, as any delete does, and subscribers can delete
 * downstream). States go first, so no live state is left to finish when the prospect goes.
 */
export const TIED_TYPES = ['sequenceState', 'task', 'call', 'mailing', 'prospectNote', 'emailAddress', 'phoneNumber', 'recipient', 'opportunityProspectRole'] as const;

/** Deletes are written a thousand per set, as bulk jobs write them. */
const CHUNK = 1000;

/**
 * Phase 1 of a deletion request, one task per prospect: the prospect, the records tied to it
 * and the stored messages of its mailings. Run again (after a crash or a failure part-way, which
 * rolled back), it finds what is left and deletes that; a prospect already gone is done.
 */
export async function deleteProspectAndRecords({ tx, subject, effects }: ProspectDeletionContext, prospectId: number): Promise<void> {
  for (const type of TIED_TYPES) {
    const ids = (await effects.records.find(type, { prospect: [prospectId] })).map((row) => Number(row.id));
    if (type === 'mailing') await deleteStoredMessages(tx, subject.orgId, ids);
    await deleteRecords(effects, type, ids);
  }
  await deleteRecords(effects, 'prospect', [prospectId]);
}

/** The local transport's copies of the mailings, and the sync's record of replies to them: no resource, no event. */
async function deleteStoredMessages(tx: Transaction, orgId: number, mailingIds: readonly number[]): Promise<void> {
  if (mailingIds.length === 0) return;
  await tx.unsafe('delete from mail_messages where org_id = $1 and mailing_id = any($2::bigint[])', [orgId, mailingIds] as never[], { prepare: true });
  await tx.unsafe('delete from mail_sync_messages where org_id = $1 and mailing_id = any($2::bigint[])', [orgId, mailingIds] as never[], { prepare: true });
}

/** Deletes through the writer; a refusal fails the task (it is retried), a record already gone is fine. */
async function deleteRecords(effects: WriteEffects, type: string, ids: readonly number[]): Promise<void> {
  for (let start = 0; start < ids.length; start += CHUNK) {
    const outcomes = await effects.write(ids.slice(start, start + CHUNK).map((id) => ({ kind: 'delete', type, id }) as const));
    const refused = outcomes.find((o) => o.status === 'refused');
    if (refused?.status === 'refused') {
      throw new Error(`the ${type} could not be deleted: ${refused.error.errors.map((e) => e.detail ?? e.title).join('; ')}`);
    }
  }
}
