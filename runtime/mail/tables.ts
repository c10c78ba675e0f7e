/**
 * The local transport's mailbox (runtime/mail/sending/transports.ts): with no SMTP server
 * configured, every message Cadence sends is kept here whole, as the MIME bytes an SMTP server
 * would have received, so nothing is lost and operators can read it (`cadence mail list|show`).
 * Tenant table like the resources (org_id in every key, row-level security).
 */
import { sql } from 'drizzle-orm';
import { bigint, foreignKey, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { mailings } from '../../generated/db/index.js';
import { orgs, timestampColumn } from '../db/system-tables.js';

export const mailMessages = pgTable(
  'mail_messages',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    id: bigint('id', { mode: 'number' }).generatedByDefaultAsIdentity().notNull(),
    /** The mailing sent, when the message is one (a test message or an invitation is not). */
    mailingId: bigint('mailing_id', { mode: 'number' }),
    /** The envelope: who it is from and to, as SMTP would have been told. */
    envelopeFrom: text('envelope_from').notNull(),
    envelopeTo: text('envelope_to').array().notNull(),
    /** The Message-ID header, angle brackets included. */
    messageId: text('message_id').notNull(),
    subject: text('subject'),
    /** The whole message, headers and body, as RFC 5322 text. */
    raw: text('raw').notNull(),
    /** When it was stored, by the service's clock. */
    storedAt: timestampColumn('stored_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'mail_messages_pkey', columns: [t.orgId, t.id] }),
    index('mail_messages_stored_at_idx').on(t.orgId, t.storedAt),
    // The set sender asks, for a set of interrupted sends, which the local transport has stored.
    index('mail_messages_message_id_idx').on(t.orgId, t.messageId),
  ],
);

/**
 * The sends to make (runtime/mail/sending/set-sender.ts): one row per mailing that is
 * `scheduled` (due at its scheduledAt, retryAt, or the next UTC day when its mailbox held it)
 * or `delivering`. The mailing's afterWrite keeps the rows in step with its state; the sender
 * claims the due rows of an org in bounded sets (FOR UPDATE SKIP LOCKED). `claimedBy` is the
 * graphile-worker job that stored `delivering` and is handing the message to SMTP: while that
 * job is running, no other run touches the row; once it is not, a row still `delivering` is a
 * send that was interrupted. Goes with its mailing.
 */
export const mailingSends = pgTable(
  'mailing_sends',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    mailingId: bigint('mailing_id', { mode: 'number' }).notNull(),
    /** When the send is due, by the service's clock. */
    dueAt: timestampColumn('due_at').notNull(),
    claimedBy: bigint('claimed_by', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ name: 'mailing_sends_pkey', columns: [t.orgId, t.mailingId] }),
    // The sends waiting, by when they are due; and the ones being delivered, by who claimed them.
    index('mailing_sends_due_at_idx')
      .on(t.orgId, t.dueAt, t.mailingId)
      .where(sql`claimed_by is null`),
    index('mailing_sends_claimed_by_idx')
      .on(t.orgId, t.claimedBy)
      .where(sql`claimed_by is not null`),
    foreignKey({ name: 'mailing_sends_mailing_fk', columns: [t.orgId, t.mailingId], foreignColumns: [mailings.orgId, mailings.id] }).onDelete('cascade'),
  ],
);
