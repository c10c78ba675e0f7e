import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * include and filters across relationships read other resources: they need those resources'
 * read scopes, exactly as a GET of them would.
 */

let api: TestApi;
let prospectId: number;
let accountId: number;
beforeAll(async () => {
  api = await startTestApi();
  accountId = (await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Acme' } } } })).body.data.id;
  prospectId = (
    await api.request('POST', '/api/v2/prospects', {
      body: {
        data: {
          type: 'prospect',
          attributes: { firstName: 'Ada' },
          relationships: { account: { data: { type: 'account', id: accountId } }, owner: { data: { type: 'user', id: api.org.userId } } },
        },
      },
    })
  ).body.data.id;
  const defined = await api.request('POST', '/api/v2/customObjectDefinitions', {
    body: {
      data: {
        type: 'customObjectDefinition',
        attributes: { name: 'visit', displayField: 'title', fields: [{ name: 'title', type: 'string' }], relationships: [{ name: 'prospect', target: 'prospect' }] },
      },
    },
  });
  expect(defined.status).toBe(201);
  const visit = await api.request('POST', '/api/v2/customObjects/visit', {
    body: { data: { type: 'visit', attributes: { title: 'Lunch' }, relationships: { prospect: { data: { type: 'prospect', id: prospectId } } } } },
  });
  expect(visit.status).toBe(201);
});
afterAll(async () => {
  await api?.close();
});

const tokenWith = (...scopes: string[]) => api.newUserToken(api.org.orgId, scopes);

describe('include', () => {
  it('403 naming include when the token cannot read an included type, on a single GET and a list', async () => {
    const token = await tokenWith('prospects.read');
    // The same token may not GET the account itself.
    expect((await api.request('GET', `/api/v2/accounts/${accountId}`, { token })).status).toBe(403);
    for (const path of [`/api/v2/prospects/${prospectId}?include=account,owner`, '/api/v2/prospects?include=account']) {
      const response = await api.request('GET', path, { token });
      expect(response.status, path).toBe(403);
      expect(response.body.errors).toEqual([
        {
          id: 'insufficientScope',
          status: '403',
          title: 'Forbidden',
          detail: 'include=account needs the scope accounts.read (or accounts.all)',
          source: { parameter: 'include' },
        },
      ]);
    }
  });

  it('checks every level of a nested path', async () => {
    const token = await tokenWith('prospects.read', 'accounts.read');
    const refused = await api.request('GET', `/api/v2/prospects/${prospectId}?include=account,owner`, { token });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toBe('include=owner needs the scope users.read (or users.all)');
    const nested = await api.request('GET', '/api/v2/prospects?include=account.owner', { token });
    expect(nested.status).toBe(403);
    expect(nested.body.errors[0].detail).toBe('include=account.owner needs the scope users.read (or users.all)');
  });

  it('includes what the token can read', async () => {
    const token = await tokenWith('prospects.read', 'accounts.all', 'users.read');
    const response = await api.request('GET', `/api/v2/prospects/${prospectId}?include=account,owner`, { token });
    expect(response.status).toBe(200);
    expect(response.body.included.map((r: { type: string }) => r.type).sort()).toEqual(['account', 'user']);
  });

  it('custom objects: including a standard resource needs its scope too', async () => {
    const refused = await api.request('GET', '/api/v2/customObjects/visit?include=prospect', { token: await tokenWith('customObjects.read') });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].source).toEqual({ parameter: 'include' });
    const allowed = await api.request('GET', '/api/v2/customObjects/visit?include=prospect', { token: await tokenWith('customObjects.read', 'prospects.read') });
    expect(allowed.status).toBe(200);
    expect(allowed.body.included).toHaveLength(1);
  });
});

describe('filters across relationships', () => {
  it("403 naming the parameter for a filter on a related resource's attribute", async () => {
    const token = await tokenWith('prospects.read');
    const response = await api.request('GET', '/api/v2/prospects?filter[account][name]=Acme', { token });
    expect(response.status).toBe(403);
    expect(response.body.errors).toEqual([
      {
        id: 'insufficientScope',
        status: '403',
        title: 'Forbidden',
        detail: 'filter[account][name] reads accounts and needs the scope accounts.read (or accounts.all)',
        source: { parameter: 'filter[account][name]' },
      },
    ]);
    const allowed = await api.request('GET', '/api/v2/prospects?filter[account][name]=Acme', { token: await tokenWith('prospects.read', 'accounts.read') });
    expect(allowed.body.data.map((p: { id: string }) => Number(p.id))).toEqual([prospectId]);
  });

  it("a filter on the relationship's id reads only the resource's own column: allowed", async () => {
    const response = await api.request('GET', `/api/v2/prospects?filter[account][id]=${accountId}`, { token: await tokenWith('prospects.read') });
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(1);
  });
});
