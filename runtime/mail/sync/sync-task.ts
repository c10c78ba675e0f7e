import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { enqueueJobs, type JobSpec } from '../../jobs/enqueue.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { imapFailureOf, imapSettingsOf, type ImapConnect, type InboxBatch } from './imap-client.js';
import { applyMessages } from './replies.js';
import { written } from './service-writes.js';

export const SYNC_MAILBOX_TASK = 'sync_mailbox';
export const SYNC_MAILBOXES_TASK = 'sync_mailboxes';

/** Seconds between syncs of a mailbox whose syncActiveFrequency is unset; the crontab looks every minute. */
export const DEFAULT_SYNC_FREQUENCY_SECONDS = 300;

/** Messages one run reads; a mailbox with more is synced again at once from where it stopped. */
const MESSAGES_PER_RUN = 500;

export interface MailSyncDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly clock: () => Date;
  readonly log: Logger;
  readonly connect: ImapConnect;
}

interface SyncPayload {
  readonly orgId: number;
  readonly mailboxId: number;
}

/** One mailbox's job: keyed, so a mailbox has one waiting at most, and queued, so its runs never overlap. */
export function syncJob(orgId: number, mailboxId: number): JobSpec {
  const name = `${SYNC_MAILBOX_TASK}:${orgId}:${mailboxId}`;
  return { task: SYNC_MAILBOX_TASK, payload: { orgId, mailboxId }, jobKey: name, queueName: name, maxAttempts: 3 };
}

/**
 * The crontab's fan-out, every minute: a sync job for each mailbox with an IMAP host, not
 * syncDisabled, whose last sync finished syncActiveFrequency seconds ago or more (by the
 * service's clock). Per org, because row-level security shows a transaction one org's rows.
 */
export function syncMailboxesTask(deps: Pick<MailSyncDependencies, 'sql' | 'clock'>): Task {
  return async () => {
    const orgs = await deps.sql<{ id: number }[]>`select id from cadence_system.orgs where deleted_at is null and locked_at is null`;
    const now = deps.clock().getTime();
    for (const { id: orgId } of orgs) {
      await orgScopedTransaction(deps.sql, orgId, async (tx) => {
        const mailboxes = await tx<{ id: number; finishedAt: Date | null; frequency: number | null }[]>`
          select id, sync_finished_at as "finishedAt", sync_active_frequency as frequency from mailboxes
           where org_id = ${orgId} and imap_host is not null and imap_host <> '' and sync_disabled is not true`;
        const due = mailboxes.filter((m) => !m.finishedAt || new Date(m.finishedAt).getTime() + frequencyMs(m.frequency) <= now);
        await enqueueJobs(
          tx,
          due.map((m) => syncJob(orgId, Number(m.id))),
        );
      });
    }
  };
}

function frequencyMs(seconds: number | null): number {
  return (seconds && seconds > 0 ? seconds : DEFAULT_SYNC_FREQUENCY_SECONDS) * 1000;
}

interface SyncTarget {
  readonly mailbox: Row;
  readonly since: { uidValidity: string; afterUid: number } | null;
}

/**
 * Syncs one mailbox's INBOX: reads the mailbox and how far it was read, reads the new messages
 * over IMAP with no transaction open, then in one transaction acts on them, moves the position
 * on and stamps syncSuccessAt and syncFinishedAt. A failed connection or login, or an imapHost
 * the address rule refuses (never connected to), stamps syncErroredAt instead, and is logged
 * with what failed (never the settings); the next turn of the crontab tries again. A run
 * repeated after its commit finds nothing new.
 */
export function syncMailboxTask(deps: MailSyncDependencies): Task {
  return async (payload) => {
    const job = payload as SyncPayload;
    const target = await syncTarget(deps, job);
    const settings = target && imapSettingsOf(target.mailbox);
    if (!target || !settings || target.mailbox.syncDisabled === true) return;
    let batch: InboxBatch;
    try {
      const session = await deps.connect(settings);
      try {
        batch = await session.readInbox(target.since, MESSAGES_PER_RUN);
      } finally {
        await session.logout();
      }
    } catch (error) {
      const failure = imapFailureOf(error);
      deps.log.warn({ orgId: job.orgId, mailboxId: job.mailboxId, kind: failure.kind, answer: failure.answer }, 'mailbox sync failed');
      await stampSyncError(deps, job);
      return;
    }
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
      const applied = await applyMessages(effects, job.mailboxId, batch.uidValidity, batch.messages);
      const lastUid = batch.messages.at(-1)?.uid ?? (target.since?.uidValidity === batch.uidValidity ? target.since.afterUid : 0);
      await tx`
        insert into mailbox_sync_states (org_id, mailbox_id, uid_validity, last_uid, synced_at)
        values (${job.orgId}, ${job.mailboxId}, ${batch.uidValidity}, ${lastUid}, ${effects.now.toISOString()})
        on conflict (org_id, mailbox_id) do update set uid_validity = excluded.uid_validity, last_uid = excluded.last_uid, synced_at = excluded.synced_at`;
      const now = effects.now.toISOString();
      await written(effects, [effects.update('mailbox', job.mailboxId, { syncSuccessAt: now, syncFinishedAt: now })]);
      if (batch.more) await enqueueJobs(tx, [syncJob(job.orgId, job.mailboxId)]);
      if (batch.messages.length > 0) deps.log.info({ orgId: job.orgId, mailboxId: job.mailboxId, read: batch.messages.length, ...applied }, 'mailbox synced');
    });
  };
}

async function syncTarget(deps: MailSyncDependencies, job: SyncPayload): Promise<SyncTarget | undefined> {
  return orgScopedTransaction(
    deps.sql,
    job.orgId,
    async (tx) => {
      const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
      const mailbox = (await effects.records.rows('mailbox', [job.mailboxId])).get(job.mailboxId);
      if (!mailbox) return undefined;
      const [position] = await tx<{ uidValidity: string; lastUid: string }[]>`
        select uid_validity as "uidValidity", last_uid as "lastUid" from mailbox_sync_states where org_id = ${job.orgId} and mailbox_id = ${job.mailboxId}`;
      return { mailbox, since: position ? { uidValidity: position.uidValidity, afterUid: Number(position.lastUid) } : null };
    },
    { readOnly: true },
  );
}

async function stampSyncError(deps: MailSyncDependencies, job: SyncPayload): Promise<void> {
  await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
    const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
    const now = effects.now.toISOString();
    await written(effects, [effects.update('mailbox', job.mailboxId, { syncErroredAt: now, syncFinishedAt: now })]);
  });
}
