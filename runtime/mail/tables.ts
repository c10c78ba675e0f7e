/**
 * The local transport's mailbox (runtime/mail/sending/transports.ts): with no SMTP server
 * configured, every message Cadence sends is kept here whole, as the MIME bytes an SMTP server
 * would have received, so nothing is lost and operators can read it (`cadence mail list|show`).
 * Tenant table like the resources (org_id in every key, row-level security).
 */
import { bigint, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
  (t) => [primaryKey({ name: 'mail_messages_pkey', columns: [t.orgId, t.id] }), index('mail_messages_stored_at_idx').on(t.orgId, t.storedAt)],
);
