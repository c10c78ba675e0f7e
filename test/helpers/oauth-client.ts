import { createHash, randomBytes } from 'node:crypto';

/**
 * What an OAuth client does, written out plainly for tests: PKCE pairs, authorization URLs,
 * and token requests with HTTP Basic client authentication.
 */

export interface OAuthTestClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizationUrl(baseUrl: string, client: OAuthTestClient, pkce: Pkce, extra: Record<string, string> = {}): string {
  const url = new URL('/oauth/authorize', baseUrl);
  const parameters = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.toString();
}

export interface TokenReply {
  status: number;
  headers: Headers;
  body: any;
}

export async function tokenRequest(
  baseUrl: string,
  client: Pick<OAuthTestClient, 'clientId' | 'clientSecret'>,
  form: Record<string, string>,
  options: { auth?: 'basic' | 'post' } = {},
): Promise<TokenReply> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const fields = { ...form };
  if ((options.auth ?? 'basic') === 'basic') {
    const encode = (text: string) => encodeURIComponent(text);
    headers.authorization = `Basic ${Buffer.from(`${encode(client.clientId)}:${encode(client.clientSecret)}`).toString('base64')}`;
  } else {
    Object.assign(fields, { client_id: client.clientId, client_secret: client.clientSecret });
  }
  const response = await fetch(new URL('/oauth/token', baseUrl), { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

export function redeemCode(baseUrl: string, client: OAuthTestClient, code: string, verifier: string): Promise<TokenReply> {
  return tokenRequest(baseUrl, client, { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: verifier });
}

export function refresh(baseUrl: string, client: OAuthTestClient, refreshToken: string, extra: Record<string, string> = {}): Promise<TokenReply> {
  return tokenRequest(baseUrl, client, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });
}
