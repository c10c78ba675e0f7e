import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp as registerApp } from '../../runtime/apps/index.js';
import { hashToken, newAccessToken } from '../../runtime/auth/index.js';
import { purgeRequestCountsTask, setOrgRateLimit } from '../../runtime/ratelimit/index.js';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api.js';

/**
 * Request rate limits (issue #17) in one API process, on a test clock: X-RateLimit-* on every
 * authenticated /api/v2 answer, the 429 past the limit, hourly windows, the org's own limit, and
 * users and applications counted apart. test/api/rate-limit-processes.test.ts has two processes.
 */

const PER_HOUR = 5;
let now = Date.parse('2026-11-21T12:10:00.000Z');
const clock = () => new Date(now);
const windowEnd = () => Math.floor(now / 3_600_000) * 3600 + 3600;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ clock, rateLimit: { perHour: PER_HOUR }, bulkAllowance: { capacity: 100, perDay: 86_400 } });
});
afterAll(async () => {
  await api?.close();
});

function limits(response: ApiResponse) {
  const h = response.headers;
  return {
    status: response.status,
    limit: h.get('x-ratelimit-limit'),
    remaining: h.get('x-ratelimit-remaining'),
    reset: h.get('x-ratelimit-reset'),
    retryAfter: h.get('retry-after'),
  };
}

/** A token of a new user of `orgId`, counted on its own. */
const userToken = (orgId = api.org.orgId) => api.newUserToken(orgId, ['prospects.all', 'accounts.all']);

/** A server-to-server token: an application acting alone in the org, as the install flow issues them. */
async function appAloneToken(orgId: number): Promise<string> {
  const app = await registerApp(api.sql, { name: 'Dialer', redirectUris: [], oauthScopes: [], s2sScopes: ['prospects.all'] });
  const token = newAccessToken();
  await api.sql`
    insert into cadence_system.access_tokens (token_hash, org_id, user_id, app_guid, scopes, expires_at)
    values (${hashToken(token)}, ${orgId}, null, ${app.appId}, ${api.sql.array(['prospects.all'])}, now() + interval '1 hour')`;
  return token;
}

