/**
 * Opens and clicks as they arrive, before they are counted (hit-buffer.ts appends, hit-fold.ts
 * counts and deletes). A tenant table like the resources (org_id in every key, row-level
 * security); rows live about a second. No foreign key to the org or the mailing: the append
 * function only takes hits of existing orgs, a hit of a mailing deleted meanwhile is dropped by
 * the fold, and a check per appended row would be the table's largest cost.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../../db/system-tables.js';

export const trackingHits = pgTable(
  'tracking_hits',
  {
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
    id: bigint('id', { mode: 'number' }).generatedByDefaultAsIdentity().notNull(),
    mailingId: bigint('mailing_id', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: ['open', 'click'] }).notNull(),
    /** When the API answered it, by the service's clock: the mailing's openedAt or clickedAt if it is the first. */
    hitAt: timestampColumn('hit_at').notNull(),
  },
  (t) => [primaryKey({ name: 'tracking_hits_pkey', columns: [t.orgId, t.id] }), check('tracking_hits_kind_check', sql`${t.kind} in ('open', 'click')`)],
);
