import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { RECORDS_OF_KEYS } from '../../runtime/imports/duplicates.js';
import { orgScopedTransaction } from '../../runtime/tenancy/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * import_keys, as migrated: the lower-cased values of every x-importKey attribute, kept by
 * triggers on the keyed tables, so that CSV imports find a row's duplicates with an index under
 * row-level security. Written here through the API and as its role, as every writer does.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function keysOf(orgId: number, type: string): Promise<[string, string, number][]> {
  const rows = await api.sql<{ keyColumn: string; key: string; recordId: string }[]>`
    select key_column as "keyColumn", key, record_id as "recordId" from import_keys
     where org_id = ${orgId} and resource_type = ${type} order by record_id, key_column, key`;
  return rows.map((r) => [r.keyColumn, r.key, Number(r.recordId)]);
}

it('every x-importKey attribute of the schema has the triggers that keep its keys', async () => {
  const keyed = [...descriptors.values()].filter((d) => d.attributes.some((a) => a.importKey !== undefined));
  expect(keyed.map((d) => d.type).sort()).toEqual(['account', 'prospect']);
  for (const descriptor of keyed) {
    const triggers = await api.sql<{ name: string; definition: string }[]>`
      select t.tgname as name, pg_get_triggerdef(t.oid) as definition
        from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where c.relname = ${descriptor.table} and t.tgname like 'import_keys_%' order by t.tgname`;
    expect(triggers.map((t) => t.name)).toEqual(['import_keys_delete', 'import_keys_insert', 'import_keys_update']);
    const columns = descriptor.attributes.filter((a) => a.importKey !== undefined).map((a) => `'${a.column}'`);
    for (const trigger of triggers) expect(trigger.definition).toContain(`maintain_import_keys('${descriptor.type}', ${columns.join(', ')})`);
  }
});

describe('kept by every write', () => {
  it('creating, changing and deleting prospects and accounts keeps their keys, lower-cased, in their org only', async () => {
    const org = await api.newOrg('Import keys org');
    const other = await api.newOrg('Other org');
    const create = async (token: string, type: string, attributes: Record<string, unknown>) => {
      const { status, body } = await api.request('POST', `/api/v2/${type}s`, { token, body: { data: { type, attributes } } });
      expect(status).toBe(201);
      return Number(body.data.id);
    };
    const ada = await create(org.token, 'prospect', { firstName: 'Ada', emails: ['Ada@Example.test', 'ada@home.test'] });
    const acme = await create(org.token, 'account', { name: 'Acme Inc', domain: 'ACME.test' });
    await create(other.token, 'prospect', { emails: ['ada@example.test'] });
    expect(await keysOf(org.orgId, 'prospect')).toEqual([
      ['emails', 'ada@example.test', ada],
      ['emails', 'ada@home.test', ada],
    ]);
    expect(await keysOf(org.orgId, 'account')).toEqual([
      ['domain', 'acme.test', acme],
      ['name', 'acme inc', acme],
    ]);

    // A change of another field leaves the keys; a change of a key column replaces its keys.
    const patch = (type: string, id: number, attributes: Record<string, unknown>) =>
      api.request('PATCH', `/api/v2/${type}s/${id}`, { token: org.token, body: { data: { type, id: String(id), attributes } } });
    expect((await patch('prospect', ada, { title: 'Countess' })).status).toBe(200);
    expect((await keysOf(org.orgId, 'prospect')).length).toBe(2);
    expect((await patch('prospect', ada, { emails: ['ADA@new.test'] })).status).toBe(200);
    expect((await patch('account', acme, { domain: null })).status).toBe(200);
    expect(await keysOf(org.orgId, 'prospect')).toEqual([['emails', 'ada@new.test', ada]]);
    expect(await keysOf(org.orgId, 'account')).toEqual([['name', 'acme inc', acme]]);

    expect((await api.request('DELETE', `/api/v2/prospects/${ada}`, { token: org.token })).status).toBe(204);
    expect(await keysOf(org.orgId, 'prospect')).toEqual([]);
    expect((await keysOf(other.orgId, 'prospect')).map(([, key]) => key)).toEqual(['ada@example.test']);
  });

  it('is a tenant table: the API role sees its own org only', async () => {
    const org = await api.newOrg('Seen org');
    await api.request('POST', '/api/v2/prospects', { token: org.token, body: { data: { type: 'prospect', attributes: { emails: ['seen@example.test'] } } } });
    const seen = await orgScopedTransaction(api.sql, api.org.orgId, (tx) => tx`select key from import_keys where key = 'seen@example.test'`);
    expect(seen).toEqual([]);
  });
});

