/**
 * Tables that are not resources: organisations and API tokens. They live in their own
 * PostgreSQL schema, `cadence_system`, outside row-level security: a token has to be looked up
 * before anyone knows which org the request belongs to. The API role cannot read them; the
 * server reads them over its owner connection only to authenticate.
 */
import { bigint, check, foreignKey, index, integer, pgSchema, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from '../../generated/db/user.js';

export const cadenceSystem = pgSchema('cadence_system');

/** Every hand-written table's timestamps: with time zone, milliseconds, read as ISO strings. */
export const timestampColumn = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'string' });

export const orgs = cadenceSystem.table(
  'orgs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    lockedAt: timestampColumn('locked_at'),
    deletedAt: timestampColumn('deleted_at'),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
    /** Requests per hour per token holder in this org (runtime/ratelimit); null: the deployment's RATE_LIMIT_PER_HOUR. */
    requestLimitPerHour: integer('request_limit_per_hour'),
  },
  (t) => [check('orgs_request_limit_per_hour_check', sql`${t.requestLimitPerHour} > 0`)],
);

/**
 * Bearer tokens, stored only as the SHA-256 of the token. `userId` is null for tokens that act
 * for an application alone (server-to-server); `appGuid` names that application. Scopes are the
 * OAuth scope names.
 */
export const accessTokens = cadenceSystem.table(
  'access_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }),
    // No foreign key to cadence_system.apps: runtime/apps/tables.ts builds on this file, and a
    // reference back would make the two modules import each other. Apps are never deleted.
    appGuid: text('app_guid'),
    /** The OAuth grant (runtime/oauth/tables.ts) an OAuth token was issued under; revoking it deletes the token. */
    grantId: text('grant_id'),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'access_tokens_user_fk', columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
    index('access_tokens_org_user_idx').on(t.orgId, t.userId),
    index('access_tokens_expires_at_idx').on(t.expiresAt),
    index('access_tokens_grant_idx').on(t.grantId),
  ],
);

/** Users who administer their org: they see every webhook's secrets, for one. */
export const orgAdmins = cadenceSystem.table(
  'org_admins',
  {
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'org_admins_pkey', columns: [t.orgId, t.userId] }),
    foreignKey({ name: 'org_admins_user_fk', columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
  ],
);

/** Deployment-wide values every process must agree on, such as the page cursor secret. */
export const settings = cadenceSystem.table('settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});
