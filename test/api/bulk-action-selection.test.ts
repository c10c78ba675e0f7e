import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../runtime/admin/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { filterArbitrary, filterValueArbitrary } from './query-arbitraries.js';
import { filterParams, pathOf, type TextAttribute, type ValueFilter } from './query-model.js';

/**
 * A bulk action selects exactly the records that the same filter selects on the collection:
 * for random filters in the new syntax (values lists, gte/lte ranges, null markers, relationship
 * ids, filter[q]), sometimes narrowed by `ids`, the items of a batch created without
 * skipConfirmation are the records GET /api/v2/prospects?newFilterSyntax=true returns over all
 * its pages. The batch stays `confirming` (nothing is applied) and is canceled afterwards.
 */

let api: TestApi;

const SEED_ROWS = 300;
const FIRST_NAMES = ['ada', 'alan', 'bob', 'carol', 'dave', null] as const;
const TITLES = ['cto', 'dev', 'eng', 'vp', null] as const;
const LAST_NAME = /^[a-e]{1,3}$/;
const ACCOUNT_NAMES = ['acme', 'globex', 'initech', 'umbrella', 'acme,two'];
/** A few addresses several prospects share, so that an emails filter selects more than one. */
const SHARED_EMAILS = ['sales@shared.test', 'ops@shared.test', 'info@shared.test'];
const MISSING_ID = '987654321';
const ITEMS_PAGE = 1000;
const LIST_PAGE = 100;

/** What the seeded prospects hold, as the API renders it: the values filters are drawn from. */
interface Held {
  readonly ids: string[];
  readonly text: Record<TextAttribute, string[]>;
  readonly createdAt: string[];
  readonly accountIds: string[];
  readonly ownerIds: string[];
  readonly emails: string[];
}

let held: Held;

/** One filter of the request: `target` as inside `filter[...]`, e.g. `title`, `account][id`, `q`. */
interface SelectionFilter {
  readonly target: string;
  readonly filter: ValueFilter;
}

interface ActionCase {
  readonly action: 'prospectsBulkModify' | 'prospectsAddTags' | 'prospectsDestroyAll';
  readonly filters: readonly SelectionFilter[];
  /** attributes.ids, numbers or numeric strings as a client may send them; undefined: not sent. */
  readonly ids: readonly (number | string)[] | undefined;
}

const ATTRIBUTES: Record<ActionCase['action'], Record<string, unknown>> = {
  prospectsBulkModify: { title: 'never applied' },
  prospectsAddTags: { tags: ['never-applied'] },
  prospectsDestroyAll: {},
};

const seedArbitrary = fc.record({
  firstName: fc.constantFrom(...FIRST_NAMES),
  lastName: fc.option(fc.stringMatching(LAST_NAME), { nil: null, freq: 6 }),
  title: fc.constantFrom(...TITLES),
  sharedEmail: fc.option(fc.constantFrom(...SHARED_EMAILS), { nil: undefined, freq: 2 }),
  account: fc.option(fc.nat({ max: ACCOUNT_NAMES.length - 1 }), { nil: undefined, freq: 5 }),
  owner: fc.option(fc.nat({ max: 2 }), { nil: undefined, freq: 2 }),
});

async function request(method: string, path: string, body?: unknown, status = 200) {
  const response = await api.request(method, path, body === undefined ? {} : { body });
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
  return response.body;
}

async function seedProspects(accountIds: string[], ownerIds: number[]): Promise<void> {
  const seeds = fc.sample(seedArbitrary, { seed: 20261122, numRuns: SEED_ROWS });
  for (let i = 0; i < seeds.length; i += 10) {
    await Promise.all(
      seeds.slice(i, i + 10).map((seed, j) => {
        const { sharedEmail, account, owner, ...attributes } = seed;
        const emails = [`p${i + j}@example.test`, ...(sharedEmail ? [sharedEmail] : [])];
        const relationships = {
          ...(account !== undefined && { account: { data: { type: 'account', id: accountIds[account] } } }),
          ...(owner !== undefined && { owner: { data: { type: 'user', id: ownerIds[owner] } } }),
        };
        return request('POST', '/api/v2/prospects', { data: { type: 'prospect', attributes: { ...attributes, emails }, relationships } }, 201);
      }),
    );
  }
}