describe('one process', () => {
  it('counts each request down in X-RateLimit-Remaining, then answers 429 with Retry-After, and starts over in the next hour', async () => {
    const token = await userToken();
    for (let i = 1; i <= PER_HOUR; i++) {
      const listed = await api.request('GET', '/api/v2/prospects', { token });
      expect(limits(listed)).toEqual({ status: 200, limit: '5', remaining: String(PER_HOUR - i), reset: String(windowEnd()), retryAfter: null });
    }
    const refused = await api.request('GET', '/api/v2/prospects', { token });
    const retryAfter = windowEnd() - Math.floor(now / 1000);
    expect(limits(refused)).toEqual({ status: 429, limit: '5', remaining: '0', reset: String(windowEnd()), retryAfter: String(retryAfter) });
    expect(refused.body).toEqual({
      errors: [
        {
          id: 'rateLimitExceeded',
          status: '429',
          title: 'Too Many Requests',
          detail: `This token's holder has made its 5 requests of the hour; the limit resets at 2026-11-21T13:00:00.000Z, in ${retryAfter} s`,
        },
      ],
    });
    // Refused requests are not counted: settled, the holder's count is the five admitted.
    await api.request('POST', '/api/v2/accounts', { token, body: { data: { type: 'account', attributes: { name: 'Refused' } } } });
    await api.rateLimiter!.settle();
    const [row] = await api.sql<{ count: number }[]>`
      select c.count from cadence_system.request_counts c join cadence_system.access_tokens t on c.holder = 'user:' || t.user_id and c.org_id = t.org_id
       where t.token_hash = ${hashToken(token)}`;
    expect(row?.count).toBe(5);
    expect((await api.sql`select 1 from accounts where name = 'Refused'`).length).toBe(0);

    now += 3600_000;
    const next = await api.request('GET', '/api/v2/prospects', { token });
    expect(limits(next)).toEqual({ status: 200, limit: '5', remaining: '4', reset: String(windowEnd()), retryAfter: null });
  });

  it('puts the headers on error answers too (404, 422, 400, 405), not on unauthenticated ones', async () => {
    const token = await userToken();
    const notFound = await api.request('GET', '/api/v2/prospects/999999', { token });
    expect(limits(notFound)).toMatchObject({ status: 404, limit: '5', remaining: '4' });
    const noRoute = await api.request('GET', '/api/v2/nothingHere', { token });
    expect(limits(noRoute)).toMatchObject({ status: 404, limit: '5', remaining: '3' });
    const invalid = await api.request('POST', '/api/v2/prospects', { token, body: { data: { type: 'prospect', attributes: { emails: 'not a list' } } } });
    expect(limits(invalid)).toMatchObject({ status: 422, limit: '5', remaining: '2' });
    const badQuery = await api.request('GET', '/api/v2/prospects?sort=nonsense', { token });
    expect(limits(badQuery)).toMatchObject({ status: 400, limit: '5', remaining: '1' });
    const wrongMethod = await api.request('PUT', '/api/v2/prospects', { token });
    expect(limits(wrongMethod)).toMatchObject({ status: 405, limit: '5', remaining: '0' });

    const schema = await api.request('GET', '/api/v2/schema', { token: null });
    const unauthenticated = await api.request('GET', '/api/v2/prospects', { token: null });
    const badToken = await api.request('GET', '/api/v2/prospects', { token: 'cad_not-a-token' });
    const health = await fetch(`${api.baseUrl}/healthz`);
    const oauth = await fetch(`${api.baseUrl}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }) });
    expect([schema.status, unauthenticated.status, badToken.status, health.status, oauth.status]).toEqual([200, 401, 401, 200, 401]);
    for (const response of [schema, unauthenticated, badToken, health, oauth]) expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    // None of those counted: the holder's five went to the errors above.
    expect(limits(await api.request('GET', '/api/v2/prospects', { token }))).toMatchObject({ status: 429, remaining: '0' });
    now += 3600_000;
    expect(limits(await api.request('GET', '/api/v2/prospects', { token }))).toMatchObject({ status: 200, remaining: '4' });
  });

  it('counts an application acting alone apart from the users of its org', async () => {
    const org = await api.newOrg('Apps and users');
    const app = await appAloneToken(org.orgId);
    const user = await userToken(org.orgId);
    for (let i = 0; i < PER_HOUR; i++) expect((await api.request('GET', '/api/v2/prospects', { token: user })).status).toBe(200);
    expect((await api.request('GET', '/api/v2/prospects', { token: user })).status).toBe(429);
    expect(limits(await api.request('GET', '/api/v2/prospects', { token: app }))).toMatchObject({ status: 200, remaining: '4' });
    // Another token of the same user shares the user's count; another user does not.
    const [{ user_id: userId }] = (await api.sql`select user_id from cadence_system.access_tokens where token_hash = ${hashToken(user)}`) as unknown as [
      { user_id: number },
    ];
    const sameUser = newAccessToken();
    await api.sql`
      insert into cadence_system.access_tokens (token_hash, org_id, user_id, scopes, expires_at)
      values (${hashToken(sameUser)}, ${org.orgId}, ${userId}, ${api.sql.array(['prospects.read'])}, now() + interval '1 hour')`;
    expect((await api.request('GET', '/api/v2/prospects', { token: sameUser })).status).toBe(429);
    expect((await api.request('GET', '/api/v2/prospects', { token: await userToken(org.orgId) })).status).toBe(200);
    await api.rateLimiter!.settle();
    const rows = await api.sql<{ holder: string; count: number }[]>`
      select holder, count from cadence_system.request_counts where org_id = ${org.orgId} order by holder`;
    expect(rows.map((r) => [r.holder.split(':')[0], r.count])).toEqual([
      ['app', 1],
      ['user', 5],
      ['user', 1],
    ]);
  });

  it("uses the org's own limit over the deployment's, and the deployment's again after --default", async () => {
    const org = await api.newOrg('Own limit');
    await setOrgRateLimit(api.sql, org.orgId, 2);
    const token = await userToken(org.orgId);
    expect(limits(await api.request('GET', '/api/v2/prospects', { token }))).toMatchObject({ status: 200, limit: '2', remaining: '1' });
    expect(limits(await api.request('GET', '/api/v2/prospects', { token }))).toMatchObject({ status: 200, limit: '2', remaining: '0' });
    expect(limits(await api.request('GET', '/api/v2/prospects', { token }))).toMatchObject({ status: 429, limit: '2', remaining: '0' });
    // Back to the deployment's 5: the next settle tells this process.
    await setOrgRateLimit(api.sql, org.orgId, null);
    await api.rateLimiter!.settle();
    expect(limits(await api.request('GET', '/api/v2/prospects', { token }))).toMatchObject({ status: 200, limit: '5', remaining: '2' });
    // Other orgs keep the deployment's.
    expect(limits(await api.request('GET', '/api/v2/prospects', { token: await userToken() }))).toMatchObject({ limit: '5', remaining: '4' });
  });

  it("leaves bulk requests the bulk allowance's headers, and still counts and refuses them", async () => {
    const org = await api.newOrg('Bulk');
    const token = org.token;
    const upsert = () =>
      api.request('POST', '/api/v2/imports/actions/bulkUpsert', {
        token,
        body: { data: { attributes: { records: [{ data: { type: 'account', attributes: { name: 'Bulk' } } }] } } },
      });
    const first = await upsert();
    expect(limits(first)).toMatchObject({ status: 200, limit: '100', remaining: '99' });
    for (let i = 0; i < PER_HOUR - 2; i++) expect((await api.request('GET', '/api/v2/accounts', { token })).status).toBe(200);
    expect(limits(await upsert())).toMatchObject({ status: 200, limit: '100', remaining: '98' });
    const refused = await upsert();
    expect(limits(refused)).toMatchObject({ status: 429, limit: '5', remaining: '0' });
    expect(refused.body.errors[0].id).toBe('rateLimitExceeded');
  });

  it('answers concurrent requests of one holder, more than the pool has connections, with exactly the limit admitted', async () => {
    const org = await api.newOrg('Crowd');
    await setOrgRateLimit(api.sql, org.orgId, 30);
    const token = await userToken(org.orgId);
    const answers = await Promise.all(Array.from({ length: 48 }, () => api.request('GET', '/api/v2/prospects?page[size]=1', { token })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(18);
    const remaining = answers.filter((a) => a.status === 200).map((a) => Number(a.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('purges the counts of hours that ended more than an hour ago', async () => {
    const org = await api.newOrg('Purged');
    const hour = (offset: number) => new Date((Math.floor(now / 3_600_000) + offset) * 3_600_000).toISOString();
    for (const offset of [-3, -2, -1, 0]) {
      await api.sql`insert into cadence_system.request_counts (org_id, holder, window_start, count) values (${org.orgId}, 'user:1', ${hour(offset)}, 1)`;
    }
    await (purgeRequestCountsTask({ sql: api.sql, clock }) as () => Promise<void>)();
    const kept = await api.sql<{ window_start: string }[]>`
      select to_char(window_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as window_start
        from cadence_system.request_counts where org_id = ${org.orgId} order by window_start`;
    expect(kept.map((r) => r.window_start)).toEqual([hour(-1), hour(0)]);
  });
});
