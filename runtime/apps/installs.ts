import { randomBytes, randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { AdminError } from '../operator/index.js';
import { hashToken } from '../auth/index.js';
import { isGuid } from './guids.js';
import { enqueueLifecycleEvent } from './lifecycle.js';
import { requireApp } from './register.js';

/** SPEC.md: the setup token must be used within 15 minutes of being issued. */
export const SETUP_TOKEN_TTL_MS = 15 * 60 * 1000;

export interface IssuedInstall {
  installId: string;
  /** Shown once; only its SHA-256 is stored. */
  installSetupToken: string;
  expiresAt: string;
}

/**
 * Installs an app in an org (what an org admin's consent does) and issues the setup token the
 * app redeems for its install id. Installing again while installed keeps the install id and
 * replaces the setup token; `now` is injectable for tests. A new install, and only that, is
 * announced to the app's lifecycle webhook.
 */
export async function installApp(sql: postgres.Sql, options: { appId: string; orgId: number; now?: Date }): Promise<IssuedInstall> {
  const now = options.now ?? new Date();
  const installSetupToken = `ist_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + SETUP_TOKEN_TTL_MS);
  return sql.begin(async (tx) => {
    await requireApp(tx, options.appId);
    const [org] = await tx`select 1 from cadence_system.orgs where id = ${options.orgId} and deleted_at is null`;
    if (!org) throw new AdminError(`org ${options.orgId} does not exist`);
    const newId = randomUUID();
    const [row] = await tx<{ id: string }[]>`
      insert into cadence_system.app_installs (id, app_guid, org_id, setup_token_hash, setup_token_expires_at, installed_at)
      values (${newId}, ${options.appId}, ${options.orgId}, ${hashToken(installSetupToken)}, ${expiresAt}, ${now})
      on conflict (app_guid, org_id) where uninstalled_at is null
      do update set setup_token_hash = excluded.setup_token_hash, setup_token_expires_at = excluded.setup_token_expires_at
      returning id`;
    const installId = row!.id;
    if (installId === newId) {
      await enqueueLifecycleEvent(tx, { type: 'app.installed', appId: options.appId, installId, orgId: options.orgId, occurredAt: now });
    }
    return { installId, installSetupToken, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * Uninstalls an app from an org, deletes the app's access tokens there and revokes users' OAuth
 * grants to it there: uninstalling takes
 * effect at once, not when the last token expires. The app's lifecycle webhook is told.
 */
export async function uninstallApp(sql: postgres.Sql, options: { appId: string; orgId: number; now?: Date }): Promise<{ installId: string; uninstalledAt: string }> {
  const now = options.now ?? new Date();
  return sql.begin(async (tx) => {
    const [row] = await tx<{ id: string }[]>`
      update cadence_system.app_installs set uninstalled_at = ${now}
       where app_guid = ${options.appId} and org_id = ${options.orgId} and uninstalled_at is null
      returning id`;
    if (!row) {
      await requireApp(tx, options.appId);
      throw new AdminError(`app ${options.appId} is not installed in org ${options.orgId}`);
    }
    await tx`delete from cadence_system.access_tokens where org_id = ${options.orgId} and app_guid = ${options.appId}`;
    // Users' OAuth consents to the app in this org end with it too: their refresh tokens stop working.
    await tx`update cadence_system.oauth_grants set revoked_at = ${now}
              where org_id = ${options.orgId} and app_guid = ${options.appId} and revoked_at is null`;
    await enqueueLifecycleEvent(tx, { type: 'app.uninstalled', appId: options.appId, installId: row.id, orgId: options.orgId, occurredAt: now });
    return { installId: row.id, uninstalledAt: now.toISOString() };
  });
}

/** An install with the state of its org, as the install endpoints need it. */
export interface InstallState {
  readonly id: string;
  readonly appId: string;
  readonly orgId: number;
  readonly installedAt: Date;
  readonly setupTokenExpiresAt: Date | null;
  readonly uninstalledAt: Date | null;
  readonly orgLocked: boolean;
  readonly orgDeleted: boolean;
}

/**
 * Finds an install by its id or by the hash of its setup token. `lock` holds the row until the
 * transaction ends, so an uninstall cannot slip between the checks and a token being issued.
 * An id that is not a GUID names no install.
 */
export async function findInstall(
  sql: postgres.Sql | postgres.TransactionSql,
  by: { id: string } | { setupToken: string },
  lock = false,
): Promise<InstallState | undefined> {
  if ('id' in by && !isGuid(by.id)) return undefined;
  const where = 'id' in by ? sql`i.id = ${by.id}` : sql`i.setup_token_hash = ${hashToken(by.setupToken)}`;
  const [row] = await sql<InstallState[]>`
    select i.id, i.app_guid as "appId", i.org_id as "orgId", i.installed_at as "installedAt",
           i.setup_token_expires_at as "setupTokenExpiresAt", i.uninstalled_at as "uninstalledAt",
           o.locked_at is not null as "orgLocked", o.deleted_at is not null as "orgDeleted"
      from cadence_system.app_installs i
      join cadence_system.orgs o on o.id = i.org_id
     where ${where}
     ${lock ? sql`for share of i` : sql``}`;
  return row;
}
