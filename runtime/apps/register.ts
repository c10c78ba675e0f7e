import { randomBytes, randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { AdminError, knownScopes } from '../admin/index.js';
import { hashToken } from '../auth/index.js';
import { unknownS2sScopes } from './scopes.js';

export interface AppRegistration {
  readonly name: string;
  /** OAuth redirect URIs (the authorization-code flow itself is not built yet). */
  readonly redirectUris: readonly string[];
  readonly oauthScopes: readonly string[];
  /** What the app's server-to-server tokens hold: names from SPEC.md's S2S scope table. */
  readonly s2sScopes: readonly string[];
}

export interface RegisteredApp {
  /** The app GUID, `iss` of its app tokens. */
  appId: string;
  clientId: string;
  /** Shown once; only its SHA-256 is stored. */
  clientSecret: string;
}

/** https anywhere, http only on the loopback host (developers' machines), nothing else. */
function isAcceptableRedirectUri(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function checkRegistration(registration: AppRegistration): void {
  if (registration.name.trim() === '') throw new AdminError('the app name must not be empty');
  const badUris = registration.redirectUris.filter((u) => !isAcceptableRedirectUri(u));
  if (badUris.length) throw new AdminError(`redirect URIs must be absolute https URLs (http only on localhost) without a fragment: ${badUris.join(', ')}`);
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
  const unique = (list: readonly string[]) => [...new Set(list)];
  // In a transaction although it is one statement: postgres.js builds a client's very first
  // statement before it has learnt the array types, and would send these arrays as plain text
  // (the CLI's first statement is this one). `begin` goes first instead.
  await sql.begin(
    (tx) => tx`
      insert into cadence_system.apps (guid, name, client_id, client_secret_hash, redirect_uris, oauth_scopes, s2s_scopes)
      values (${appId}, ${registration.name}, ${clientId}, ${hashToken(clientSecret)}, ${tx.array(unique(registration.redirectUris))},
              ${tx.array(unique(registration.oauthScopes))}, ${tx.array(unique(registration.s2sScopes))})`,
  );
  return { appId, clientId, clientSecret };
}

/** Operator commands name apps by GUID; a typo gets a clear error, not a foreign-key failure. */
export async function requireApp(sql: postgres.Sql | postgres.TransactionSql, appId: string): Promise<void> {
  const [app] = await sql`select 1 from cadence_system.apps where guid = ${appId}`;
  if (!app) throw new AdminError(`app ${appId} does not exist`);
}
