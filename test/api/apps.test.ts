import { createHmac, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addKey, createApp, deleteOrg, installApp, lockOrg, revokeKey, uninstallApp, unlockOrg } from '../../runtime/apps/index.js';
import { lookupToken } from '../../runtime/auth/index.js';
import { runCadence } from '../helpers/cli.js';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api.js';

/**
 * SPEC.md's server-to-server access: an app signs app tokens (RS256 JWTs) with its private
 * keys, trades an install setup token for its install, and an install id for one-hour access
 * tokens that act for the app alone. The server's clock is shifted with `offsetMs` to step
 * through the time windows; the app's tokens are minted against that same clock.
 */

let api: TestApi;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const nowSeconds = () => Math.floor(clock().getTime() / 1000);

beforeAll(async () => {
  api = await startTestApi({ clock });
});
afterAll(async () => {
  await api?.close();
});
beforeEach(() => {
  offsetMs = 0;
});

interface KeyPair {
  publicPem: string;
  privateKey: KeyObject;
}

function newKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT built by hand, so forged ones can be made as easily as good ones. */
function jwt(header: Record<string, unknown>, claims: Record<string, unknown>, signature: (input: string) => string): string {
  const input = `${base64url(header)}.${base64url(claims)}`;
  return `${input}.${signature(input)}`;
}

const rs256 = (key: KeyObject) => (input: string) => sign('sha256', Buffer.from(input), key).toString('base64url');

/** A well-formed app token: RS256, issued now by the server's clock, living an hour. */
function appToken(appId: string, key: KeyPair, claims: Record<string, unknown> = {}): string {
  const iat = nowSeconds();
  return jwt({ alg: 'RS256', typ: 'JWT' }, { iss: appId, iat, exp: iat + 3600, ...claims }, rs256(key.privateKey));
}

interface TestApp {
  appId: string;
  key: KeyPair;
}

async function registeredApp(s2sScopes = ['prospects.read', 'accounts.all']): Promise<TestApp> {
  const { appId } = await createApp(api.sql, { name: 'Dialer', redirectUris: ['https://dialer.test/callback'], oauthScopes: [], s2sScopes });
  const key = newKeyPair();
  await addKey(api.sql, { appId, publicKeyPem: key.publicPem });
  return { appId, key };
}

const asApp = (token: string) => ({ token: null, headers: { authorization: `Bearer ${token}` } });

function setup(app: TestApp, setupToken: string, token = appToken(app.appId, app.key)): Promise<ApiResponse> {
  return api.request('POST', `/api/app/installs/${setupToken}/actions/setupToken`, asApp(token));
}

function accessToken(app: TestApp, installId: string, token = appToken(app.appId, app.key)): Promise<ApiResponse> {
  return api.request('POST', `/api/app/installs/${installId}/actions/accessToken`, asApp(token));
}

const error = (status: number, id: string, title: string, detail: string) => ({ errors: [{ id, status: String(status), title, detail }] });
const invalidAppToken = (detail: string) => error(401, 'unauthorized', 'Unauthorized', `Invalid app token: ${detail}`);