it('the lookup of an import, as the API role under row-level security, reads the primary key index', async () => {
  const org = await api.newOrg('Lookup org');
  await orgScopedTransaction(
    api.sql,
    org.orgId,
    (tx) => tx`
      insert into prospects (org_id, emails)
      select ${org.orgId}, array['Person' || i || '@Example.com', 'p' || i || '@home.example'] from generate_series(1, 5000) as i`,
  );
  await api.sql`analyze import_keys`;
  const keys = Array.from({ length: 20 }, (_, i) => `person${i * 7 + 1}@example.com`);
  // Sequential scans priced out: the question is whether the index may be used at all under the
  // policy (an index on lower(column) may not: lower() is not leakproof; text equality is).
  const params = [org.orgId, 'prospect', 'emails', keys] as never[];
  const [plan] = await orgScopedTransaction(api.sql, org.orgId, async (tx) => {
    await tx`set local enable_seqscan = off`;
    return tx.unsafe(`explain (format json) ${RECORDS_OF_KEYS}`, params);
  });
  expect([...JSON.stringify(plan!['QUERY PLAN']).matchAll(/"Index Name":"(\w+)"/g)].map((m) => m[1])).toEqual(['import_keys_pkey']);
  const found = await orgScopedTransaction(api.sql, org.orgId, (tx) => tx.unsafe(RECORDS_OF_KEYS, params));
  expect(found).toHaveLength(20);
});

it("a young org's lookup reads the keys it asks for, not every key of the org", async () => {
  // Statistics taken before the org had keys: the planner expects one row for its whole
  // (org_id, resource_type, key_column) range. A plan that reads that range and filters it
  // would then look as cheap as probing the primary key, and reading it means reading every key
  // of the org for each set of an import's rows (issue #26).
  const org = await api.newOrg('Young lookup org');
  await api.sql`analyze import_keys`;
  await orgScopedTransaction(
    api.sql,
    org.orgId,
    (tx) => tx`
      insert into prospects (org_id, emails)
      select ${org.orgId}, array['young' || i || '@example.com'] from generate_series(1, 3000) as i`,
  );
  const keys = [...Array.from({ length: 249 }, (_, i) => `absent${i}@example.com`), 'young7@example.com'];
  const [young7] = await api.sql<{ id: string }[]>`select id from prospects where org_id = ${org.orgId} and emails = array['young7@example.com']`;
  // Both kinds of plan: custom ones (a statement's first runs, with the values) and generic ones.
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    const [plan, found] = await orgScopedTransaction(api.sql, org.orgId, async (tx) => {
      await tx.unsafe(`set local plan_cache_mode = ${mode}`);
      const params = [org.orgId, 'prospect', 'emails', keys] as never[];
      return [await tx.unsafe(`explain (analyze, format json) ${RECORDS_OF_KEYS}`, params), await tx.unsafe(RECORDS_OF_KEYS, params)];
    });
    expect(found, mode).toEqual([{ key: 'young7@example.com', id: young7!.id }]);
    const text = JSON.stringify(plan[0]!['QUERY PLAN']);
    expect(
      [...text.matchAll(/"Index Name":"(\w+)"/g)].map((m) => m[1]),
      mode,
    ).toEqual(['import_keys_pkey']);
    // Of the org's 3,000 keys, only the one found is read: none is read and filtered out.
    expect(
      [...text.matchAll(/"Rows Removed by Filter":(\d+)/g)].map((m) => Number(m[1])),
      mode,
    ).toEqual([]);
  }
});
