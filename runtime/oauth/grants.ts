import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { hashToken, newAccessToken } from '../auth/index.js';
import { OAuthError } from './oauth-error.js';

/**
 * Grants and the tokens issued under them: authorization codes (single use, ten minutes),
 * access tokens (two hours) and refresh tokens (rotated on every use). A code or refresh token
 * presented a second time means it leaked, so the whole grant is revoked (RFC 6749 section
 * 4.1.2, OAuth 2.0 Security BCP section 4.14).
 */

export const AUTHORIZATION_CODE_TTL_MS = 10 * 60 * 1000;
export const OAUTH_ACCESS_TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 60 * 24 * 60 * 60 * 1000;

/** RFC 6749 section 5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

interface Grant {
  id: string;
  app_guid: string;
  org_id: number;
  user_id: number;
  scopes: string[];
  revoked_at: Date | null;
  org_usable: boolean;
}

/** Records a user's consent and the code the client redeems for its first tokens. */
export async function grantAuthorizationCode(
  sql: postgres.Sql,
  consent: { appId: string; orgId: number; userId: number; scopes: readonly string[]; redirectUri: string; codeChallenge: string; now: Date },
): Promise<string> {
  const code = `cac_${randomBytes(32).toString('base64url')}`;
  const grantId = randomUUID();
  await sql.begin(async (tx) => {
    await tx`
      insert into cadence_system.oauth_grants (id, app_guid, org_id, user_id, scopes, created_at)
      values (${grantId}, ${consent.appId}, ${consent.orgId}, ${consent.userId}, ${tx.array([...consent.scopes])}, ${consent.now})`;
    await tx`
      insert into cadence_system.oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at)
      values (${hashToken(code)}, ${grantId}, ${consent.redirectUri}, ${consent.codeChallenge},
              ${new Date(consent.now.getTime() + AUTHORIZATION_CODE_TTL_MS)})`;
  });
  return code;
}

/** Revokes a grant: its access tokens stop working at once and it issues nothing more. */
async function revokeGrant(tx: postgres.TransactionSql, grantId: string, now: Date): Promise<void> {
  await tx`update cadence_system.oauth_grants set revoked_at = coalesce(revoked_at, ${now}) where id = ${grantId}`;
  await tx`delete from cadence_system.access_tokens where grant_id = ${grantId}`;
}

async function loadGrant(tx: postgres.TransactionSql, grantId: string): Promise<Grant> {
  const [grant] = await tx<Grant[]>`
    select g.id, g.app_guid, g.org_id, g.user_id, g.scopes, g.revoked_at,
           (o.locked_at is null and o.deleted_at is null) as org_usable
      from cadence_system.oauth_grants g join cadence_system.orgs o on o.id = g.org_id
     where g.id = ${grantId} for update of g`;
  return grant!;
}

/** An access token and the next refresh token of a grant. */
async function issueTokens(tx: postgres.TransactionSql, grant: Grant, scopes: readonly string[], now: Date): Promise<TokenResponse> {
  if (grant.revoked_at) throw new OAuthError('invalid_grant', 'This authorization has been revoked');
  if (!grant.org_usable) throw new OAuthError('invalid_grant', 'The organisation of this authorization is locked or deleted');
  const accessToken = newAccessToken();
  const refreshToken = `car_${randomBytes(32).toString('base64url')}`;
  await tx`
    insert into cadence_system.access_tokens (token_hash, org_id, user_id, app_guid, grant_id, scopes, expires_at)
    values (${hashToken(accessToken)}, ${grant.org_id}, ${grant.user_id}, ${grant.app_guid}, ${grant.id}, ${tx.array([...scopes])},
            ${new Date(now.getTime() + OAUTH_ACCESS_TOKEN_TTL_MS)})`;
  await tx`
    insert into cadence_system.oauth_refresh_tokens (token_hash, grant_id, expires_at, created_at)
    values (${hashToken(refreshToken)}, ${grant.id}, ${new Date(now.getTime() + REFRESH_TOKEN_TTL_MS)}, ${now})`;
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: OAUTH_ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
  };
}

