/**
 * Delivery attempts of webhooks: one row per HTTP attempt, so an admin can see why deliveries
 * fail. A tenant table like the resources (org_id first in every key, row-level security); a
 * daily job removes rows older than the retention period.
 */
import { bigint, foreignKey, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { webhooks } from '../../generated/db/webhook.js';
import { orgs, timestampColumn } from '../db/system-tables.js';

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    webhookId: bigint('webhook_id', { mode: 'number' }).notNull(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    attempt: integer('attempt').notNull(),
    /** The HTTP status received, or null when the attempt failed below HTTP. */
    status: integer('status'),
    /** Why no status was received: network error, private address, unresolvable host. */
    error: text('error'),
    latencyMs: integer('latency_ms').notNull(),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'webhook_attempts_pkey', columns: [t.orgId, t.id] }),
    foreignKey({ name: 'webhook_attempts_webhook_fk', columns: [t.orgId, t.webhookId], foreignColumns: [webhooks.orgId, webhooks.id] }).onDelete('cascade'),
    index('webhook_attempts_webhook_idx').on(t.orgId, t.webhookId, t.createdAt),
    // A delivery set asks whether each of its (webhook, event) pairs was already attempted
    // (delivery-load.ts). Without this index that walked every attempt of the webhook for each
    // item: a set of 64 took a second once a webhook had 130,000 attempts.
    index('webhook_attempts_event_idx').on(t.orgId, t.webhookId, t.eventId, t.attempt),
    index('webhook_attempts_created_at_idx').on(t.orgId, t.createdAt),
  ],
);
