/**
 * Bookkeeping of bulk requests: each org's daily allowance of bulk items (a token bucket) and
 * the Idempotency-Key values of its bulk upserts. Tenant tables like the resources (org_id in
 * every key, row-level security), written inside the request's org-scoped transaction.
 */
import { bigint, doublePrecision, foreignKey, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { batches } from '../../generated/db/batch.js';
import { orgs, timestampColumn } from '../db/system-tables.js';

/**
 * One row per org and allowance that has been drawn on: the items left at `refilledAt`. What
 * has been refilled since is computed from the time elapsed, so nothing runs to refill it.
 */
export const bulkAllowances = pgTable(
  'bulk_allowances',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    /** Which allowance: `bulkItems`, SPEC.md's daily one shared by every bulk request, is the only one yet. */
    allowance: text('allowance').notNull(),
    /** Fractional: the refill is continuous, a few items a second at the default rate. */
    tokens: doublePrecision('tokens').notNull(),
    refilledAt: timestampColumn('refilled_at').notNull(),
  },
  (t) => [primaryKey({ name: 'bulk_allowances_pkey', columns: [t.orgId, t.allowance] })],
);

/** An Idempotency-Key seen in the last 24 hours, the request it came with and its batch. */
export const bulkIdempotencyKeys = pgTable(
  'bulk_idempotency_keys',
  {
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id),
    key: text('key').notNull(),
    /** SHA-256 of the action name and the raw body: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    batchId: bigint('batch_id', { mode: 'number' }).notNull(),
    createdAt: timestampColumn('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'bulk_idempotency_keys_pkey', columns: [t.orgId, t.key] }),
    foreignKey({ name: 'bulk_idempotency_keys_batch_fk', columns: [t.orgId, t.batchId], foreignColumns: [batches.orgId, batches.id] }).onDelete('cascade'),
    index('bulk_idempotency_keys_created_at_idx').on(t.orgId, t.createdAt),
  ],
);