/** RFC 7636 section 4.6: BASE64URL(SHA-256(ASCII(code_verifier))) must equal the challenge. */
function verifierMatches(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url') === challenge;
}

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** The authorization_code grant. Revocations are committed even though the request fails. */
export async function redeemAuthorizationCode(
  sql: postgres.Sql,
  request: { appId: string; code: string; redirectUri: string | undefined; codeVerifier: string | undefined; now: Date },
): Promise<TokenResponse> {
  if (!request.codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
  if (!CODE_VERIFIER.test(request.codeVerifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  if (!request.redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required, the same as in the authorization request');
  const codeHash = hashToken(request.code);
  const outcome = await sql.begin(async (tx): Promise<TokenResponse | OAuthError> => {
    const [code] = await tx<{ grant_id: string; redirect_uri: string; code_challenge: string; expires_at: Date; used_at: Date | null }[]>`
      select grant_id, redirect_uri, code_challenge, expires_at, used_at from cadence_system.oauth_codes
       where code_hash = ${codeHash} for update`;
    if (!code) return new OAuthError('invalid_grant', 'The authorization code is not valid');
    const grant = await loadGrant(tx, code.grant_id);
    if (grant.app_guid !== request.appId) return new OAuthError('invalid_grant', 'The authorization code was issued to another client');
    if (code.used_at) {
      await revokeGrant(tx, grant.id, request.now);
      return new OAuthError('invalid_grant', 'The authorization code has already been used; every token issued with it is revoked');
    }
    if (code.expires_at <= request.now) return new OAuthError('invalid_grant', 'The authorization code has expired');
    if (code.redirect_uri !== request.redirectUri) return new OAuthError('invalid_grant', 'redirect_uri differs from the one in the authorization request');
    if (!verifierMatches(request.codeVerifier!, code.code_challenge)) return new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
    await tx`update cadence_system.oauth_codes set used_at = ${request.now} where code_hash = ${codeHash}`;
    return issueTokens(tx, grant, grant.scopes, request.now);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/** The refresh_token grant: rotates the refresh token; a reused one revokes the grant. */
export async function refreshAccessToken(
  sql: postgres.Sql,
  request: { appId: string; refreshToken: string; scope: string | undefined; now: Date },
): Promise<TokenResponse> {
  const tokenHash = hashToken(request.refreshToken);
  const outcome = await sql.begin(async (tx): Promise<TokenResponse | OAuthError> => {
    const [token] = await tx<{ grant_id: string; expires_at: Date; used_at: Date | null }[]>`
      select grant_id, expires_at, used_at from cadence_system.oauth_refresh_tokens
       where token_hash = ${tokenHash} for update`;
    if (!token) return new OAuthError('invalid_grant', 'The refresh token is not valid');
    const grant = await loadGrant(tx, token.grant_id);
    if (grant.app_guid !== request.appId) return new OAuthError('invalid_grant', 'The refresh token was issued to another client');
    if (token.used_at) {
      await revokeGrant(tx, grant.id, request.now);
      return new OAuthError('invalid_grant', 'The refresh token has already been used; every token of this authorization is revoked');
    }
    if (token.expires_at <= request.now) return new OAuthError('invalid_grant', 'The refresh token has expired');
    // RFC 6749 section 6: a refresh may narrow the scopes of the new access token, never widen them.
    const requested = request.scope?.split(' ').filter(Boolean);
    const scopes = requested && requested.length > 0 ? [...new Set(requested)] : grant.scopes;
    const wider = scopes.filter((s) => !grant.scopes.includes(s));
    if (wider.length) return new OAuthError('invalid_scope', `Not granted by the user: ${wider.join(' ')}`);
    await tx`update cadence_system.oauth_refresh_tokens set used_at = ${request.now} where token_hash = ${tokenHash}`;
    return issueTokens(tx, grant, scopes, request.now);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}
