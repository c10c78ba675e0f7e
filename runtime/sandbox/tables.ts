/**
 * The test clocks of sandbox mode (CADENCE_SANDBOX=true, runtime/sandbox/clock.ts): how far each
 * org's time was moved ahead of real time. No row: the org runs on real time. In
 * `cadence_system`, read over the server's owner connection before a request's org transaction
 * opens, like tokens.
 */
import { bigint } from 'drizzle-orm/pg-core';
import { cadenceSystem, orgs } from '../db/system-tables.js';

export const sandboxClocks = cadenceSystem.table('sandbox_clocks', {
  orgId: bigint('org_id', { mode: 'number' })
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  /** Seconds the org's clock is ahead of real time; only ever grows. */
  offsetSeconds: bigint('offset_seconds', { mode: 'number' }).notNull(),
});