beforeAll(async () => {
  api = await startTestApi();
  const accountIds: string[] = [];
  for (const name of ACCOUNT_NAMES) {
    const response = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name } } } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    accountIds.push(String(response.body.data.id));
  }
  const ownerIds = [api.org.userId];
  for (const email of ['owner1@example.test', 'owner2@example.test']) ownerIds.push((await createUser(api.sql, { orgId: api.org.orgId, email, admin: false })).userId);
  await seedProspects(accountIds, ownerIds);

  const all = await request('GET', `/api/v2/prospects?page[size]=${ITEMS_PAGE}&sort=id`);
  expect(all.links.next).toBeUndefined();
  expect(all.data).toHaveLength(SEED_ROWS);
  type Resource = { id: string; attributes: Record<string, unknown> };
  const resources = all.data as Resource[];
  const distinct = (values: unknown[]) => [...new Set(values.filter((v): v is string | number => v !== null && v !== undefined).map(String))].sort();
  held = {
    ids: resources.map((r) => String(r.id)),
    text: {
      firstName: distinct(resources.map((r) => r.attributes.firstName)),
      lastName: distinct(resources.map((r) => r.attributes.lastName)),
      title: distinct(resources.map((r) => r.attributes.title)),
    },
    createdAt: distinct(resources.map((r) => r.attributes.createdAt)),
    accountIds,
    ownerIds: ownerIds.map(String),
    emails: [...SHARED_EMAILS, ...distinct(resources.flatMap((r) => r.attributes.emails as string[])).slice(0, 5)],
  };
}, 120_000);
afterAll(async () => {
  await api?.close();
});

/** Values lists and null markers on a to-one relationship's id (the syntax has no filter[rel][id][gte]). */
function relationshipIdArbitrary(relationship: 'account' | 'owner', ids: readonly string[]): fc.Arbitrary<SelectionFilter> {
  const id = fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 5 }, fc.constant(MISSING_ID));
  const filter: fc.Arbitrary<ValueFilter> = fc.oneof(
    { arbitrary: fc.array(id, { minLength: 1, maxLength: 3 }).map((values) => ({ kind: 'in' as const, values })), weight: 3 },
    fc.constant({ kind: 'null' as const }),
    fc.constant({ kind: 'notNull' as const }),
  );
  return filter.map((f) => ({ target: `${relationship}][id`, filter: f }));
}

/** gte/lte over values the rows hold (ids, createdAt timestamps). */
function rangeArbitrary(target: string, values: readonly string[]): fc.Arbitrary<SelectionFilter> {
  const value = fc.constantFrom(...values);
  return fc
    .record({ gte: value, lte: value }, { requiredKeys: [] })
    .filter((r) => r.gte !== undefined || r.lte !== undefined)
    .map((r) => ({ target, filter: { kind: 'range' as const, ...r } }));
}

function listArbitrary(target: string, values: fc.Arbitrary<string>): fc.Arbitrary<SelectionFilter> {
  return fc.array(values, { minLength: 1, maxLength: 3 }).map((list) => ({ target, filter: { kind: 'in' as const, values: list } }));
}

/** filter[q]: a prefix over every searchable attribute, or over one, or `_NULL_` of one. */
function searchArbitrary(): fc.Arbitrary<SelectionFilter> {
  const attribute = fc.constantFrom<TextAttribute>('firstName', 'lastName', 'title');
  const text = fc.oneof(
    attribute.chain((a) => fc.constantFrom(...held.text[a])).map((v) => v.slice(0, 2)),
    attribute.chain((a) => fc.constantFrom(...held.text[a]).map((v) => `${v.slice(0, 1)},${a}`)),
    attribute.map((a) => `_NULL_,${a}`),
  );
  return text.map((q) => ({ target: 'q', filter: { kind: 'in' as const, values: [q] } }));
}

function selectionFilterArbitrary(): fc.Arbitrary<SelectionFilter> {
  const text = (attribute: TextAttribute) => filterArbitrary(attribute, true, held.text[attribute]).map(({ attribute: target, filter }) => ({ target, filter }));
  return fc.oneof(
    { arbitrary: text('firstName'), weight: 3 },
    { arbitrary: text('lastName'), weight: 2 },
    { arbitrary: text('title'), weight: 3 },
    { arbitrary: relationshipIdArbitrary('account', held.accountIds), weight: 3 },
    { arbitrary: relationshipIdArbitrary('owner', held.ownerIds), weight: 2 },
    { arbitrary: rangeArbitrary('id', held.ids), weight: 2 },
    { arbitrary: rangeArbitrary('createdAt', held.createdAt), weight: 1 },
    { arbitrary: listArbitrary('emails', fc.constantFrom(...held.emails)), weight: 1 },
    { arbitrary: listArbitrary('account][name', filterValueArbitrary(ACCOUNT_NAMES)), weight: 1 },
    { arbitrary: searchArbitrary(), weight: 1 },
  );
}

