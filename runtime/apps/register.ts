import { randomBytes, randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { AdminError, knownScopes } from '../operator/index.js';
import { hashToken } from '../auth/index.js';
import { unknownS2sScopes } from './scopes.js';

export interface AppRegistration {
  readonly name: string;
  /** OAuth redirect URIs (the authorization-code flow itself is not built yet). */
  readonly redirectUris: readonly string[];
  readonly oauthScopes: readonly string[];
  /** What the app's server-to-server tokens hold: names from SPEC.md's S2S scope table. */
  readonly s2sScopes: readonly string[];
  /** Where install, uninstall and org deletion are announced (lifecycle.ts); https only. */
  readonly lifecycleWebhookUrl?: string;
}

export interface RegisteredApp {
  /** The app GUID, `iss` of its app tokens. */
  appId: string;
  clientId: string;
  /** Shown once; only its SHA-256 is stored. */
  clientSecret: string;
  /** Present when a lifecycle webhook URL was given: the key its deliveries are signed with, shown once. */
  lifecycleWebhookSecret?: string;
}

/** The URL `text` names when it is absolute and has no fragment (not even an empty one). */
function absoluteUrlWithoutFragment(text: string): URL | undefined {
  if (text.includes('#')) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** https anywhere, http only on the loopback host (developers' machines), nothing else. */
function isAcceptableRedirectUri(text: string): boolean {
  const url = absoluteUrlWithoutFragment(text);
  if (url?.protocol === 'https:') return true;
  return url?.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/**
 * Lifecycle deliveries go through the resource webhooks' delivery (SPEC.md: HTTPS URLs), so
 * https only, loopback included: a developer's receiver on localhost needs a certificate the
 * worker trusts (WEBHOOK_CA_FILE) and its host in WEBHOOK_ALLOWED_HOSTS.
 */
function isAcceptableLifecycleUrl(text: string): boolean {
  return absoluteUrlWithoutFragment(text)?.protocol === 'https:';
}

function checkRegistration(registration: AppRegistration): void {
  if (registration.name.trim() === '') throw new AdminError('the app name must not be empty');
  const badUris = registration.redirectUris.filter((u) => !isAcceptableRedirectUri(u));
  if (badUris.length) throw new AdminError(`redirect URIs must be absolute https URLs (http only on localhost) without a fragment: ${badUris.join(', ')}`);
  const lifecycleUrl = registration.lifecycleWebhookUrl;
  if (lifecycleUrl !== undefined && !isAcceptableLifecycleUrl(lifecycleUrl)) {
    throw new AdminError(`the lifecycle webhook URL must be an absolute https URL without a fragment: ${lifecycleUrl}`);
  }
  const known = new Set(knownScopes());
  const unknownOauth = registration.oauthScopes.filter((s) => !known.has(s));
  if (unknownOauth.length) throw new AdminError(`unknown scopes: ${unknownOauth.join(', ')}`);
  const unknownS2s = unknownS2sScopes(registration.s2sScopes);
  if (unknownS2s.length) throw new AdminError(`not server-to-server scopes (see SPEC.md's S2S scope table): ${unknownS2s.join(', ')}`);
}

/** Registers an app: its GUID, OAuth client credentials and the scopes it may be granted. */
export async function createApp(sql: postgres.Sql, registration: AppRegistration): Promise<RegisteredApp> {
  checkRegistration(registration);
  const appId = randomUUID();
  const clientId = randomBytes(16).toString('base64url');
  const clientSecret = `cas_${randomBytes(32).toString('base64url')}`;
  const lifecycleUrl = registration.lifecycleWebhookUrl;
  const lifecycleWebhookSecret = lifecycleUrl === undefined ? undefined : `caw_${randomBytes(32).toString('base64url')}`;
  const unique = (list: readonly string[]) => [...new Set(list)];
  // In a transaction although it is one statement: postgres.js builds a client's very first
  // statement before it has learnt the array types, and would send these arrays as plain text
  // (the CLI's first statement is this one). `begin` goes first instead.
  await sql.begin(
    (tx) => tx`
      insert into cadence_system.apps (guid, name, client_id, client_secret_hash, redirect_uris, oauth_scopes, s2s_scopes,
                                       lifecycle_webhook_url, lifecycle_webhook_secret)
      values (${appId}, ${registration.name}, ${clientId}, ${hashToken(clientSecret)}, ${tx.array(unique(registration.redirectUris))},
              ${tx.array(unique(registration.oauthScopes))}, ${tx.array(unique(registration.s2sScopes))},
              ${lifecycleUrl ?? null}, ${lifecycleWebhookSecret ?? null})`,
  );
  return { appId, clientId, clientSecret, ...(lifecycleWebhookSecret !== undefined && { lifecycleWebhookSecret }) };
}

/** Operator commands name apps by GUID; a typo gets a clear error, not a foreign-key failure. */
export async function requireApp(sql: postgres.Sql | postgres.TransactionSql, appId: string): Promise<void> {
  const [app] = await sql`select 1 from cadence_system.apps where guid = ${appId}`;
  if (!app) throw new AdminError(`app ${appId} does not exist`);
}
