import type postgres from 'postgres';

/** What `cadence app list` prints of each registered app: never its client secret or lifecycle secret. */
export interface AppListing {
  appId: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  oauthScopes: string[];
  s2sScopes: string[];
  lifecycleWebhookUrl: string | null;
  /** Ids of its public keys not revoked (cadence app key revoke takes one). */
  keyIds: number[];
  /** The orgs it is installed in now. */
  installedInOrgs: number[];
  createdAt: string;
}

interface AppRow {
  guid: string;
  name: string;
  client_id: string;
  redirect_uris: string[];
  oauth_scopes: string[];
  s2s_scopes: string[];
  lifecycle_webhook_url: string | null;
  key_ids: number[];
  org_ids: number[];
  created_at: Date;
}

/** Every registered app, oldest first. */
export async function listApps(sql: postgres.Sql): Promise<AppListing[]> {
  // In a transaction although it is one statement: like createApp, so that postgres.js has
  // learnt the array types before its first statement reads arrays.
  const rows = await sql.begin(
    (tx) => tx<AppRow[]>`
      select a.guid, a.name, a.client_id, a.redirect_uris, a.oauth_scopes, a.s2s_scopes, a.lifecycle_webhook_url, a.created_at,
             coalesce((select array_agg(k.id order by k.id) from cadence_system.app_keys k where k.app_guid = a.guid and k.revoked_at is null), '{}') as key_ids,
             coalesce((select array_agg(i.org_id order by i.org_id) from cadence_system.app_installs i where i.app_guid = a.guid and i.uninstalled_at is null), '{}') as org_ids
      from cadence_system.apps a order by a.created_at, a.guid`,
  );
  return rows.map((row) => ({
    appId: row.guid,
    name: row.name,
    clientId: row.client_id,
    redirectUris: row.redirect_uris,
    oauthScopes: row.oauth_scopes,
    s2sScopes: row.s2s_scopes,
    lifecycleWebhookUrl: row.lifecycle_webhook_url,
    keyIds: row.key_ids.map(Number),
    installedInOrgs: row.org_ids.map(Number),
    createdAt: row.created_at.toISOString(),
  }));
}
