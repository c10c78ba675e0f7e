import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../../runtime/admin/index.js';
import { createApp } from '../../runtime/apps/index.js';
import { setPassword } from '../../runtime/oauth/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { CHROMIUM_ARGS, ensureChromium } from '../helpers/chromium.js';
import { authorizationUrl, newPkce, redeemCode, refresh, type OAuthTestClient } from '../helpers/oauth-client.js';

/**
 * The OAuth flow as a person goes through it: headless Chromium opens the consent page, signs
 * in and clicks Allow or Deny; the app's redirect URI is a real HTTP server on 127.0.0.1 that
 * records what arrives.
 */

let api: TestApi;
let browser: Browser;
let page: Page;
let callbackServer: Server;
let callbacks: URL[] = [];
let client: OAuthTestClient;
const LOGIN = 'browser.user@oauth.test';
const PASSWORD = 'a password for the browser';

beforeAll(async () => {
  const executablePath = ensureChromium();
  api = await startTestApi();
  callbackServer = createServer((request, response) => {
    const url = new URL(request.url!, 'http://127.0.0.1');
    // Chromium asks for /favicon.ico too; only the redirect URI's path counts as a callback.
    if (url.pathname === '/callback') callbacks.push(url);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Back at the app</title><p>Back at the app</p>');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  const registered = await createApp(api.sql, { name: 'Browser Sync', redirectUris: [redirectUri], oauthScopes: ['prospects.read', 'accounts.read'], s2sScopes: [] });
  client = { clientId: registered.clientId, clientSecret: registered.clientSecret, redirectUri };
  const { userId } = await createUser(api.sql, { orgId: api.org.orgId, email: LOGIN, admin: false });
  await setPassword(api.sql, { orgId: api.org.orgId, userId, password: PASSWORD });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callbackServer?.close(resolve));
  await api?.close();
});
beforeEach(async () => {
  callbacks = [];
  page = await (await browser.newContext()).newPage();
});

/** Opens the consent page, fills in the sign-in and clicks a button. */
async function consent(url: string, button: 'Allow' | 'Deny', password = PASSWORD): Promise<void> {
  await page.goto(url);
  await page.getByLabel('E-mail address').fill(LOGIN);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: button }).click();
}

async function backAtTheApp(): Promise<URLSearchParams> {
  await page.waitForURL(`${client.redirectUri}?**`);
  expect(await page.textContent('p')).toBe('Back at the app');
  expect(callbacks).toHaveLength(1);
  return callbacks[0]!.searchParams;
}

describe('OAuth in a browser', () => {
  it('signs in, consents, and the app trades the code for tokens that work and refresh', async () => {
    const pkce = newPkce();
    await page.goto(authorizationUrl(api.baseUrl, client, pkce, { state: 'st-1', scope: 'prospects.read' }));
    expect(await page.title()).toBe('Allow Browser Sync · Cadence');
    const text = await page.textContent('body');
    expect(text).toContain('Browser Sync asks to act for you');
    expect(text).toContain('prospects.read: read prospects');
    expect(text).not.toContain('accounts.read');
    await consent(page.url(), 'Allow');
    const parameters = await backAtTheApp();
    expect(parameters.get('state')).toBe('st-1');
    const tokens = await redeemCode(api.baseUrl, client, parameters.get('code')!, pkce.verifier);
    expect(tokens.status).toBe(200);
    expect((await api.request('GET', '/api/v2/prospects', { token: tokens.body.access_token })).status).toBe(200);
    expect((await api.request('GET', '/api/v2/accounts', { token: tokens.body.access_token })).status).toBe(403);

    const rotated = await refresh(api.baseUrl, client, tokens.body.refresh_token);
    expect(rotated.status).toBe(200);
    // The first refresh token is used up; presenting it again revokes the whole grant.
    const reused = await refresh(api.baseUrl, client, tokens.body.refresh_token);
    expect(reused.body.error).toBe('invalid_grant');
    expect((await api.request('GET', '/api/v2/prospects', { token: rotated.body.access_token })).status).toBe(401);
    expect((await refresh(api.baseUrl, client, rotated.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('denying sends the user back with access_denied and the state', async () => {
    await consent(authorizationUrl(api.baseUrl, client, newPkce(), { state: 'st-2' }), 'Deny');
    const parameters = await backAtTheApp();
    expect(parameters.get('error')).toBe('access_denied');
    expect(parameters.get('state')).toBe('st-2');
    expect(parameters.get('code')).toBeNull();
  });

  it('a code redeemed with the wrong PKCE verifier is refused', async () => {
    await consent(authorizationUrl(api.baseUrl, client, newPkce(), { state: 'st-3' }), 'Allow');
    const code = (await backAtTheApp()).get('code')!;
    const reply = await redeemCode(api.baseUrl, client, code, newPkce().verifier);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_grant');
  });

  it('an unregistered redirect URI stops at an error page and never reaches it', async () => {
    const url = authorizationUrl(api.baseUrl, { ...client, redirectUri: `${client.redirectUri}/other` }, newPkce(), { state: 'st-4' });
    const response = await page.goto(url);
    expect(response!.status()).toBe(400);
    expect(await page.textContent('h1')).toBe('This sign-in link is not valid');
    expect(await page.textContent('body')).toContain('has not registered');
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
    expect(callbacks).toHaveLength(0);
  });

  it('a wrong password keeps the user on the page with a message', async () => {
    await consent(authorizationUrl(api.baseUrl, client, newPkce(), { state: 'st-5' }), 'Allow', 'not my password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail address or the password is not correct');
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
    expect(callbacks).toHaveLength(0);
  });
});
