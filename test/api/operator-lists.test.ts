import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser } from '../../runtime/admin/index.js';
import { createApp, installApp, lockOrg } from '../../runtime/apps/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runCadence } from '../helpers/cli.js';

/**
 * The operator's listings (issue #28): `cadence org list`, `user list`, `token list`, `app list`
 * print what is there as one JSON line and never a secret; `cadence token revoke` makes the API
 * answer 401 to the token it names. The real CLI as a process, against a real server's database.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
}, 60_000);
afterAll(async () => {
  await api?.close();
});

const cadence = async (...args: string[]) => {
  const result = await runCadence(api.databaseUrl, args);
  expect(result.stderr, args.join(' ')).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout.split('\n')).toHaveLength(2);
  return { stdout: result.stdout, value: JSON.parse(result.stdout) };
};

const tokenIdOf = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);

describe('cadence org list, user list, token list, app list', { timeout: 120_000 }, () => {
  it('list what there is, with ids and dates, and print no secret', async () => {
    const other = await api.newOrg('Locked org');
    await lockOrg(api.sql, other.orgId);
    const { userId } = await createUser(api.sql, { orgId: api.org.orgId, email: 'rep@acme.example.test', admin: false });
    const userToken = await createToken(api.sql, { orgId: api.org.orgId, userId, scopes: ['prospects.read'], ttlSeconds: 3600 });
    const app = await createApp(api.sql, {
      name: 'Listed app',
      redirectUris: ['https://app.example.test/cb'],
      oauthScopes: ['prospects.read'],
      s2sScopes: ['prospects.all'],
    });
    await installApp(api.sql, { appId: app.appId, orgId: api.org.orgId });

    const [orgs, users, tokens, apps] = await Promise.all([
      cadence('org', 'list'),
      cadence('user', 'list', '--org', String(api.org.orgId)),
      cadence('token', 'list', '--org', String(api.org.orgId)),
      cadence('app', 'list'),
    ]);

    expect(orgs.value).toEqual(
      expect.arrayContaining([
        { orgId: api.org.orgId, name: 'Test org', locked: false, lockedAt: null, deletedAt: null, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
        { orgId: other.orgId, name: 'Locked org', locked: true, lockedAt: expect.any(String), deletedAt: null, createdAt: expect.any(String) },
      ]),
    );

    expect(users.value).toEqual([
      { userId: api.org.userId, email: `admin@org${api.org.orgId}.invalid`, name: null, admin: true, locked: false, createdAt: expect.any(String) },
      { userId, email: 'rep@acme.example.test', name: null, admin: false, locked: false, createdAt: expect.any(String) },
    ]);

    expect(tokens.value).toEqual(
      expect.arrayContaining([
        {
          tokenId: tokenIdOf(userToken.token),
          userId,
          appId: null,
          oauth: false,
          scopes: ['prospects.read'],
          createdAt: expect.any(String),
          expiresAt: userToken.expiresAt,
          expired: false,
        },
        expect.objectContaining({ tokenId: tokenIdOf(api.org.token), userId: api.org.userId }),
      ]),
    );
    expect(tokens.stdout).not.toContain(userToken.token);
    expect(tokens.stdout).not.toContain(api.org.token);
    expect(tokens.stdout).not.toContain('cad_');

    expect(apps.value).toContainEqual({
      appId: app.appId,
      name: 'Listed app',
      clientId: app.clientId,
      redirectUris: ['https://app.example.test/cb'],
      oauthScopes: ['prospects.read'],
      s2sScopes: ['prospects.all'],
      lifecycleWebhookUrl: null,
      keyIds: [],
      installedInOrgs: [api.org.orgId],
      createdAt: expect.any(String),
    });
    expect(apps.stdout).not.toContain(app.clientSecret);
  });
});

describe('cadence token revoke', { timeout: 120_000 }, () => {
  it('makes the API answer 401 to the token at once, and leaves the org’s other tokens working', async () => {
    const { userId } = await createUser(api.sql, { orgId: api.org.orgId, email: 'revoked@acme.example.test', admin: false });
    const { token } = await createToken(api.sql, { orgId: api.org.orgId, userId, scopes: ['prospects.read'] });
    // Served once first, so the server has it cached: revoking must reach past the cache.
    expect((await api.request('GET', '/api/v2/prospects', { token })).status).toBe(200);

    const revoked = await cadence('token', 'revoke', '--org', String(api.org.orgId), '--token-id', tokenIdOf(token));
    expect(revoked.value).toEqual({ revoked: expect.objectContaining({ tokenId: tokenIdOf(token), userId, scopes: ['prospects.read'] }) });

    const refused = await api.request('GET', '/api/v2/prospects', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0]).toMatchObject({ status: '401' });
    expect((await api.request('GET', '/api/v2/prospects')).status).toBe(200);

    const again = await runCadence(api.databaseUrl, ['token', 'revoke', '--org', String(api.org.orgId), '--token-id', tokenIdOf(token)]);
    expect(again).toEqual({
      code: 2,
      stdout: '',
      stderr: `cadence: org ${api.org.orgId} has no token ${tokenIdOf(token)} (cadence token list --org ${api.org.orgId} names them)\n`,
    });
  });
});
