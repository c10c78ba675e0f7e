import { pino } from 'pino';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, knownScopes } from '../../runtime/admin/index.js';
import { createApp } from '../../runtime/app.js';
import { lockOrg, unlockOrg } from '../../runtime/apps/index.js';
import { hashToken } from '../../runtime/auth/index.js';
import { connectDatabase } from '../../runtime/db/client.js';
import { loadCursorSecret, loadTrackingSecret } from '../../runtime/db/settings.js';
import { HitBuffer } from '../../runtime/mail/tracking/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * Reads are served with the token from each server's cache, rechecked inside their transaction:
 * whatever happens to a token, its org or its user, the very next request sees it, in every
 * server process, without waiting for any cache to expire.
 */

let api: TestApi;
/** A second server process on the same database, with its own token cache. */
let otherSql: postgres.Sql;
let otherServer: ReturnType<typeof createApp>;

beforeAll(async () => {
  api = await startTestApi();
  otherSql = connectDatabase(api.databaseUrl, { max: 2 });
  otherServer = createApp({
    sql: otherSql,
    cursorSecret: await loadCursorSecret(otherSql),
    trackingSecret: await loadTrackingSecret(otherSql),
    // Serves no tracking link: nothing is ever held, so nothing needs stopping.
    trackingHits: new HitBuffer({ sql: otherSql, log: pino({ level: 'silent' }) }),
    config: { publicBaseUrl: undefined, maxBodyBytes: 64 * 1024 },
    log: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await otherSql?.end({ timeout: 5 });
  await api?.close();
});

/** A new user of the test org, admin or not, with a token holding every scope. */
async function newUser(admin: boolean): Promise<{ userId: number; token: string }> {
  const { userId } = await createUser(api.sql, { orgId: api.org.orgId, email: `user${Date.now()}${Math.random()}@example.test`, admin });
  const { token } = await createToken(api.sql, { orgId: api.org.orgId, userId, scopes: knownScopes() });
  return { userId, token };
}

/** The status and first error detail of a request to the second server. */
async function onOtherServer(path: string, token: string): Promise<{ status: number; detail?: string }> {
  const response = await otherServer.request(path, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { errors?: { detail: string }[] };
  return { status: response.status, ...(body.errors && { detail: body.errors[0]!.detail }) };
}

const status = async (path: string, token: string) => (await api.request('GET', path, { token })).status;
const detail = async (path: string, token: string) => (await api.request('GET', path, { token })).body.errors?.[0]?.detail;

describe('a cached token is rechecked on every request', () => {
  it('a deleted token is refused on its next read, list or single, by every server', async () => {
    const { token } = await newUser(false);
    const created = await api.request('POST', '/api/v2/accounts', { token, body: { data: { type: 'account', attributes: { name: 'Cached' } } } });
    const path = `/api/v2/accounts/${created.body.data.id}`;
    // Both servers have seen (and cached) the token.
    expect(await status(path, token)).toBe(200);
    expect(await status('/api/v2/accounts', token)).toBe(200);
    expect((await onOtherServer('/api/v2/accounts', token)).status).toBe(200);

    await api.sql`delete from cadence_system.access_tokens where token_hash = ${hashToken(token)}`;
    expect(await detail(path, token)).toBe('The access token is not valid');
    expect(await detail('/api/v2/accounts', token)).toBe('The access token is not valid');
    expect(await onOtherServer('/api/v2/accounts', token)).toEqual({ status: 401, detail: 'The access token is not valid' });
  });

  it('an expired token is refused on its next read', async () => {
    const { token } = await newUser(false);
    expect(await status('/api/v2/prospects', token)).toBe(200);
    await api.sql`update cadence_system.access_tokens set expires_at = now() - interval '1 second' where token_hash = ${hashToken(token)}`;
    expect(await detail('/api/v2/prospects', token)).toBe('The access token has expired');
  });

  it('a locked org is refused on the next read, in every server, and served again once unlocked', async () => {
    const org = await api.newOrg('Locked org');
    expect(await status('/api/v2/prospects', org.token)).toBe(200);
    expect((await onOtherServer('/api/v2/prospects', org.token)).status).toBe(200);

    await lockOrg(api.sql, org.orgId);
    const refusal = 'The organisation of this access token is locked or deleted';
    expect(await detail('/api/v2/prospects', org.token)).toBe(refusal);
    expect(await onOtherServer('/api/v2/prospects', org.token)).toEqual({ status: 401, detail: refusal });

    await unlockOrg(api.sql, org.orgId);
    expect(await status('/api/v2/prospects', org.token)).toBe(200);
    expect((await onOtherServer('/api/v2/prospects', org.token)).status).toBe(200);
  });

  it('a user who stops being an admin sees webhook secrets redacted on the next read, and in full again once admin', async () => {
    const { userId, token } = await newUser(true);
    const created = await api.request('POST', '/api/v2/webhooks', {
      body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.test/a', secret: 'shh' } } },
    });
    const path = `/api/v2/webhooks/${created.body.data.id}`;
    const secret = async () => (await api.request('GET', path, { token })).body.data.attributes.secret;
    expect(await secret()).toBe('shh');

    await api.sql`delete from cadence_system.org_admins where org_id = ${api.org.orgId} and user_id = ${userId}`;
    expect(await secret()).toBe('[REDACTED]');
    expect(JSON.stringify((await api.request('GET', '/api/v2/webhooks', { token })).body)).not.toContain('shh');

    await api.sql`insert into cadence_system.org_admins (org_id, user_id) values (${api.org.orgId}, ${userId})`;
    expect(await secret()).toBe('shh');
  });

  it('a user who stops being an admin is refused custom object definitions on the next request', async () => {
    const { userId, token } = await newUser(true);
    expect(await status('/api/v2/customObjectDefinitions', token)).toBe(200);
    await api.sql`delete from cadence_system.org_admins where org_id = ${api.org.orgId} and user_id = ${userId}`;
    const response = await api.request('GET', '/api/v2/customObjectDefinitions', { token });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].id).toBe('adminOnly');
  });

  it('a deleted token gets its 401 from routes that run no transaction too', async () => {
    const { token } = await newUser(false);
    expect(await status('/api/v2/prospects', token)).toBe(200);
    expect(await status('/api/v2/nothingHere', token)).toBe(404);
    expect(await status('/api/v2/customObjects/nothingHere', token)).toBe(404);
    expect(await status('/api/v2/prospects?filter[nope]=1', token)).toBe(400);

    await api.sql`delete from cadence_system.access_tokens where token_hash = ${hashToken(token)}`;
    for (const path of ['/api/v2/nothingHere', '/api/v2/customObjects/nothingHere', '/api/v2/prospects?filter[nope]=1']) {
      expect(await detail(path, token), path).toBe('The access token is not valid');
    }
  });

  it('a deleted token cannot write', async () => {
    const { token } = await newUser(false);
    expect(await status('/api/v2/accounts', token)).toBe(200);
    await api.sql`delete from cadence_system.access_tokens where token_hash = ${hashToken(token)}`;
    const response = await api.request('POST', '/api/v2/accounts', { token, body: { data: { type: 'account', attributes: { name: 'Never' } } } });
    expect(response.status).toBe(401);
    const [row] = await api.sql`select count(*)::int as n from accounts where org_id = ${api.org.orgId} and name = 'Never'`;
    expect(row!.n).toBe(0);
  });
});
