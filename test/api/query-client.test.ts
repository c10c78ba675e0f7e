import Kitsu from 'kitsu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * An off-the-shelf JSON:API client (kitsu, unchanged but for its base URL and token) lists,
 * filters, includes and pages through links.next against a real Cadence server.
 */

let api: TestApi;
let kitsu: Kitsu;
const accountNames = ['Initech', 'Globex', 'Hooli'];
const PROSPECTS = 23;

/** What kitsu's deserialiser makes of a prospect with its account included. */
interface ClientProspect {
  id: number;
  type: string;
  firstName: string;
  title: string;
  account: { data: { id: number; type: string; name?: string }; links?: unknown };
}

interface ClientPage {
  data: ClientProspect[];
  links: { first?: string; next?: string; prev?: string };
  meta: { count: number | null; count_truncated?: boolean };
  status: number;
}

beforeAll(async () => {
  api = await startTestApi();
  const accountIds: number[] = [];
  for (const name of accountNames) {
    const response = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name } } } });
    accountIds.push(response.body.data.id);
  }
  for (let i = 0; i < PROSPECTS; i++) {
    const response = await api.request('POST', '/api/v2/prospects', {
      body: {
        data: {
          type: 'prospect',
          attributes: { firstName: `P${String(i).padStart(2, '0')}`, title: i % 2 === 0 ? 'Engineer' : 'Manager' },
          relationships: { account: { data: { type: 'account', id: accountIds[i % 3] } } },
        },
      },
    });
    expect(response.status).toBe(201);
  }
  // Kitsu's own defaults otherwise: pluralised, kebab-cased resource paths ('prospects' stays 'prospects').
  kitsu = new Kitsu({ baseURL: `${api.baseUrl}/api/v2`, headers: { Authorization: `Bearer ${api.org.token}` } });
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** The `page[after]` of a next link, which is how kitsu takes a cursor. */
function afterOf(next: string): string {
  const after = new URL(next).searchParams.get('page[after]');
  expect(after).toBeTruthy();
  return after!;
}

describe('kitsu against Cadence', () => {
  it('lists a collection, deserialising attributes', async () => {
    const page: ClientPage = await kitsu.get('prospect', { params: { sort: 'firstName', page: { size: 5 } } });
    expect(page.status).toBe(200);
    expect(page.data.map((p) => p.firstName)).toEqual(['P00', 'P01', 'P02', 'P03', 'P04']);
    expect(page.data[0]!.type).toBe('prospect');
    expect(page.meta).toEqual({ count: null });
    expect(page.links.next).toMatch(/page%5Bafter%5D=/);
  });

  it('filters, includes the account and attaches it to each prospect', async () => {
    // count is Cadence's own parameter; kitsu passes unknown parameters through.
    const params = { filter: { title: 'Engineer' }, include: 'account', sort: '-firstName', page: { size: 4 }, count: true };
    const page: ClientPage = await kitsu.get('prospects', { params });
    expect(page.meta).toEqual({ count: 12, count_truncated: false });
    expect(page.data.map((p) => p.firstName)).toEqual(['P22', 'P20', 'P18', 'P16']);
    for (const [k, prospect] of page.data.entries()) {
      expect(prospect.title).toBe('Engineer');
      // P22 is the 23rd prospect: account index 22 % 3 = 1, and so on down by two.
      expect(prospect.account.data).toMatchObject({ type: 'account', name: accountNames[(22 - 2 * k) % 3] });
    }
  });

  it('follows links.next until it is absent, with filter and include kept', async () => {
    const names: string[] = [];
    const accounts = new Set<string>();
    const params = { filter: { title: 'Manager' }, include: 'account', sort: 'firstName', page: { size: 3 } as { size: number; after?: string } };
    let pages = 0;
    for (;;) {
      const page: ClientPage = await kitsu.get('prospects', { params });
      pages++;
      expect(pages).toBeLessThan(10);
      names.push(...page.data.map((p) => p.firstName));
      for (const p of page.data) accounts.add(p.account.data.name!);
      if (!page.links.next) break;
      expect(new URL(page.links.next).searchParams.get('include')).toBe('account');
      params.page.after = afterOf(page.links.next);
    }
    expect(pages).toBe(4);
    expect(names).toHaveLength(11);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(11);
    expect(accounts).toEqual(new Set(accountNames));
  });

  it("takes the new filter syntax from kitsu's 'modern' array parameters", async () => {
    const modern = new Kitsu({ baseURL: `${api.baseUrl}/api/v2`, headers: { Authorization: `Bearer ${api.org.token}` }, query: 'modern' });
    const params = { newFilterSyntax: true, filter: { firstName: ['P01', 'P07', 'nobody'] }, sort: 'firstName' };
    const page: ClientPage = await modern.get('prospects', { params });
    expect(page.data.map((p) => p.firstName)).toEqual(['P01', 'P07']);
  });

  it('surfaces a 400 as a kitsu error with the JSON:API errors', async () => {
    const failure = await kitsu.get('prospects', { params: { sort: 'emails' } }).then(
      () => undefined,
      (error: { response?: { status: number }; errors?: { source: unknown }[] }) => error,
    );
    expect(failure?.response?.status).toBe(400);
    expect(failure?.errors?.[0]!.source).toEqual({ parameter: 'sort' });
  });
});