/** A subset of the rows' ids, some as numbers and some as numeric strings, sometimes with an id no row has. */
function idsArbitrary(): fc.Arbitrary<(number | string)[]> {
  return fc
    .tuple(fc.subarray(held.ids, { minLength: 1 }), fc.boolean(), fc.boolean())
    .map(([ids, missing, numbers]) => [...ids, ...(missing ? [MISSING_ID] : [])].map((id, i) => (numbers && i % 2 === 0 ? Number(id) : id)));
}

function actionCaseArbitrary(): fc.Arbitrary<ActionCase> {
  return fc.record({
    action: fc.constantFrom<ActionCase['action']>('prospectsBulkModify', 'prospectsAddTags', 'prospectsDestroyAll'),
    // One filter per target: two on the same target would be one filter of several values.
    filters: fc.uniqueArray(selectionFilterArbitrary(), { minLength: 1, maxLength: 2, selector: (f) => f.target }),
    ids: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: idsArbitrary(), weight: 1 }),
  });
}

function filterParamsOf(filters: readonly SelectionFilter[], prefix: string): [string, string][] {
  return filters.flatMap((f) => filterParams(f.target, f.filter, true, prefix));
}

/** Every id GET /api/v2/prospects returns for the filters, following links.next. */
async function listedIds(filters: readonly SelectionFilter[]): Promise<string[]> {
  const ids: string[] = [];
  let path: string | undefined = pathOf('/api/v2/prospects', [['newFilterSyntax', 'true'], ...filterParamsOf(filters, 'filter'), ['page[size]', String(LIST_PAGE)]]);
  for (let pages = 0; path; pages++) {
    expect(pages, 'more pages than rows').toBeLessThanOrEqual(SEED_ROWS / LIST_PAGE + 1);
    const body = await request('GET', path);
    ids.push(...body.data.map((r: { id: string }) => String(r.id)));
    path = body.links.next === undefined ? undefined : (body.links.next as string).slice(api.baseUrl.length);
  }
  return ids;
}

/** The itemIds of a batch's items, all on one page. */
async function itemIds(batchId: string): Promise<string[]> {
  const body = await request('GET', `/api/v2/batchItems?filter[batch][id]=${batchId}&page[size]=${ITEMS_PAGE}`);
  expect(body.links.next, 'every item on one page').toBeUndefined();
  return body.data.map((item: { attributes: { itemId: number | string } }) => String(item.attributes.itemId));
}

const sortedIds = (ids: Iterable<string>) => [...ids].sort((a, b) => Number(a) - Number(b));

describe('a bulk action selects what the same filter lists', () => {
  it('the items of a confirming batch are the records of GET ?newFilterSyntax=true, narrowed by ids', async () => {
    await fc.assert(
      fc.asyncProperty(actionCaseArbitrary(), async (c) => {
        const listed = await listedIds(c.filters);
        const narrowing = c.ids && new Set(c.ids.map(String));
        const expected = sortedIds(narrowing ? listed.filter((id) => narrowing.has(id)) : listed);

        const path = pathOf(`/api/v2/batches/actions/${c.action}`, filterParamsOf(c.filters, 'actionParams[filter]'));
        const attributes = { ...ATTRIBUTES[c.action], ...(c.ids && { ids: c.ids }) };
        const batch = (await request('POST', path, { data: { type: 'batch', attributes } })).data;
        const described = `${path} ids=${JSON.stringify(c.ids)}`;
        expect(batch.attributes, described).toMatchObject({
          action: c.action,
          resourceType: 'prospect',
          state: 'confirming',
          confirmCount: expected.length,
          total: expected.length,
          pending: expected.length,
          failures: 0,
          confirmedCountRequired: c.action === 'prospectsDestroyAll',
        });
        expect(sortedIds(await itemIds(batch.id)), described).toEqual(expected);

        const canceled = (await request('POST', `/api/v2/batches/${batch.id}/actions/cancel`)).data;
        expect(canceled.attributes.state).toBe('canceled');
      }),
      { numRuns: 80, seed: 13 },
    );
  }, 60_000);

  it('nothing was applied: every seeded prospect is there, untouched', async () => {
    const all = await request('GET', `/api/v2/prospects?page[size]=${ITEMS_PAGE}&sort=id`);
    expect(all.data.map((r: { id: string }) => String(r.id))).toEqual(held.ids);
    for (const prospect of all.data) {
      expect(prospect.attributes.title).not.toBe(ATTRIBUTES.prospectsBulkModify.title);
      expect(prospect.attributes.tags ?? []).not.toContain('never-applied');
    }
  });
});
