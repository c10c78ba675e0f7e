import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * Which forms of filter[...] a collection takes (SPEC.md "Query parameters"): a custom object's
 * relationship to a user by the user's email or name (SPEC.md custom objects, rule 2), and a
 * bracketed operator on a plain attribute, which is refused with the forms of a range that are
 * accepted.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function createUser(firstName: string, lastName: string, email: string): Promise<number> {
  const created = await api.request('POST', '/api/v2/users', {
    body: { data: { type: 'user', attributes: { firstName, lastName, email }, meta: { sendInvite: false } } },
  });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

describe("a custom object's relationship to a user", () => {
  let graceVisit: string;

  beforeAll(async () => {
    const definition = {
      name: 'visit',
      displayName: 'Visit',
      displayField: 'topic',
      fields: [{ name: 'topic', type: 'string', required: true, filterable: true }],
      relationships: [{ name: 'host', target: 'user' }],
    };
    const defined = await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: definition } } });
    expect(defined.status).toBe(201);
    const grace = await createUser('Grace', 'Hopper', 'grace@example.test');
    const alan = await createUser('Alan', 'Turing', 'alan@example.test');
    const visit = async (topic: string, host: number) =>
      api.request('POST', '/api/v2/customObjects/visit', {
        body: { data: { type: 'visit', attributes: { topic }, relationships: { host: { data: { type: 'user', id: host } } } } },
      });
    graceVisit = String((await visit('Compilers', grace)).body.data.id);
    await visit('Machines', alan);
  });

  it("is filtered by the user's name", async () => {
    const listed = await api.request('GET', '/api/v2/customObjects/visit?filter[host][name]=Grace Hopper');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { id: number }) => String(r.id))).toEqual([graceVisit]);
  });

  it("is filtered by the user's email, as before", async () => {
    const listed = await api.request('GET', '/api/v2/customObjects/visit?filter[host][email]=grace@example.test');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { id: number }) => String(r.id))).toEqual([graceVisit]);
  });

  it("refuses another of the user's attributes, naming the accepted forms", async () => {
    const refused = await api.request('GET', '/api/v2/customObjects/visit?filter[host][title]=Admiral');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({
      detail: 'filter[host][title] is not supported; accepted: filter[host][id], filter[host][email], filter[host][name]',
      source: { parameter: 'filter[host][title]' },
    });
  });
});

describe('a bracketed operator on a plain attribute', () => {
  it('is a 400 naming the accepted forms of a range, not a missing relationship', async () => {
    const refused = await api.request('GET', '/api/v2/accounts?filter[buyerIntentScore][gt]=5');
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      {
        id: 'invalidQueryParameter',
        status: '400',
        title: 'Bad Request',
        detail:
          '[gt] is not a filter operator: buyerIntentScore is an attribute, filtered as filter[buyerIntentScore]=<value>, a range as filter[buyerIntentScore]=<from>..<to> ' +
          '(neginf..<to> or <from>..inf for an open side), or with newFilterSyntax=true as filter[buyerIntentScore][gte]=<from> and/or filter[buyerIntentScore][lte]=<to>',
        source: { parameter: 'filter[buyerIntentScore][gt]' },
      },
    ]);
  });

  it('is refused the same way with newFilterSyntax=true', async () => {
    const refused = await api.request('GET', '/api/v2/accounts?newFilterSyntax=true&filter[buyerIntentScore][gt]=5');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].detail).toMatch(/^\[gt\] is not a filter operator: .*filter\[buyerIntentScore\]\[gte\]=<from>/);
    expect(refused.body.errors[0].source).toEqual({ parameter: 'filter[buyerIntentScore][gt]' });
  });

  it('on an attribute that is not filterable says so', async () => {
    const refused = await api.request('GET', '/api/v2/accounts?filter[tickerSymbol][gt]=A');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ detail: 'tickerSymbol is not filterable', source: { parameter: 'filter[tickerSymbol][gt]' } });
  });

  it('leaves the accepted forms working: a classic range and newFilterSyntax bounds', async () => {
    const create = (name: string, buyerIntentScore: number) =>
      api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name, buyerIntentScore } } } });
    const high = (await create('High intent', 9)).body.data.id;
    await create('Low intent', 2);
    const ids = (response: { body: { data: { id: number }[] } }) => response.body.data.map((r) => r.id);
    expect(ids(await api.request('GET', '/api/v2/accounts?filter[buyerIntentScore]=5..inf'))).toEqual([high]);
    expect(ids(await api.request('GET', '/api/v2/accounts?newFilterSyntax=true&filter[buyerIntentScore][gte]=5'))).toEqual([high]);
  });

  it('on a name that is neither attribute nor relationship keeps its error', async () => {
    const refused = await api.request('GET', '/api/v2/accounts?filter[nothing][gt]=5');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ detail: 'account has no relationship nothing', source: { parameter: 'filter[nothing][gt]' } });
  });
});