describe('install and access token', () => {
  it('setup token -> install, install id -> access token that reads within its scopes', async () => {
    const app = await registeredApp();
    const issued = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });
    expect(Date.parse(issued.expiresAt) - Date.now()).toBeGreaterThan(14 * 60 * 1000);

    const installed = await setup(app, issued.installSetupToken);
    expect(installed.status).toBe(200);
    const [row] = await api.sql`select installed_at from cadence_system.app_installs where id = ${issued.installId}`;
    expect(installed.body).toEqual({
      data: {
        type: 'install',
        id: issued.installId,
        attributes: { installedAt: row!.installed_at.toISOString() },
        relationships: {
          app: { data: { type: 'app', id: app.appId } },
          org: { data: { type: 'org', id: String(api.org.orgId) }, links: { api: `${api.baseUrl}/api/v2` } },
        },
      },
    });

    const granted = await accessToken(app, issued.installId);
    expect(granted.status).toBe(200);
    const { accessToken: token } = granted.body.data.meta;
    expect(token).toMatch(/^cad_/);
    // The install resource again, as the real service's S2S example reads the org from it.
    expect(granted.body.data).toMatchObject({
      type: 'install',
      id: issued.installId,
      relationships: { org: { data: { type: 'org', id: String(api.org.orgId) }, links: { api: `${api.baseUrl}/api/v2` } } },
      meta: { expiresAt: expect.any(String) },
    });
    const lifetime = Date.parse(granted.body.data.meta.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000);

    const prospects = await api.request('GET', '/api/v2/prospects', { token });
    expect(prospects.status).toBe(200);
    // An app registered after 2024-10-13 does not count by default (SPEC.md, Versioning 3).
    expect(prospects.body.meta).toEqual({ count: null });
    const tasks = await api.request('GET', '/api/v2/tasks', { token });
    expect(tasks.status).toBe(403);
    expect(tasks.body.errors[0].detail).toBe('This request needs the scope tasks.read (or tasks.all)');
    const write = await api.request('POST', '/api/v2/prospects', { token, body: { data: { type: 'prospect', attributes: { firstName: 'Ada' } } } });
    expect(write.status).toBe(403);
    // A write that needs no user works with accounts.all.
    const account = await api.request('POST', '/api/v2/accounts', { token, body: { data: { type: 'account', attributes: { name: 'Via app' } } } });
    expect(account.status).toBe(201);
  });

  it("the real service's S2S example: access token, org from the install's relationships, then an external event", async () => {
    const app = await registeredApp(['prospects.read', 'events.write']);
    const issued = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });
    // As the example does: post with a form content type and no body.
    const granted = await api.request('POST', `/api/app/installs/${issued.installId}/actions/accessToken`, {
      ...asApp(appToken(app.appId, app.key)),
      headers: { authorization: `Bearer ${appToken(app.appId, app.key)}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(granted.status).toBe(200);
    expect(granted.body.data.relationships.org.data.id).toBe(String(api.org.orgId));
    const token = granted.body.data.meta.accessToken;
    const prospect = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 'Event' } } } });
    const event = await api.request('POST', '/api/v2/events', {
      token,
      headers: { 'content-type': 'application/json' },
      body: {
        data: {
          type: 'event',
          attributes: { name: 'demo_booked', externalUrl: 'https://app.example.test/demo', body: 'Booked a demo' },
          relationships: { prospect: { data: { type: 'prospect', id: prospect.body.data.id } } },
        },
      },
    });
    expect(event.status).toBe(201);
    expect(event.body.data.attributes.name).toBe('demo_booked');
  });

  it('the token holds the app and no user; each request gives a new token', async () => {
    const app = await registeredApp(['users.read']);
    const { installId } = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });
    const first = (await accessToken(app, installId)).body.data.meta.accessToken;
    const second = (await accessToken(app, installId)).body.data.meta.accessToken;
    expect(first).not.toBe(second);
    const rows = await api.sql`select user_id, app_guid, scopes from cadence_system.access_tokens where app_guid = ${app.appId}`;
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { user_id: null, app_guid: app.appId, scopes: ['users.read'] },
      { user_id: null, app_guid: app.appId, scopes: ['users.read'] },
    ]);
    expect((await api.request('GET', '/api/v2/users', { token: first })).status).toBe(200);
    const [registered] = await api.sql`select created_at from cadence_system.apps where guid = ${app.appId}`;
    expect(await lookupToken(api.sql, first)).toEqual({
      orgId: api.org.orgId,
      userId: null,
      admin: false,
      scopes: new Set(['users.read']),
      appId: app.appId,
      appName: 'Dialer',
      appRegisteredAt: registered!.created_at,
    });
  });

  it('installing again while installed keeps the install id and replaces the setup token', async () => {
    const app = await registeredApp();
    const org = await api.newOrg();
    const first = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    const again = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    expect(again.installId).toBe(first.installId);
    expect((await setup(app, first.installSetupToken)).status).toBe(404);
    expect((await setup(app, again.installSetupToken)).body.data.id).toBe(first.installId);
  });

  it('the setup token works for 15 minutes, and can be redeemed again within them', async () => {
    const app = await registeredApp();
    const org = await api.newOrg();
    const { installId, installSetupToken } = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    offsetMs = 14 * 60 * 1000;
    expect((await setup(app, installSetupToken)).body.data.id).toBe(installId);
    expect((await setup(app, installSetupToken)).body.data.id).toBe(installId);
    offsetMs = 15 * 60 * 1000 + 1000;
    const late = await setup(app, installSetupToken);
    expect(late.status).toBe(410);
    expect(late.body).toEqual(
      error(
        410,
        'setupTokenExpired',
        'Gone',
        'The install setup token has expired: it must be used within 15 minutes of being issued. Install the app again for a new one',
      ),
    );
    // The install itself is fine: the app that knows its id still gets tokens.
    expect((await accessToken(app, installId)).status).toBe(200);
  });

  it("another app's setup token or install is not found", async () => {
    const app = await registeredApp();
    const other = await registeredApp();
    const issued = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });
    expect((await setup(other, issued.installSetupToken)).body).toEqual(
      error(404, 'resourceNotFound', 'Resource Not Found', 'No install of this app has this setup token'),
    );
    expect((await setup(app, 'ist_no-such-token')).status).toBe(404);
    expect((await accessToken(other, issued.installId)).body).toEqual(error(404, 'resourceNotFound', 'Resource Not Found', 'This app has no install with this id'));
    expect((await accessToken(app, randomUUID())).status).toBe(404);
  });

  // Each was a 500: PostgreSQL text cannot hold NUL, and the id went to it as it came.
  it.each(['x%00y', `${randomUUID()}%00`, 'not-a-guid', randomUUID().toUpperCase()])('an install id %s is not found', async (installId) => {
    const app = await registeredApp();
    expect((await accessToken(app, installId)).body).toEqual(error(404, 'resourceNotFound', 'Resource Not Found', 'This app has no install with this id'));
    expect((await setup(app, installId)).body).toEqual(error(404, 'resourceNotFound', 'Resource Not Found', 'No install of this app has this setup token'));
  });

  it('an access token expires after one hour', async () => {
    const app = await registeredApp();
    const { installId } = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });
    // Tokens are checked against the database's clock: one issued "two hours ago" by the
    // server's clock expired an hour ago.
    offsetMs = -2 * 60 * 60 * 1000;
    const token = (await accessToken(app, installId)).body.data.meta.accessToken;
    offsetMs = 0;
    const response = await api.request('GET', '/api/v2/prospects', { token });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].detail).toBe('The access token has expired');
  });
});

describe('orgs and installs that cannot be used', () => {
  it('a locked org gets no access token and its tokens stop working, until unlocked', async () => {
    const app = await registeredApp();
    const org = await api.newOrg();
    const { installId } = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    const token = (await accessToken(app, installId)).body.data.meta.accessToken;
    await lockOrg(api.sql, org.orgId);
    expect((await accessToken(app, installId)).body).toEqual(error(403, 'orgLocked', 'Forbidden', 'The organisation of this install is locked'));
    expect((await api.request('GET', '/api/v2/prospects', { token })).status).toBe(401);
    await unlockOrg(api.sql, org.orgId);
    expect((await accessToken(app, installId)).status).toBe(200);
    expect((await api.request('GET', '/api/v2/prospects', { token })).status).toBe(200);
  });

  it('a deleted org gets no access token and no install', async () => {
    const app = await registeredApp();
    const org = await api.newOrg();
    const { installId, installSetupToken } = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    await deleteOrg(api.sql, org.orgId);
    const refusal = error(403, 'orgDeleted', 'Forbidden', 'The organisation of this install has been deleted');
    expect((await accessToken(app, installId)).body).toEqual(refusal);
    expect((await setup(app, installSetupToken)).body).toEqual(refusal);
  });

  it('uninstalling refuses new tokens, ends the issued ones, and a new install has a new id', async () => {
    const app = await registeredApp();
    const org = await api.newOrg();
    const { installId, installSetupToken } = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    const token = (await accessToken(app, installId)).body.data.meta.accessToken;
    const { uninstalledAt } = await uninstallApp(api.sql, { appId: app.appId, orgId: org.orgId });
    const refusal = error(403, 'appUninstalled', 'Forbidden', `The app was uninstalled from this organisation at ${uninstalledAt}`);
    expect((await accessToken(app, installId)).body).toEqual(refusal);
    expect((await setup(app, installSetupToken)).body).toEqual(refusal);
    expect((await api.request('GET', '/api/v2/prospects', { token })).body.errors[0].detail).toBe('The access token is not valid');
    const reinstalled = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    expect(reinstalled.installId).not.toBe(installId);
    expect((await accessToken(app, reinstalled.installId)).status).toBe(200);
  });
});

describe('app keys', () => {
  it('any key not revoked signs app tokens; a revoked one no longer does', async () => {
    const app = await registeredApp();
    const second = newKeyPair();
    const { keyId: secondId } = await addKey(api.sql, { appId: app.appId, publicKeyPem: second.publicPem });
    const { installId } = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });
    expect((await accessToken(app, installId, appToken(app.appId, app.key))).status).toBe(200);
    expect((await accessToken(app, installId, appToken(app.appId, second))).status).toBe(200);
    await revokeKey(api.sql, { appId: app.appId, keyId: secondId });
    expect((await accessToken(app, installId, appToken(app.appId, second))).body).toEqual(invalidAppToken("the signature matches none of the app's registered keys"));
    expect((await accessToken(app, installId, appToken(app.appId, app.key))).status).toBe(200);
  });

  it('only RSA public keys of 2048 bits or more are registered', async () => {
    const { appId } = await registeredApp();
    const add = (publicKeyPem: string) => addKey(api.sql, { appId, publicKeyPem });
    await expect(add('not a key')).rejects.toThrow(/^not a PEM-encoded public key/);
    const { privateKey } = newKeyPair();
    await expect(add(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).rejects.toThrow(/^this is a private key/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await expect(add(ec)).rejects.toThrow('app keys must be RSA keys, not ec');
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await expect(add(small)).rejects.toThrow('RSA keys must have at least 2048 bits, not 1024');
    await expect(addKey(api.sql, { appId: randomUUID(), publicKeyPem: newKeyPair().publicPem })).rejects.toThrow(/^app .* does not exist$/);
  });
});

describe('forged and unacceptable app tokens: 401', () => {
  let app: TestApp;
  let installId: string;
  beforeAll(async () => {
    app = await registeredApp();
    ({ installId } = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId }));
  });

  const claims = () => ({ iss: app.appId, iat: nowSeconds(), exp: nowSeconds() + 3600 });
  const cases: [string, () => string, string][] = [
    ['signed with a key the app did not register', () => appToken(app.appId, newKeyPair()), "the signature matches none of the app's registered keys"],
    ['alg none, unsigned', () => jwt({ alg: 'none', typ: 'JWT' }, claims(), () => ''), 'it must be signed with RS256, not none'],
    [
      'HS256 keyed with the public key PEM',
      () => jwt({ alg: 'HS256', typ: 'JWT' }, claims(), (input) => createHmac('sha256', app.key.publicPem).update(input).digest('base64url')),
      'it must be signed with RS256, not HS256',
    ],
    [
      'RS512',
      () => jwt({ alg: 'RS512' }, claims(), (input) => sign('sha512', Buffer.from(input), app.key.privateKey).toString('base64url')),
      'it must be signed with RS256, not RS512',
    ],
    ['no alg', () => jwt({ typ: 'JWT' }, claims(), rs256(app.key.privateKey)), 'its header must name the algorithm: alg RS256'],
    ['expired', () => appToken(app.appId, app.key, { iat: nowSeconds() - 3700, exp: nowSeconds() - 100 }), 'it has expired (exp is past)'],
    [
      'issued in the future',
      () => appToken(app.appId, app.key, { iat: nowSeconds() + 120, exp: nowSeconds() + 1800 }),
      'it was issued in the future (iat is later than now)',
    ],
    ['living longer than an hour', () => appToken(app.appId, app.key, { exp: nowSeconds() + 3601 }), 'it lives 3601 seconds (exp - iat); at most 3600 are allowed'],
    ['with exp before iat', () => appToken(app.appId, app.key, { exp: nowSeconds() - 1 }), 'exp must be later than iat'],
    ['without iat', () => appToken(app.appId, app.key, { iat: undefined }), 'the iat claim (issued at, epoch seconds) is required'],
    ['without exp', () => appToken(app.appId, app.key, { exp: '3600' }), 'the exp claim (expires at, epoch seconds) is required'],
    ['of an unknown iss', () => appToken(randomUUID(), app.key), 'no app has the GUID in iss'],
    // PostgreSQL text cannot hold NUL: this iss was a 500 when it was looked up as it came.
    ['with a NUL in iss', () => appToken(`${app.appId}\u0000`, app.key), 'no app has the GUID in iss'],
    ['of an iss that is no GUID', () => appToken('dialer', app.key), 'no app has the GUID in iss'],
    ['without iss', () => appToken('', app.key), 'the iss claim must name the app GUID'],
    ['not a JWT', () => 'cad_an-access-token', 'it is not a JWT in compact serialization'],
    [
      'with a payload changed after signing',
      () => {
        const [header, , signature] = appToken(app.appId, app.key).split('.');
        return `${header}.${base64url({ ...claims(), iss: app.appId, admin: true })}.${signature}`;
      },
      "the signature matches none of the app's registered keys",
    ],
  ];

  it.each(cases)('%s', async (_name, token, detail) => {
    const response = await accessToken(app, installId, token());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect(response.body).toEqual(invalidAppToken(detail));
  });

  it('clocks may disagree by 30 seconds either way', async () => {
    const skewed = appToken(app.appId, app.key, { iat: nowSeconds() + 20, exp: nowSeconds() + 20 + 3600 });
    expect((await accessToken(app, installId, skewed)).status).toBe(200);
    const justExpired = appToken(app.appId, app.key, { iat: nowSeconds() - 3620, exp: nowSeconds() - 20 });
    expect((await accessToken(app, installId, justExpired)).status).toBe(200);
  });

  it('no Authorization header', async () => {
    const response = await api.request('POST', `/api/app/installs/${installId}/actions/accessToken`, { token: null });
    expect(response.body).toEqual(
      error(401, 'unauthorized', 'Unauthorized', "An Authorization: Bearer <APP_TOKEN> header is required (a JWT signed with one of the app's keys)"),
    );
  });

  it('an access token is not an app token, and an app token is not an access token', async () => {
    expect((await accessToken(app, installId, api.org.token)).status).toBe(401);
    expect((await api.request('GET', '/api/v2/prospects', { token: appToken(app.appId, app.key) })).status).toBe(401);
  });
});

describe('writes that need a user', () => {
  async function s2sToken(): Promise<{ app: TestApp; token: string }> {
    const app = await registeredApp(['webhooks.all']);
    const { installId } = await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });
    return { app, token: (await accessToken(app, installId)).body.data.meta.accessToken };
  }
  const webhookBody = (relationships: Record<string, unknown> = {}) => ({
    data: { type: 'webhook', attributes: { url: 'https://hooks.example.test/s2s', secret: 'app-secret' }, relationships },
  });

  it('an app creating a webhook with an S2S token must name its authorizer: 422 at /data/relationships/authorizer', async () => {
    const { token } = await s2sToken();
    const response = await api.request('POST', '/api/v2/webhooks', { token, body: webhookBody() });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source).toEqual({ pointer: '/data/relationships/authorizer' });
    expect(response.body.errors[0].detail).toContain('authorizing user');
  });

  it('a webhook created with an S2S token names its authorizer, records creatorAppId and creatorAppName, and shows its secret to that app', async () => {
    const { app, token } = await s2sToken();
    const response = await api.request('POST', '/api/v2/webhooks', {
      token,
      body: webhookBody({ authorizer: { data: { type: 'user', id: api.org.userId } } }),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ creatorAppId: app.appId, creatorAppName: 'Dialer', secret: 'app-secret' });
    expect(response.body.data.relationships.authorizer.data).toEqual({ type: 'user', id: api.org.userId });
    const other = await s2sToken();
    const seenByOther = await api.request('GET', `/api/v2/webhooks/${response.body.data.id}`, { token: other.token });
    expect(seenByOther.body.data.attributes.secret).toBe('[REDACTED]');
  });

  it('a user token authorizes its own webhooks by default', async () => {
    const response = await api.request('POST', '/api/v2/webhooks', { body: webhookBody() });
    expect(response.body.data.relationships.authorizer.data).toEqual({ type: 'user', id: api.org.userId });
    expect(response.body.data.attributes.creatorAppId).toBeNull();
  });
});

describe('cadence app and org commands', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cadence-apps-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const cadence = (...args: string[]) => runCadence(api.databaseUrl, args);

  async function cadenceJson(...args: string[]): Promise<any> {
    const result = await cadence(...args);
    expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout);
  }

  it('create an app, add keys, install, use, revoke, uninstall; lock, unlock and delete an org', async () => {
    const created = await cadenceJson(
      'app',
      'create',
      '--name',
      'CLI app',
      '--redirect-uri',
      'https://cli.test/a',
      '--redirect-uri',
      'https://cli.test/b',
      '--scopes',
      'prospects.read,accounts.write',
      '--s2s-scopes',
      'prospects.all,accounts.read',
    );
    expect(Object.keys(created).sort()).toEqual(['appId', 'clientId', 'clientSecret']);
    const [row] = await api.sql`select name, redirect_uris, oauth_scopes, s2s_scopes from cadence_system.apps where guid = ${created.appId}`;
    expect({ ...row }).toEqual({
      name: 'CLI app',
      redirect_uris: ['https://cli.test/a', 'https://cli.test/b'],
      oauth_scopes: ['prospects.read', 'accounts.write'],
      s2s_scopes: ['prospects.all', 'accounts.read'],
    });

    const key = newKeyPair();
    const rotated = newKeyPair();
    await writeFile(join(folder, 'key.pem'), key.publicPem);
    await writeFile(join(folder, 'rotated.pem'), rotated.publicPem);
    await writeFile(join(folder, 'private.pem'), key.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const { keyId } = await cadenceJson('app', 'key', 'add', '--app', created.appId, '--public-key-file', join(folder, 'key.pem'));
    expect(keyId).toEqual(expect.any(Number));
    await cadenceJson('app', 'key', 'add', '--app', created.appId, '--public-key-file', join(folder, 'rotated.pem'));
    const refused = await cadence('app', 'key', 'add', '--app', created.appId, '--public-key-file', join(folder, 'private.pem'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^cadence: this is a private key/);

    const org = await api.newOrg('CLI org');
    const install = await cadenceJson('app', 'install', '--app', created.appId, '--org', String(org.orgId));
    expect(Object.keys(install).sort()).toEqual(['expiresAt', 'installId', 'installSetupToken']);
    const app = { appId: created.appId, key };
    expect((await setup(app, install.installSetupToken)).body.data.id).toBe(install.installId);
    const token = (await accessToken(app, install.installId)).body.data.meta.accessToken;
    expect((await api.request('GET', '/api/v2/prospects', { token })).status).toBe(200);

    expect(await cadenceJson('app', 'key', 'revoke', '--app', created.appId, '--key', String(keyId))).toMatchObject({ keyId });
    expect((await accessToken(app, install.installId)).status).toBe(401);
    const rotatedApp = { appId: created.appId, key: rotated };
    expect((await accessToken(rotatedApp, install.installId)).status).toBe(200);

    expect(await cadenceJson('org', 'lock', '--org', String(org.orgId))).toMatchObject({ orgId: org.orgId, lockedAt: expect.any(String), deletedAt: null });
    expect((await accessToken(rotatedApp, install.installId)).body.errors[0].id).toBe('orgLocked');
    expect(await cadenceJson('org', 'unlock', '--org', String(org.orgId))).toEqual({ orgId: org.orgId, lockedAt: null, deletedAt: null });
    expect((await accessToken(rotatedApp, install.installId)).status).toBe(200);

    expect(await cadenceJson('app', 'uninstall', '--app', created.appId, '--org', String(org.orgId))).toMatchObject({ installId: install.installId });
    expect((await accessToken(rotatedApp, install.installId)).body.errors[0].id).toBe('appUninstalled');
    const notInstalled = await cadence('app', 'uninstall', '--app', created.appId, '--org', String(org.orgId));
    expect(notInstalled).toMatchObject({ code: 2, stderr: `cadence: app ${created.appId} is not installed in org ${org.orgId}\n` });

    expect(await cadenceJson('org', 'delete', '--org', String(org.orgId))).toMatchObject({ orgId: org.orgId, deletedAt: expect.any(String) });
    expect((await api.request('GET', '/api/v2/prospects', { token: org.token })).status).toBe(401);
  }, 120_000);

  it('refuses scopes outside the S2S table, with a usage message for missing arguments', async () => {
    const badScope = await cadence('app', 'create', '--name', 'X', '--s2s-scopes', 'mailings.write');
    expect(badScope).toMatchObject({ code: 2, stderr: "cadence: not server-to-server scopes (see SPEC.md's S2S scope table): mailings.write\n" });
    const missing = await cadence('app', 'install', '--app', randomUUID());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`cadence: --org must be a positive integer (run cadence app install --help)\n`);
  }, 60_000);
});
