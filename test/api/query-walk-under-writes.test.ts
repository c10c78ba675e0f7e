import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { compareRows, prospectRowOf, sortParam, type ProspectRow, type SortKey } from './query-model.js';

/**
 * Keyset pages stay exact while the collection changes under a client walking it: between
 * page fetches rows are inserted on both sides of the cursor and deleted (the cursor's own row
 * among them). Every row that existed throughout appears exactly once, no id twice, every row
 * inserted after the cursor position appears, and none inserted before it.
 */

let api: TestApi;

const FIRST_NAMES = ['ada', 'bob', 'carol', 'dave', 'eve', null] as const;
const TITLES = ['cto', 'dev', 'vp', null] as const;
const PAGE_SIZE = 7;

const rowArbitrary = fc.record({ firstName: fc.constantFrom(...FIRST_NAMES), title: fc.constantFrom(...TITLES) });

async function insert(attributes: { firstName: string | null; title: string | null }): Promise<ProspectRow> {
  const response = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return prospectRowOf(response.body.data);
}

async function remove(id: number): Promise<void> {
  expect((await api.request('DELETE', `/api/v2/prospects/${id}`)).status).toBe(204);
}

async function allIds(): Promise<Set<number>> {
  const response = await api.request('GET', '/api/v2/prospects?page[size]=1000');
  return new Set(response.body.data.map((r: { id: number }) => r.id));
}

beforeAll(async () => {
  api = await startTestApi();
}, 120_000);
afterAll(async () => {
  await api?.close();
});

describe('walking with links.next while rows come and go', () => {
  const sorts: SortKey[][] = [
    [{ attribute: 'firstName', descending: false }],
    [
      { attribute: 'title', descending: true },
      { attribute: 'firstName', descending: false },
    ],
    [{ attribute: 'createdAt', descending: true }],
  ];

  it.each(sorts.map((sort) => [sortParam(sort), sort] as const))(
    'sort=%s',
    async (_, sort) => {
      await api.sql`delete from prospects`;
      const seeds = fc.sample(rowArbitrary, { seed: 100, numRuns: 100 });
      for (let i = 0; i < seeds.length; i += 10) await Promise.all(seeds.slice(i, i + 10).map(insert));
      const order = compareRows(sort);
      const random = fc.sample(fc.tuple(rowArbitrary, rowArbitrary, rowArbitrary, fc.nat(), fc.nat(), fc.boolean()), { seed: 7, numRuns: 40 });
      const atStart = await allIds();
      expect(atStart.size).toBe(100);

      const seen: number[] = [];
      const seenRows: ProspectRow[] = [];
      const insertedAfter = new Set<number>();
      const insertedBefore = new Set<number>();
      const deleted = new Set<number>();
      let link: string | undefined = `/api/v2/prospects?sort=${sortParam(sort)}&page[size]=${PAGE_SIZE}`;
      for (let page = 0; link; page++) {
        expect(page, 'pages').toBeLessThan(40);
        const response = await api.request('GET', link);
        expect(response.status, `${link}: ${JSON.stringify(response.body)}`).toBe(200);
        const rows: ProspectRow[] = response.body.data.map(prospectRowOf);
        seen.push(...rows.map((r) => r.id));
        seenRows.push(...rows);
        link = response.body.links.next?.slice(api.baseUrl.length);
        if (!link) break;

        const cursor = rows[rows.length - 1]!;
        const [a, b, c, i, j, deleteCursorRow] = random[page]!;
        // Three new rows: where each lands relative to the cursor decides whether it must appear.
        for (const row of await Promise.all([a, b, c].map(insert))) (order(row, cursor) > 0 ? insertedAfter : insertedBefore).add(row.id);
        // One row already seen or the cursor's own row, and one not yet seen (if any).
        const victims = [deleteCursorRow ? cursor.id : seen[i % seen.length]!];
        const live = await allIds();
        const unseen = [...live].filter((id) => !seen.includes(id) && !victims.includes(id));
        if (unseen.length) victims.push(unseen[j % unseen.length]!);
        const fresh = victims.filter((id) => !deleted.has(id));
        await Promise.all(fresh.map(remove));
        for (const id of fresh) deleted.add(id);
      }

      const atEnd = await allIds();
      const throughout = [...atStart].filter((id) => atEnd.has(id));
      expect(new Set(seen).size, 'no id twice').toBe(seen.length);
      expect(seenRows, 'in sort order across pages').toEqual([...seenRows].sort(order));
      expect(seen.filter((id) => atStart.has(id) || insertedAfter.has(id) || insertedBefore.has(id))).toEqual(seen);
      for (const id of throughout) expect(seen, `row ${id} existed throughout`).toContain(id);
      for (const id of insertedAfter) if (!deleted.has(id)) expect(seen, `row ${id} inserted after the cursor`).toContain(id);
      for (const id of insertedBefore) expect(seen, `row ${id} inserted before the cursor`).not.toContain(id);
      expect(deleted.size).toBeGreaterThan(10);
      expect(insertedAfter.size + insertedBefore.size).toBeGreaterThan(20);
    },
    60_000,
  );
});
