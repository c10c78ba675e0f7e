/**
 * What mailbox sync remembers between runs. Tenant tables like the resources (org_id in every
 * key, row-level security from secure_tenant_tables()); both go with their mailbox.
 */
import { bigint, foreignKey, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { mailboxes } from '../../../generated/db/index.js';
import { orgs, timestampColumn } from '../../db/system-tables.js';

/**
 * How far each mailbox's INBOX has been read: the last UID seen under its UIDVALIDITY. A new
 * UIDVALIDITY (the server renumbered the folder) reads the folder again from the start; the
 * applied messages below keep that from counting a reply twice.
 */
export const mailboxSyncStates = pgTable(
  'mailbox_sync_states',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    mailboxId: bigint('mailbox_id', { mode: 'number' }).notNull(),
    /** IMAP UIDVALIDITY is an unsigned 32-bit number: text keeps it exact whatever the server sends. */
    uidValidity: text('uid_validity').notNull(),
    lastUid: bigint('last_uid', { mode: 'number' }).notNull(),
    syncedAt: timestampColumn('synced_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'mailbox_sync_states_pkey', columns: [t.orgId, t.mailboxId] }),
    foreignKey({ name: 'mailbox_sync_states_mailbox_fk', columns: [t.orgId, t.mailboxId], foreignColumns: [mailboxes.orgId, mailboxes.id] }).onDelete('cascade'),
  ],
);

/**
 * The messages sync has acted on, by their Message-ID (or mailbox, UIDVALIDITY and UID when a
 * message has none): a reply seen again (a job run twice, the same message in two mailboxes, a
 * folder renumbered) finds its row and counts once.
 */
export const mailSyncMessages = pgTable(
  'mail_sync_messages',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    messageKey: text('message_key').notNull(),
    mailboxId: bigint('mailbox_id', { mode: 'number' }).notNull(),
    /** The mailing the message answered. */
    mailingId: bigint('mailing_id', { mode: 'number' }).notNull(),
    /** `reply` or `auto_reply` (out of office). */
    kind: text('kind').notNull(),
    appliedAt: timestampColumn('applied_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'mail_sync_messages_pkey', columns: [t.orgId, t.messageKey] }),
    foreignKey({ name: 'mail_sync_messages_mailbox_fk', columns: [t.orgId, t.mailboxId], foreignColumns: [mailboxes.orgId, mailboxes.id] }).onDelete('cascade'),
  ],
);
