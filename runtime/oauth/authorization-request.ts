import type postgres from 'postgres';

/**
 * Validates an authorization request (RFC 6749 section 4.1.1 with PKCE, RFC 7636) the same way
 * for the consent page (query string) and for the decision posted from it (form fields), so
 * the posted form is trusted no more than the link that opened it.
 *
 * RFC 6749 section 4.1.2.1: while the client or its redirect URI is in doubt, the user sees an
 * error page and is never redirected (that would make Cadence an open redirector); once both
 * are known, every other error goes back to the client's redirect URI.
 */

export interface OAuthClient {
  readonly appId: string;
  readonly name: string;
  readonly clientId: string;
  readonly redirectUris: readonly string[];
  readonly oauthScopes: readonly string[];
}

export interface AuthorizationRequest {
  readonly client: OAuthClient;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  readonly state: string | undefined;
  readonly codeChallenge: string;
}

export type ParsedAuthorizationRequest =
  | { readonly kind: 'valid'; readonly request: AuthorizationRequest }
  /** Shown to the user; never redirected. */
  | { readonly kind: 'page-error'; readonly detail: string }
  /** Sent back to the client: the redirect URI with error, error_description and state. */
  | { readonly kind: 'redirect-error'; readonly location: string };

/** The parameters of a request, each with every value it was given. */
export type Parameters = ReadonlyMap<string, readonly string[]>;

/** RFC 7636 section 4.2: BASE64URL(SHA-256(verifier)) is 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PARAMETERS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'];

export async function findClient(sql: postgres.Sql | postgres.TransactionSql, clientId: string): Promise<(OAuthClient & { clientSecretHash: string }) | undefined> {
  const [row] = await sql<(OAuthClient & { clientSecretHash: string })[]>`
    select guid as "appId", name, client_id as "clientId", client_secret_hash as "clientSecretHash",
           redirect_uris as "redirectUris", oauth_scopes as "oauthScopes"
      from cadence_system.apps where client_id = ${clientId}`;
  return row;
}

/** Where the client is sent with an outcome: its redirect URI plus the given parameters and state. */
export function clientRedirect(redirectUri: string, parameters: Record<string, string>, state: string | undefined): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set('state', state);
  return url.toString();
}

export async function parseAuthorizationRequest(sql: postgres.Sql, parameters: Parameters): Promise<ParsedAuthorizationRequest> {
  // PostgreSQL text cannot hold NUL; such a link is malformed, not a reason for a 500.
  if ([...parameters.values()].some((values) => values.some((v) => v.includes('\0')))) {
    return { kind: 'page-error', detail: 'The link that brought you here is malformed (it contains a NUL character).' };
  }
  const repeated = PARAMETERS.filter((name) => (parameters.get(name)?.length ?? 0) > 1);
  const one = (name: string) => parameters.get(name)?.[0];
  const clientId = one('client_id');
  if (!clientId) return { kind: 'page-error', detail: 'The link that brought you here names no application (client_id is missing).' };
  const client = await findClient(sql, clientId);
  if (!client) return { kind: 'page-error', detail: 'The application that sent you here is not registered (unknown client_id).' };
  const redirectUri = one('redirect_uri');
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) {
    return { kind: 'page-error', detail: 'The link that brought you here repeats client_id or redirect_uri.' };
  }
  if (!redirectUri) return { kind: 'page-error', detail: `${client.name} sent no redirect_uri; it must name one of its registered redirect URIs.` };
  // Exact string comparison, as RFC 6749 section 3.1.2.3 and OAuth 2.1 require: no prefix or pattern matching.
  if (!client.redirectUris.includes(redirectUri)) {
    return { kind: 'page-error', detail: `${client.name} asked to send you to a redirect URI it has not registered.` };
  }
  const state = one('state');
  const fail = (error: string, description: string): ParsedAuthorizationRequest => ({
    kind: 'redirect-error',
    location: clientRedirect(redirectUri, { error, error_description: description }, state),
  });
  if (repeated.length) return fail('invalid_request', `Parameters must not be repeated: ${repeated.join(', ')}`);
  if (one('response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
  const codeChallenge = one('code_challenge');
  if (!codeChallenge) return fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256');
  if (one('code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
  if (!S256_CHALLENGE.test(codeChallenge)) return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier');
  const requested = one('scope')?.split(' ').filter(Boolean);
  const scopes = requested && requested.length > 0 ? [...new Set(requested)] : [...client.oauthScopes];
  const notAllowed = scopes.filter((s) => !client.oauthScopes.includes(s));
  if (notAllowed.length) return fail('invalid_scope', `${client.name} may not ask for: ${notAllowed.join(' ')}`);
  if (scopes.length === 0) return fail('invalid_scope', `${client.name} has no OAuth scopes registered`);
  return { kind: 'valid', request: { client, redirectUri, scopes, state, codeChallenge } };
}

/** The query string or form fields of a request as Parameters. */
export function parametersOf(entries: Iterable<[string, string]>): Parameters {
  const parameters = new Map<string, string[]>();
  for (const [name, value] of entries) parameters.set(name, [...(parameters.get(name) ?? []), value]);
  return parameters;
}
