import { timingSafeEqual } from 'node:crypto';
import type postgres from 'postgres';
import { hashToken } from '../auth/index.js';
import { findClient, type OAuthClient } from './authorization-request.js';
import { OAuthError } from './oauth-error.js';

/**
 * Authenticates the client at the token endpoint (RFC 6749 section 2.3.1): HTTP Basic with the
 * form-encoded client id and secret, or both in the body; never both ways at once.
 */
export async function authenticateClient(sql: postgres.Sql, authorization: string | undefined, form: ReadonlyMap<string, string>): Promise<OAuthClient> {
  const basic = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i)?.[1];
  const inBody = form.has('client_id') || form.has('client_secret');
  if (authorization && !basic) throw new OAuthError('invalid_client', 'Only HTTP Basic client authentication is accepted in the Authorization header');
  if (basic && inBody) throw new OAuthError('invalid_request', 'Authenticate the client one way: HTTP Basic or client_id and client_secret in the body, not both');
  let clientId: string | undefined;
  let clientSecret: string | undefined;
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'The Basic credentials must be client_id:client_secret');
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw new OAuthError('invalid_client', 'The Basic credentials are not form-encoded');
    }
  } else {
    clientId = form.get('client_id');
    clientSecret = form.get('client_secret');
  }
  if (!clientId || !clientSecret) throw new OAuthError('invalid_client', 'Client authentication is required (client_id and client_secret)');
  if (clientId.includes('\0')) throw new OAuthError('invalid_client', 'The client id or secret is not correct');
  const client = await findClient(sql, clientId);
  const presented = Buffer.from(hashToken(clientSecret));
  // Compared in constant time even for an unknown client, so timing tells nothing.
  const stored = Buffer.from(client?.clientSecretHash ?? hashToken(''));
  if (!client || !timingSafeEqual(presented, stored)) throw new OAuthError('invalid_client', 'The client id or secret is not correct');
  return client;
}
