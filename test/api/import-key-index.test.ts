import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgScopedTransaction } from '../../runtime/tenancy/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * The indexes x-importKey makes, as migrated: CSV imports find a row's duplicates with them,
 * prospects by any e-mail address and accounts by domain, case-insensitively. Rows are written
 * and looked up as the API role, which also keeps the GIN index up to date on insert.
 */

const PROSPECTS = 2000;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  await orgScopedTransaction(api.sql, api.org.orgId, async (tx) => {
    await tx`
      insert into prospects (org_id, emails)
      select ${api.org.orgId}, array['Person' || i || '@Example.com', 'p' || i || '@home.example']
        from generate_series(1, ${PROSPECTS}) as i`;
    await tx`
      insert into accounts (org_id, name, domain)
      select ${api.org.orgId}, 'Account ' || i, 'Domain' || i || '.Example'
        from generate_series(1, ${PROSPECTS}) as i`;
  });
  await api.sql`analyze prospects, accounts`;
});
afterAll(async () => {
  await api?.close();
});

/** Runs a lookup as the API role, with its org id as $1 and the lower-cased keys as $2. */
function lookUp(query: string, keys: string[]) {
  return orgScopedTransaction(api.sql, api.org.orgId, (tx) => tx.unsafe(query, [api.org.orgId, keys]));
}

/**
 * The indexes the plan of a lookup reads, with sequential scans priced out: whether an index is
 * usable at all. This plans as the connection's own role, a superuser in tests, to which
 * row-level security does not apply. Under it (as cadence_app) the planner may not use these
 * indexes: neither lower() nor && is leakproof, so neither may run before the policy's check.
 */
async function indexesUsed(query: string, keys: string[]): Promise<string[]> {
  const [row] = await api.sql.begin(async (tx) => {
    await tx`set local enable_seqscan = off`;
    return tx.unsafe(`explain (format json) ${query}`, [api.org.orgId, keys]);
  });
  return [...JSON.stringify(row!['QUERY PLAN']).matchAll(/"Index Name":"(\w+)"/g)].map((m) => m[1]!);
}

describe('prospects by e-mail', () => {
  it('is a GIN index over the lower-cased addresses', async () => {
    const [index] = await api.sql`select indexdef from pg_indexes where indexname = 'prospects_emails_import_key_idx'`;
    expect(index?.indexdef).toBe('CREATE INDEX prospects_emails_import_key_idx ON public.prospects USING gin (cadence_system.lower_text_array(emails))');
  });

  it('the lookup uses it and finds any address of a prospect, whatever its case', async () => {
    const query = 'select emails from prospects where org_id = $1 and cadence_system.lower_text_array(emails) && $2::text[]';
    const keys = ['person7@example.com', 'p1999@home.example'];
    expect(await indexesUsed(query, keys)).toEqual(['prospects_emails_import_key_idx']);
    const found = await lookUp(query, keys);
    expect(found.map((r) => r.emails[0]).sort()).toEqual(['Person1999@Example.com', 'Person7@Example.com']);
  });

  it('lower_text_array lower-cases every element, as the API role', async () => {
    const [row] = await orgScopedTransaction(
      api.sql,
      api.org.orgId,
      (tx) => tx`select current_user as role, cadence_system.lower_text_array(array['A@X.com', 'b@Y.org']) as lowered, cadence_system.lower_text_array('{}') as empty`,
    );
    expect(row).toEqual({ role: 'cadence_app', lowered: ['a@x.com', 'b@y.org'], empty: null });
  });
});

describe('accounts by domain', () => {
  it('the lookup uses the search index on lower(domain), which an import key does not duplicate', async () => {
    const query = 'select domain from accounts where org_id = $1 and lower(domain) = any($2::text[])';
    expect(await indexesUsed(query, ['domain7.example'])).toEqual(['accounts_domain_search_idx']);
    const found = await lookUp(query, ['domain7.example', 'domain8.example']);
    expect(found.map((r) => r.domain).sort()).toEqual(['Domain7.Example', 'Domain8.Example']);
    const indexes = await api.sql`select indexname from pg_indexes where tablename = 'accounts' and indexname like '%import_key%'`;
    expect(indexes).toEqual([]);
  });
});
