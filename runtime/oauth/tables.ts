/**
 * OAuth: the sign-in credentials of users, invitations to set them, authorization codes, and
 * grants with their rotating refresh tokens. Like access tokens they live in `cadence_system`,
 * outside row-level security: the token endpoint and the sign-in page run before any org is
 * known. Codes, refresh tokens and invitation tokens are stored only as SHA-256 hashes.
 */
import { sql } from 'drizzle-orm';
import { bigint, foreignKey, index, integer, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../generated/db/user.js';
import { apps } from '../apps/tables.js';
import { cadenceSystem, orgs, timestampColumn } from '../db/system-tables.js';

/**
 * A user's password. `login` is the e-mail address the user signs in with, fixed when the
 * password is set; it is unique across the deployment, so a sign-in names exactly one org.
 */
export const userCredentials = cadenceSystem.table(
  'user_credentials',
  {
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    login: text('login').notNull(),
    /** `scrypt$N$r$p$salt$hash`, see runtime/oauth/passwords.ts. */
    passwordHash: text('password_hash').notNull(),
    /** Failed sign-ins since the last success; enough of them lock the sign-in for a while. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedUntil: timestampColumn('locked_until'),
    updatedAt: timestampColumn('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'user_credentials_pkey', columns: [t.orgId, t.userId] }),
    foreignKey({ name: 'user_credentials_user_fk', columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
    uniqueIndex('user_credentials_login_idx').on(sql`lower(${t.login})`),
  ],
);

/** A one-time link that lets a user set a password. */
export const userInvitations = cadenceSystem.table(
  'user_invitations',
  {
    tokenHash: text('token_hash').primaryKey(),
    orgId: bigint('org_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    usedAt: timestampColumn('used_at'),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'user_invitations_user_fk', columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
    index('user_invitations_user_idx').on(t.orgId, t.userId),
  ],
);

/**
 * What a user consented to: one app acting for one user in one org with some scopes. Every
 * access and refresh token issued through the consent belongs to it, so revoking the grant
 * (a reused refresh token, a reused code) revokes them all.
 */
export const oauthGrants = cadenceSystem.table(
  'oauth_grants',
  {
    id: text('id').primaryKey(),
    appGuid: text('app_guid')
      .notNull()
      .references(() => apps.guid, { onDelete: 'cascade' }),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
    revokedAt: timestampColumn('revoked_at'),
  },
  (t) => [
    foreignKey({ name: 'oauth_grants_user_fk', columns: [t.orgId, t.userId], foreignColumns: [users.orgId, users.id] }).onDelete('cascade'),
    index('oauth_grants_org_user_idx').on(t.orgId, t.userId),
  ],
);

/** An authorization code: single use, ten minutes, bound to its redirect URI and PKCE challenge. */
export const oauthCodes = cadenceSystem.table(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    grantId: text('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    /** BASE64URL(SHA-256(code_verifier)); only S256 is accepted. */
    codeChallenge: text('code_challenge').notNull(),
    expiresAt: timestampColumn('expires_at').notNull(),
    usedAt: timestampColumn('used_at'),
  },
  (t) => [index('oauth_codes_grant_idx').on(t.grantId), index('oauth_codes_expires_at_idx').on(t.expiresAt)],
);

/** Refresh tokens rotate: each use marks the token used and issues the next one of its grant. */
export const oauthRefreshTokens = cadenceSystem.table(
  'oauth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    grantId: text('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    expiresAt: timestampColumn('expires_at').notNull(),
    usedAt: timestampColumn('used_at'),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
  },
  (t) => [index('oauth_refresh_tokens_grant_idx').on(t.grantId), index('oauth_refresh_tokens_expires_at_idx').on(t.expiresAt)],
);
