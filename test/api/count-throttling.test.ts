import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withinTimeBudget } from '../../runtime/engine/count-budget.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * SPEC.md's Limits, "Count throttling": a `count=true` whose count takes longer than
 * COUNT_TIME_BUDGET_MS comes back with its page, `count` 0 and `count_truncated` true, for
 * standard resources and custom objects alike. A budget of 1 ms over 100,000 rows forces it:
 * no machine counts them that fast, and a busy one only takes longer.
 */

const ROWS = 100_000;

let api: TestApi;
let bookingDefinitionId: number;

beforeAll(async () => {
  api = await startTestApi({ countTimeBudgetMs: 1 });
  await api.sql`
    insert into prospects (org_id, first_name, last_name, created_at, updated_at)
    select ${api.org.orgId}, 'Many ' || g, 'Counted', now(), now() from generate_series(1, ${ROWS}) g`;
  const definition = {
    name: 'booking',
    displayName: 'Booking',
    displayField: 'title',
    fields: [{ name: 'title', type: 'string', required: true, filterable: true, sortable: true }],
  };
  const defined = await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: definition } } });
  expect(defined.status, JSON.stringify(defined.body)).toBe(201);
  bookingDefinitionId = Number(defined.body.data.id);
  const created = await api.request('POST', '/api/v2/customObjects/booking', { body: { data: { type: 'booking', attributes: { title: 'First' } } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // Copies of that record, every column but the generated id.
  const columns = await api.sql<{ column_name: string }[]>`
    select column_name from information_schema.columns
     where table_schema = current_schema() and table_name = 'custom_object_records' and column_name <> 'id'`;
  const list = columns.map((c) => `"${c.column_name}"`).join(', ');
  await api.sql.unsafe(`insert into custom_object_records (${list}) select ${list} from custom_object_records, generate_series(1, ${ROWS}) where definition_id = $1`, [
    bookingDefinitionId,
  ]);
  await api.sql`analyze prospects`;
  await api.sql`analyze custom_object_records`;
}, 120_000);

afterAll(async () => {
  await api?.close();
});

describe('count throttling', () => {
  it('answers a count over its budget with the page, count 0 and count_truncated true', async () => {
    const listed = await api.request('GET', '/api/v2/prospects?count=true&page[size]=5&include=account&filter[lastName]=Counted');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.meta).toEqual({ count: 0, count_truncated: true });
    // The page itself is there, and so are its links: the transaction went on after the cancelled count.
    expect(listed.body.data).toHaveLength(5);
    expect(listed.body.links.next).toContain('page%5Bafter%5D=');
    expect(listed.body.included).toEqual([]);
  });

  it('leaves a count within its budget alone', async () => {
    // A server of its own (on the same database), with a budget no count of three rows can exceed
    // however busy the machine is: under the 1 ms of the others, even that count may be cut off.
    const roomy = await startTestApi({ countTimeBudgetMs: 60_000, databaseOf: api });
    try {
      await roomy.sql`
        insert into accounts (org_id, name, created_at, updated_at)
        select ${roomy.org.orgId}, 'Account ' || g, now(), now() from generate_series(1, 3) g`;
      const listed = await roomy.request('GET', '/api/v2/accounts?count=true&page[size]=2');
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.meta).toEqual({ count: 3, count_truncated: false });
      expect(listed.body.data).toHaveLength(2);
    } finally {
      await roomy.close();
    }
  });

  it('throttles custom objects too', async () => {
    const listed = await api.request('GET', '/api/v2/customObjects/booking?count=true&page[size]=3');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.meta).toEqual({ count: 0, count_truncated: true });
    expect(listed.body.data).toHaveLength(3);
  });

  it('leaves the transaction usable, with its own statement timeout, after a cancelled statement and after one in time', async () => {
    const connection = await api.sql.reserve();
    try {
      await connection.unsafe(`begin read only; set local statement_timeout = '7s'`);
      const slow = await withinTimeBudget(connection, 1, () => connection`select count(*)::int as n from prospects, generate_series(1, 10)`);
      expect(slow).toBeUndefined();
      expect((await connection`select current_setting('statement_timeout') as timeout`)[0]!.timeout).toBe('7s');
      const quick = await withinTimeBudget(connection, 10_000, () => connection`select 1 as one`);
      expect(quick![0]!.one).toBe(1);
      expect((await connection`select current_setting('statement_timeout') as timeout`)[0]!.timeout).toBe('7s');
      expect((await connection`select count(*)::int as n from prospects where last_name = 'Counted'`)[0]!.n).toBe(ROWS);
      await connection.unsafe('commit');
    } finally {
      connection.release();
    }
  });

  it('passes on errors other than a cancellation', async () => {
    const connection = await api.sql.reserve();
    try {
      await connection.unsafe('begin read only');
      await expect(withinTimeBudget(connection, 1000, () => connection`select 1 / 0`)).rejects.toMatchObject({ code: '22012' });
    } finally {
      await connection.unsafe('rollback');
      connection.release();
    }
  });
});
