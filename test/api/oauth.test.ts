import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, type CreatedOrg } from '../../runtime/admin/index.js';
import { createApp, installApp, lockOrg, uninstallApp, unlockOrg } from '../../runtime/apps/index.js';
import { hashToken } from '../../runtime/auth/index.js';
import { createTaskList } from '../../runtime/worker.js';
import { inviteUser, MAX_FAILED_SIGN_INS, setPassword, SIGN_IN_LOCK_MS } from '../../runtime/oauth/index.js';
import { runCadence } from '../helpers/cli.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { authorizationUrl, newPkce, redeemCode, refresh, tokenRequest, type OAuthTestClient, type Pkce } from '../helpers/oauth-client.js';

/**
 * The OAuth authorization-code flow with PKCE over plain HTTP: the consent page's form is read
 * and posted as a browser would (test/api/oauth-browser.test.ts drives the same page in
 * Chromium). The server's clock is shifted with `offsetMs` to step past expiry times.
 */

let api: TestApi;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
let client: OAuthTestClient;
let clientAppId: string;
let otherClient: OAuthTestClient;
let org: CreatedOrg;
const PASSWORD = 'correct horse battery staple';
let login: string;
let loginCounter = 0;

/** A user of the test org with a password, signing in with a fresh login. */
async function newSignedUpUser(): Promise<{ userId: number; login: string }> {
  const email = `user${++loginCounter}@oauth.test`;
  const { userId } = await createUser(api.sql, { orgId: org.orgId, email, admin: false });
  await setPassword(api.sql, { orgId: org.orgId, userId, password: PASSWORD });
  return { userId, login: email };
}

beforeAll(async () => {
  api = await startTestApi({ clock });
  org = api.org;
  const registered = await createApp(api.sql, {
    name: 'Pipeline <Sync>',
    redirectUris: ['http://127.0.0.1:9/callback', 'https://sync.test/oauth/callback?tenant=1'],
    oauthScopes: ['prospects.read', 'prospects.write', 'accounts.read', 'webhooks.all'],
    s2sScopes: [],
  });
  clientAppId = registered.appId;
  client = { clientId: registered.clientId, clientSecret: registered.clientSecret, redirectUri: 'http://127.0.0.1:9/callback' };
  const other = await createApp(api.sql, { name: 'Other', redirectUris: ['http://127.0.0.1:9/other'], oauthScopes: ['prospects.read'], s2sScopes: [] });
  otherClient = { clientId: other.clientId, clientSecret: other.clientSecret, redirectUri: 'http://127.0.0.1:9/other' };
  ({ login } = await newSignedUpUser());
});
afterAll(async () => {
  await api?.close();
});
beforeEach(() => {
  offsetMs = 0;
});

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#x3D;': '=', '&#x60;': '`' };
const decodeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#x3D|#x60);/g, (entity) => ENTITIES[entity]!);

/** The hidden fields of the consent form, as a browser would post them back. */
function hiddenFields(html: string): [string, string][] {
  return [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [decodeHtml(m[1]!), decodeHtml(m[2]!)]);
}

