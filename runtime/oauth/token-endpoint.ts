import type { Context, Handler } from 'hono';
import type postgres from 'postgres';
import { authenticateClient } from './client-authentication.js';
import { redeemAuthorizationCode, refreshAccessToken, type TokenResponse } from './grants.js';
import { OAuthError } from './oauth-error.js';

export interface TokenEndpointDependencies {
  readonly sql: postgres.Sql;
  readonly clock: () => Date;
}

/** RFC 6749 section 5.1: token responses and their errors are never cached. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function oauthErrorResponse(c: Context, error: OAuthError): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  if (error.status === 401) headers['WWW-Authenticate'] = 'Basic realm="cadence"';
  return c.json({ error: error.error, error_description: error.description }, error.status, headers);
}

/** The form of a token request; each parameter at most once (RFC 6749 section 3.2). */
async function readForm(c: Context): Promise<Map<string, string>> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'The token request must be application/x-www-form-urlencoded');
  }
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(await c.req.text())) {
    if (form.has(name)) throw new OAuthError('invalid_request', `The parameter ${name} must not be repeated`);
    form.set(name, value);
  }
  return form;
}

async function grant(deps: TokenEndpointDependencies, c: Context): Promise<TokenResponse> {
  const form = await readForm(c);
  const client = await authenticateClient(deps.sql, c.req.header('authorization'), form);
  const now = deps.clock();
  switch (form.get('grant_type')) {
    case 'authorization_code': {
      const code = form.get('code');
      if (!code) throw new OAuthError('invalid_request', 'code is required');
      return redeemAuthorizationCode(deps.sql, { appId: client.appId, code, redirectUri: form.get('redirect_uri'), codeVerifier: form.get('code_verifier'), now });
    }
    case 'refresh_token': {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
      return refreshAccessToken(deps.sql, { appId: client.appId, refreshToken, scope: form.get('scope'), now });
    }
    case undefined:
      throw new OAuthError('invalid_request', 'grant_type is required');
    default:
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }
}

/** POST /oauth/token: the authorization_code and refresh_token grants. */
export function tokenEndpoint(deps: TokenEndpointDependencies): Handler {
  return async function token(c) {
    try {
      return c.json(await grant(deps, c), 200, NO_STORE);
    } catch (error) {
      if (error instanceof OAuthError) return oauthErrorResponse(c, error);
      throw error;
    }
  };
}
