import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrg } from '../../runtime/admin/index.js';
import { orgScopedTransaction } from '../../runtime/tenancy/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** A record of org A does not exist for org B, through every verb; and the database agrees. */

let api: TestApi;
let other: CreatedOrg;
let accountId: number;
let prospectId: number;
let taskId: number;

beforeAll(async () => {
  api = await startTestApi();
  other = await api.newOrg('Org B');
  accountId = (await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'A only' } } } })).body.data.id;
  prospectId = (
    await api.request('POST', '/api/v2/prospects', {
      body: { data: { type: 'prospect', attributes: { firstName: 'Secret' }, relationships: { account: { data: { type: 'account', id: accountId } } } } },
    })
  ).body.data.id;
  taskId = (await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } })).body.data.id;
});
afterAll(async () => {
  await api?.close();
});

describe('tenant isolation over HTTP', () => {
  it('GET one is 404 for the other org', async () => {
    expect((await api.request('GET', `/api/v2/prospects/${prospectId}`, { token: other.token })).status).toBe(404);
  });

  it('lists show only the caller org', async () => {
    const listed = await api.request('GET', '/api/v2/prospects', { token: other.token });
    expect(listed.body.data).toEqual([]);
    const own = await api.request('GET', '/api/v2/prospects');
    expect(own.body.data.map((p: { id: number }) => p.id)).toContain(prospectId);
  });

  it('PATCH is 404 and changes nothing', async () => {
    const response = await api.request('PATCH', `/api/v2/prospects/${prospectId}`, {
      token: other.token,
      body: { data: { type: 'prospect', id: prospectId, attributes: { firstName: 'Stolen' } } },
    });
    expect(response.status).toBe(404);
    expect((await api.request('GET', `/api/v2/prospects/${prospectId}`)).body.data.attributes.firstName).toBe('Secret');
  });

  it('DELETE is 404 and deletes nothing', async () => {
    expect((await api.request('DELETE', `/api/v2/prospects/${prospectId}`, { token: other.token })).status).toBe(404);
    expect((await api.request('GET', `/api/v2/prospects/${prospectId}`)).status).toBe(200);
  });

  it('actions are 404', async () => {
    expect((await api.request('POST', `/api/v2/tasks/${taskId}/actions/markComplete`, { token: other.token })).status).toBe(404);
    expect((await api.request('GET', `/api/v2/tasks/${taskId}`)).body.data.attributes.completed).toBe(false);
  });

  it('a relationship to another org record is refused as if it did not exist', async () => {
    const response = await api.request('POST', '/api/v2/prospects', {
      token: other.token,
      body: { data: { type: 'prospect', relationships: { account: { data: { type: 'account', id: accountId } } } } },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source.pointer).toBe('/data/relationships/account');
  });

  it('events of one org are not listed for the other', async () => {
    const events = await api.request('GET', '/api/v2/events?page[size]=1000', { token: other.token });
    const ids = events.body.data.map((e: { attributes: { resourceId: number; resourceType: string } }) => `${e.attributes.resourceType}:${e.attributes.resourceId}`);
    expect(ids).not.toContain(`prospect:${prospectId}`);
  });
});

describe('row-level security, the second wall', () => {
  it('with no org set, the API role sees no rows at all', async () => {
    const rows = await api.sql.begin(async (tx) => {
      await tx`select set_config('role', 'cadence_app', true)`;
      return tx`select count(*)::int as n from prospects`;
    });
    expect(rows[0]!.n).toBe(0);
  });

  it('a query that forgets its org filter still sees only its org', async () => {
    const rows = await orgScopedTransaction(api.sql, other.orgId, (tx) => tx`select id from prospects`);
    expect(rows).toEqual([]);
    const own = await orgScopedTransaction(api.sql, api.org.orgId, (tx) => tx`select id from prospects`);
    expect(own.map((r) => r.id)).toContain(prospectId);
  });

  it('the API role cannot write rows into another org', async () => {
    await expect(orgScopedTransaction(api.sql, other.orgId, (tx) => tx`insert into prospects (org_id, first_name) values (${api.org.orgId}, 'x')`)).rejects.toThrow(
      /row-level security/,
    );
  });

  it('the API role cannot read tokens', async () => {
    await expect(orgScopedTransaction(api.sql, api.org.orgId, (tx) => tx`select * from cadence_system.access_tokens`)).rejects.toThrow(/permission denied/);
  });

  it('every tenant table has row-level security enabled and forced, and every index leads with org_id', async () => {
    const tables = await api.sql`
      select c.relname, c.relrowsecurity, c.relforcerowsecurity
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'r'`;
    expect(tables.length).toBeGreaterThan(30);
    for (const t of tables) expect([t.relname, t.relrowsecurity, t.relforcerowsecurity]).toEqual([t.relname, true, true]);
    const indexes = await api.sql`select indexname, indexdef from pg_indexes where schemaname = 'public'`;
    // But one: the import-key triggers' index by record leads with record_id so that no lookup
    // of an org's keys can walk it (runtime/imports/tables.ts); it still holds org_id.
    const byRecord = /\("?record_id"?, "?org_id"?,/;
    for (const i of indexes) expect(i.indexdef, i.indexname).toMatch(i.indexname === 'import_keys_record_idx' ? byRecord : /\("?org_id"?,/);
  });
});