async function openConsent(url: string): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** Opens the consent page and submits it; returns the response (redirects are not followed). */
async function decide(url: string, decision: 'allow' | 'deny', credentials: { login: string; password: string }): Promise<Response> {
  const page = await openConsent(url);
  expect(page.status, page.html).toBe(200);
  const form = new URLSearchParams([...hiddenFields(page.html), ['login', credentials.login], ['password', credentials.password], ['decision', decision]]);
  return fetch(new URL('/oauth/authorize', api.baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
}

function redirectParameters(response: Response): URLSearchParams {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
  return location.searchParams;
}

/** Signs in, allows, and returns the code with its PKCE pair. */
async function authorize(extra: Record<string, string> = {}, who = { login, password: PASSWORD }): Promise<{ code: string; pkce: Pkce }> {
  const pkce = newPkce();
  const parameters = redirectParameters(await decide(authorizationUrl(api.baseUrl, client, pkce, { state: 's-1', ...extra }), 'allow', who));
  expect(parameters.get('error')).toBeNull();
  expect(parameters.get('state')).toBe('s-1');
  return { code: parameters.get('code')!, pkce };
}

async function tokensFor(extra: Record<string, string> = {}): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { code, pkce } = await authorize(extra);
  const reply = await redeemCode(api.baseUrl, client, code, pkce.verifier);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** `url` with some query parameters set, and those given as '' removed. */
function changed(url: string, change: Record<string, string>): string {
  const result = new URL(url);
  for (const [name, value] of Object.entries(change)) {
    if (value === '') result.searchParams.delete(name);
    else result.searchParams.set(name, value);
  }
  return result.toString();
}

describe('the consent page', () => {
  it('names the app and every scope asked for, escaped, and cannot be framed or cached', async () => {
    const page = await openConsent(authorizationUrl(api.baseUrl, client, newPkce(), { scope: 'prospects.read accounts.read', state: 'x"y' }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('Pipeline &lt;Sync&gt;');
    expect(page.html).not.toContain('Pipeline <Sync>');
    expect(page.html).toContain('<code>prospects.read</code>: read prospects');
    expect(page.html).toContain('<code>accounts.read</code>: read accounts');
    expect(page.html).not.toContain('prospects.write');
    expect(hiddenFields(page.html)).toContainEqual(['state', 'x"y']);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['no client_id', { client_id: '' }, 'names no application'],
    ['an unknown client_id', { client_id: 'nobody' }, 'not registered'],
    ['an unregistered redirect_uri', { redirect_uri: 'http://127.0.0.1:9/elsewhere' }, 'has not registered'],
    ['a redirect_uri that only starts like a registered one', { redirect_uri: 'http://127.0.0.1:9/callback/more' }, 'has not registered'],
    ['a registered redirect_uri with another query', { redirect_uri: 'https://sync.test/oauth/callback?tenant=2' }, 'has not registered'],
    ['no redirect_uri', { redirect_uri: '' }, 'sent no redirect_uri'],
  ])('shows an error page and never redirects for %s', async (_, change, text) => {
    const page = await openConsent(changed(authorizationUrl(api.baseUrl, client, newPkce(), { state: 'abc' }), change));
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(page.html).toContain(text);
  });

  it.each([
    ['no PKCE challenge', { code_challenge: '' }, 'invalid_request'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a malformed PKCE challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a scope the app did not register', { scope: 'prospects.read accounts.write' }, 'invalid_scope'],
  ])('redirects back with an RFC 6749 error and the state for %s', async (_, change, error) => {
    const response = await fetch(changed(authorizationUrl(api.baseUrl, client, newPkce(), { state: 'keep me' }), change), { redirect: 'manual' });
    const parameters = redirectParameters(response);
    expect(parameters.get('error')).toBe(error);
    expect(parameters.get('error_description')).toBeTruthy();
    expect(parameters.get('state')).toBe('keep me');
    expect(parameters.get('code')).toBeNull();
  });

  it('a repeated parameter is refused', async () => {
    const url = `${authorizationUrl(api.baseUrl, client, newPkce())}&scope=prospects.read&scope=accounts.read`;
    expect(redirectParameters(await fetch(url, { redirect: 'manual' })).get('error')).toBe('invalid_request');
  });

  it('deny sends the user back with access_denied and the state, and grants nothing', async () => {
    const before = await api.sql`select count(*)::int as n from cadence_system.oauth_grants`;
    const response = await decide(authorizationUrl(api.baseUrl, client, newPkce(), { state: 'd' }), 'deny', { login: '', password: '' });
    const parameters = redirectParameters(response);
    expect(Object.fromEntries(parameters)).toEqual({ error: 'access_denied', error_description: 'The user denied the request', state: 'd' });
    const after = await api.sql`select count(*)::int as n from cadence_system.oauth_grants`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('a wrong password shows the page again with a problem and no code', async () => {
    const response = await decide(authorizationUrl(api.baseUrl, client, newPkce()), 'allow', { login, password: 'not the password' });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain('The e-mail address or the password is not correct');
    expect(response.headers.get('location')).toBeNull();
    const unknown = await decide(authorizationUrl(api.baseUrl, client, newPkce()), 'allow', { login: 'nobody@oauth.test', password: PASSWORD });
    expect(await unknown.text()).toContain('The e-mail address or the password is not correct');
  });

  it(`locks a login after ${MAX_FAILED_SIGN_INS} failed sign-ins in a row, until the lock period ends`, async () => {
    const user = await newSignedUpUser();
    const url = () => authorizationUrl(api.baseUrl, client, newPkce(), { state: 's-1' });
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) expect((await decide(url(), 'allow', { login: user.login, password: 'wrong password!' })).status).toBe(401);
    const locked = await decide(url(), 'allow', { login: user.login, password: PASSWORD });
    expect(locked.status).toBe(401);
    expect(await locked.text()).toContain('locked');
    offsetMs = SIGN_IN_LOCK_MS + 1000;
    expect((await decide(url(), 'allow', { login: user.login, password: PASSWORD })).status).toBe(303);
  });

  it('sign-in is case-insensitive in the login', async () => {
    await authorize({}, { login: login.toUpperCase(), password: PASSWORD });
  });
});

describe('the token endpoint', () => {
  it('trades a code for tokens that act for the user with the consented scopes only', async () => {
    const { code, pkce } = await authorize({ scope: 'prospects.read accounts.read' });
    const reply = await redeemCode(api.baseUrl, client, code, pkce.verifier);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toEqual({
      access_token: expect.stringMatching(/^cad_/),
      token_type: 'Bearer',
      expires_in: 7200,
      refresh_token: expect.stringMatching(/^car_/),
      scope: 'prospects.read accounts.read',
    });
    const token = reply.body.access_token;
    expect((await api.request('GET', '/api/v2/prospects', { token })).status).toBe(200);
    expect((await api.request('GET', '/api/v2/accounts', { token })).status).toBe(200);
    const write = await api.request('POST', '/api/v2/prospects', { token, body: { data: { type: 'prospect', attributes: { firstName: 'No' } } } });
    expect(write.status).toBe(403);
    expect(write.body.errors[0].id).toBe('insufficientScope');
    expect((await api.request('GET', '/api/v2/users', { token })).status).toBe(403);
  });

  it('acts for the user and the app: a webhook it creates is authorized by the user and created by the app', async () => {
    const user = await newSignedUpUser();
    const { code, pkce } = await authorize({ scope: 'webhooks.all' }, { login: user.login, password: PASSWORD });
    const token = (await redeemCode(api.baseUrl, client, code, pkce.verifier)).body.access_token;
    const created = await api.request('POST', '/api/v2/webhooks', { token, body: { data: { type: 'webhook', attributes: { url: 'https://hooks.test/oauth' } } } });
    expect(created.status).toBe(201);
    expect(created.body.data.relationships.authorizer.data).toEqual({ type: 'user', id: user.userId });
    expect(created.body.data.attributes.creatorAppName).toBe('Pipeline <Sync>');
  });

  it('the access token lives two hours', async () => {
    const { access_token: token } = await tokensFor();
    const [row] =
      await api.sql`select extract(epoch from expires_at - now())::int as seconds from cadence_system.access_tokens where grant_id is not null order by created_at desc limit 1`;
    expect(row!.seconds).toBeGreaterThan(7200 - 60);
    expect(row!.seconds).toBeLessThanOrEqual(7200);
    await api.sql`update cadence_system.access_tokens set expires_at = now() - interval '1 second' where grant_id is not null`;
    const expired = await api.request('GET', '/api/v2/prospects', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0].detail).toBe('The access token has expired');
  });

  it('accepts client_secret_post as well as HTTP Basic', async () => {
    const { code, pkce } = await authorize();
    const reply = await tokenRequest(
      api.baseUrl,
      client,
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: pkce.verifier },
      { auth: 'post' },
    );
    expect(reply.status).toBe(200);
  });

  it('refuses a PKCE verifier that does not match, and the code stays unused', async () => {
    const { code, pkce } = await authorize();
    const wrong = await redeemCode(api.baseUrl, client, code, newPkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge (PKCE)' });
    expect((await redeemCode(api.baseUrl, client, code, pkce.verifier)).status).toBe(200);
  });

  it('a code used twice fails and revokes the tokens it gave', async () => {
    const { code, pkce } = await authorize();
    const first = await redeemCode(api.baseUrl, client, code, pkce.verifier);
    expect((await api.request('GET', '/api/v2/prospects', { token: first.body.access_token })).status).toBe(200);
    const again = await redeemCode(api.baseUrl, client, code, pkce.verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await api.request('GET', '/api/v2/prospects', { token: first.body.access_token })).status).toBe(401);
    expect((await refresh(api.baseUrl, client, first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it.each([
    [
      'a redirect_uri other than the authorization request’s',
      (f: Record<string, string>) => ({ ...f, redirect_uri: 'https://sync.test/oauth/callback?tenant=1' }),
      'invalid_grant',
    ],
    ['no code_verifier', (f: Record<string, string>) => ({ ...f, code_verifier: '' }), 'invalid_request'],
    ['a malformed code_verifier', (f: Record<string, string>) => ({ ...f, code_verifier: 'short' }), 'invalid_request'],
    ['no redirect_uri', (f: Record<string, string>) => ({ ...f, redirect_uri: '' }), 'invalid_request'],
    ['an unknown code', (f: Record<string, string>) => ({ ...f, code: 'cac_nothing' }), 'invalid_grant'],
  ])('refuses %s', async (_, change, error) => {
    const { code, pkce } = await authorize();
    const fields = Object.fromEntries(
      Object.entries(change({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: pkce.verifier })).filter(([, v]) => v !== ''),
    );
    const reply = await tokenRequest(api.baseUrl, client, fields);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe(error);
  });

  it('a code expires after ten minutes', async () => {
    const { code, pkce } = await authorize();
    offsetMs = 10 * 60 * 1000 + 1000;
    expect((await redeemCode(api.baseUrl, client, code, pkce.verifier)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code has expired',
    });
  });

  it('a code is good only for the client it was issued to', async () => {
    const { code, pkce } = await authorize();
    const reply = await redeemCode(api.baseUrl, { ...otherClient, redirectUri: client.redirectUri }, code, pkce.verifier);
    expect(reply.body.error).toBe('invalid_grant');
  });

  it.each([
    ['a wrong client secret', { clientSecret: 'cas_wrong' }],
    ['an unknown client', { clientId: 'nobody' }],
  ])('refuses %s with 401 invalid_client', async (_, change) => {
    const reply = await tokenRequest(api.baseUrl, { ...client, ...change }, { grant_type: 'refresh_token', refresh_token: 'x' });
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe('invalid_client');
    expect(reply.headers.get('www-authenticate')).toBe('Basic realm="cadence"');
  });

  it('refuses other grant types, other media types and repeated parameters', async () => {
    expect((await tokenRequest(api.baseUrl, client, { grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    expect((await tokenRequest(api.baseUrl, client, {})).body.error).toBe('invalid_request');
    const json = await fetch(new URL('/oauth/token', api.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token' }),
    });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe('invalid_request');
    const repeated = await fetch(new URL('/oauth/token', api.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&grant_type=authorization_code',
    });
    expect((await repeated.json()).error).toBe('invalid_request');
  });
});

describe('malformed input never gets a 500', () => {
  it.each(['client_id', 'redirect_uri', 'state', 'scope', 'code_challenge'])('a NUL in %s of the authorization link', async (name) => {
    const url = new URL(authorizationUrl(api.baseUrl, client, newPkce(), { state: 's', scope: 'prospects.read' }));
    url.searchParams.set(name, `${url.searchParams.get(name)}\0`);
    const page = await openConsent(url.toString());
    expect(page.status).toBe(400);
    expect(page.html).toContain('malformed');
  });

  it('a NUL in the login, the client id or the code', async () => {
    const response = await decide(authorizationUrl(api.baseUrl, client, newPkce()), 'allow', { login: `${login}\0`, password: PASSWORD });
    expect(response.status).toBe(401);
    const nulClient = await tokenRequest(api.baseUrl, { clientId: 'a\0b', clientSecret: 'x' }, { grant_type: 'refresh_token', refresh_token: 'x' }, { auth: 'post' });
    expect(nulClient.status).toBe(401);
    const nulCode = await tokenRequest(api.baseUrl, client, {
      grant_type: 'authorization_code',
      code: 'a\0b',
      redirect_uri: client.redirectUri,
      code_verifier: newPkce().verifier,
    });
    expect(nulCode.body.error).toBe('invalid_grant');
    const invitation = await fetch(new URL('/account/invitations/inv%00x', api.baseUrl));
    expect(invitation.status).toBe(404);
  });

  it('a body that is not a form, and an oversized one', async () => {
    const json = await fetch(new URL('/oauth/authorize', api.baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(json.status).toBe(400);
    const huge = await fetch(new URL('/oauth/token', api.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${'x'.repeat(100_000)}`,
    });
    expect(huge.status).toBe(413);
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; the old one no longer works', async () => {
    const first = await tokensFor();
    const second = await refresh(api.baseUrl, client, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect((await api.request('GET', '/api/v2/prospects', { token: second.body.access_token })).status).toBe(200);
    const third = await refresh(api.baseUrl, client, second.body.refresh_token);
    expect(third.status).toBe(200);
  });

  it('a reused refresh token revokes every token of its grant', async () => {
    const first = await tokensFor();
    const second = await refresh(api.baseUrl, client, first.refresh_token);
    const reuse = await refresh(api.baseUrl, client, first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect(reuse.body.error_description).toContain('already been used');
    for (const token of [first.access_token, second.body.access_token]) {
      expect((await api.request('GET', '/api/v2/prospects', { token })).status).toBe(401);
    }
    // The newest refresh token, which the thief might hold, is dead too.
    expect((await refresh(api.baseUrl, client, second.body.refresh_token)).body.error).toBe('invalid_grant');
    // Other grants of the same user are untouched.
    const other = await tokensFor();
    expect((await api.request('GET', '/api/v2/prospects', { token: other.access_token })).status).toBe(200);
  });

  it('may narrow the scopes but never widen them', async () => {
    const first = await tokensFor({ scope: 'prospects.read accounts.read' });
    const narrowed = await refresh(api.baseUrl, client, first.refresh_token, { scope: 'accounts.read' });
    expect(narrowed.body.scope).toBe('accounts.read');
    expect((await api.request('GET', '/api/v2/prospects', { token: narrowed.body.access_token })).status).toBe(403);
    const wider = await refresh(api.baseUrl, client, narrowed.body.refresh_token, { scope: 'prospects.write' });
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('belong to their client', async () => {
    const first = await tokensFor();
    expect((await refresh(api.baseUrl, { ...otherClient }, first.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('expire after sixty days', async () => {
    const first = await tokensFor();
    offsetMs = 60 * 24 * 60 * 60 * 1000 + 1000;
    expect((await refresh(api.baseUrl, client, first.refresh_token)).body).toEqual({ error: 'invalid_grant', error_description: 'The refresh token has expired' });
  });

  it('stop working when the app is uninstalled from the org', async () => {
    const first = await tokensFor();
    await installApp(api.sql, { appId: clientAppId, orgId: org.orgId });
    await uninstallApp(api.sql, { appId: clientAppId, orgId: org.orgId });
    expect((await api.request('GET', '/api/v2/prospects', { token: first.access_token })).status).toBe(401);
    expect((await refresh(api.baseUrl, client, first.refresh_token)).body).toEqual({ error: 'invalid_grant', error_description: 'This authorization has been revoked' });
  });

  it('do not work while the org is locked; sign-in is refused too', async () => {
    const first = await tokensFor();
    await lockOrg(api.sql, org.orgId);
    try {
      expect((await refresh(api.baseUrl, client, first.refresh_token)).body.error_description).toContain('locked or deleted');
      const response = await decide(authorizationUrl(api.baseUrl, client, newPkce()), 'allow', { login, password: PASSWORD });
      expect(response.status).toBe(401);
      expect(await response.text()).toContain('Your organisation is locked or deleted');
    } finally {
      await unlockOrg(api.sql, org.orgId);
    }
    expect((await refresh(api.baseUrl, client, first.refresh_token)).status).toBe(200);
  });
});

describe('invitations', () => {
  it('let a user set a password once, then sign in', async () => {
    const { userId } = await createUser(api.sql, { orgId: org.orgId, email: 'invited@oauth.test', admin: false });
    const invitation = await inviteUser(api.sql, { orgId: org.orgId, userId });
    const url = new URL(`/account/invitations/${invitation.token}`, api.baseUrl);
    const form = await fetch(url);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('invited@oauth.test');
    const post = (password: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ password }).toString() });
    const short = await post('short');
    expect(short.status).toBe(422);
    expect(await short.text()).toContain('at least 10 characters');
    const set = await post('a long enough password');
    expect(set.status).toBe(200);
    expect(await set.text()).toContain('You can now sign in as invited@oauth.test');
    const reused = await post('another long password');
    expect(reused.status).toBe(404);
    expect(await reused.text()).toContain('already been used');
    await authorize({}, { login: 'invited@oauth.test', password: 'a long enough password' });
  });

  it('expire after seven days, and unknown ones are refused', async () => {
    const { userId } = await createUser(api.sql, { orgId: org.orgId, email: 'late@oauth.test', admin: false });
    const invitation = await inviteUser(api.sql, { orgId: org.orgId, userId });
    offsetMs = 7 * 24 * 60 * 60 * 1000 + 1000;
    const expired = await fetch(new URL(`/account/invitations/${invitation.token}`, api.baseUrl));
    expect(expired.status).toBe(404);
    expect(await expired.text()).toContain('expired');
    const unknown = await fetch(new URL('/account/invitations/inv_nothing', api.baseUrl));
    expect(unknown.status).toBe(404);
  });

  it('a login belongs to one user only', async () => {
    // In one org the address itself is taken (users_email_unique): the user with it is in another.
    const other = await api.newOrg('Same address elsewhere');
    const { userId } = await createUser(api.sql, { orgId: other.orgId, email: login, admin: false });
    await expect(setPassword(api.sql, { orgId: other.orgId, userId, password: PASSWORD })).rejects.toThrow(`The login ${login} already belongs to another user`);
  });
});

describe('cadence user set-password and user invite', () => {
  const cadence = (args: string[], input = '') => runCadence(api.databaseUrl, args, { input, env: { PUBLIC_BASE_URL: 'https://cadence.example' } });

  it('sets a password read from standard input, and prints an invitation link', async () => {
    const { userId } = await createUser(api.sql, { orgId: org.orgId, email: 'cli@oauth.test', admin: false });
    const args = ['user', 'set-password', '--org', String(org.orgId), '--user', String(userId)];
    const set = await cadence(args, 'a password from the cli\n');
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(set.stdout)).toEqual({ orgId: org.orgId, userId, login: 'cli@oauth.test' });
    await authorize({}, { login: 'cli@oauth.test', password: 'a password from the cli' });

    const short = await cadence(args, 'short\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('The password must have at least 10 characters');
    const empty = await cadence(args, '');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('standard input');

    const invited = await cadence(['user', 'invite', '--org', String(org.orgId), '--user', String(userId)]);
    expect(invited).toMatchObject({ code: 0, stderr: '' });
    const printed = JSON.parse(invited.stdout);
    expect(printed).toEqual({
      invitationUrl: expect.stringMatching(/^https:\/\/cadence\.example\/account\/invitations\/inv_/),
      login: 'cli@oauth.test',
      expiresAt: expect.any(String),
    });
    const path = new URL(printed.invitationUrl).pathname;
    expect((await fetch(new URL(path, api.baseUrl))).status).toBe(200);
    // Four `cadence` processes, each starting tsx: over the default 30 s on a loaded machine.
  }, 120_000);
});

describe('housekeeping', () => {
  it('purge_expired_tokens removes codes, refresh tokens and grants long expired, and nothing current', async () => {
    const old = await tokensFor();
    const current = await tokensFor();
    const [oldGrant] = await api.sql`select grant_id from cadence_system.access_tokens where token_hash = ${hashToken(old.access_token)}`;
    await api.sql`update cadence_system.oauth_grants set created_at = now() - interval '90 days' where id = ${oldGrant!.grant_id}`;
    for (const table of ['access_tokens', 'oauth_refresh_tokens', 'oauth_codes']) {
      await api.sql`update ${api.sql('cadence_system.' + table)} set expires_at = now() - interval '31 days' where grant_id = ${oldGrant!.grant_id}`;
    }
    const tasks = createTaskList({ sql: api.sql, log: pino({ level: 'silent' }), delivery: { resolver: async () => [], allowedHosts: [] } as never });
    await (tasks.purge_expired_tokens as () => Promise<void>)();
    expect(await api.sql`select 1 from cadence_system.oauth_grants where id = ${oldGrant!.grant_id}`).toHaveLength(0);
    expect((await refresh(api.baseUrl, client, current.refresh_token)).status).toBe(200);
  });
});
