/**
 * Applications: registered apps, their RSA public keys (server-to-server app tokens are signed
 * with the matching private keys) and their installations in orgs. Like orgs and tokens they
 * live in `cadence_system`, outside row-level security: an app token names only its app, so
 * the app and its install are found before any org is known.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { cadenceSystem, orgs, timestampColumn } from '../db/system-tables.js';

/** Secrets are stored only as SHA-256 hashes, like access tokens. */
export const apps = cadenceSystem.table(
  'apps',
  {
    /** The app GUID: `iss` of its app tokens. */
    guid: text('guid').primaryKey(),
    name: text('name').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretHash: text('client_secret_hash').notNull(),
    redirectUris: text('redirect_uris').array().notNull(),
    oauthScopes: text('oauth_scopes').array().notNull(),
    /** What the app's server-to-server access tokens hold. */
    s2sScopes: text('s2s_scopes').array().notNull(),
    /** Where install, uninstall and org deletion are announced (runtime/apps/lifecycle.ts); null: not announced. */
    lifecycleWebhookUrl: text('lifecycle_webhook_url'),
    /** HMAC key of lifecycle deliveries; kept in clear like webhook secrets, since it signs. */
    lifecycleWebhookSecret: text('lifecycle_webhook_secret'),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('apps_client_id_idx').on(t.clientId)],
);

/** PEM-encoded RSA public keys; an app token signed by any key not revoked is accepted. */
export const appKeys = cadenceSystem.table(
  'app_keys',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appGuid: text('app_guid')
      .notNull()
      .references(() => apps.guid, { onDelete: 'cascade' }),
    publicKeyPem: text('public_key_pem').notNull(),
    revokedAt: timestampColumn('revoked_at'),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
  },
  (t) => [index('app_keys_app_guid_idx').on(t.appGuid)],
);

/**
 * One row per installation of an app in an org. Installing again while installed keeps the
 * install and issues a new setup token; installing after an uninstall makes a new install.
 */
export const appInstalls = cadenceSystem.table(
  'app_installs',
  {
    id: text('id').primaryKey(),
    appGuid: text('app_guid')
      .notNull()
      .references(() => apps.guid, { onDelete: 'cascade' }),
    orgId: bigint('org_id', { mode: 'number' })
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    setupTokenHash: text('setup_token_hash'),
    setupTokenExpiresAt: timestampColumn('setup_token_expires_at'),
    installedAt: timestampColumn('installed_at').notNull(),
    uninstalledAt: timestampColumn('uninstalled_at'),
  },
  (t) => [
    uniqueIndex('app_installs_setup_token_idx').on(t.setupTokenHash),
    uniqueIndex('app_installs_current_idx')
      .on(t.appGuid, t.orgId)
      .where(sql`${t.uninstalledAt} is null`),
    index('app_installs_org_idx').on(t.orgId),
  ],
);
