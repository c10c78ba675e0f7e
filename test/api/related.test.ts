import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** GET /<collection>/<id>/<relationship>: the related-resource URLs generic JSON:API clients follow. */

let api: TestApi;
let accountId: number;
let emptyAccountId: number;
let prospectIds: number[];
let loneProspectId: number;
beforeAll(async () => {
  api = await startTestApi();
  const account = (name: string) => api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name } } } });
  accountId = (await account('Acme')).body.data.id;
  emptyAccountId = (await account('Empty')).body.data.id;
  prospectIds = [];
  for (const firstName of ['Ada', 'Grace', 'Edsger']) {
    const created = await api.request('POST', '/api/v2/prospects', {
      body: { data: { type: 'prospect', attributes: { firstName }, relationships: { account: { data: { type: 'account', id: accountId } } } } },
    });
    prospectIds.push(Number(created.body.data.id));
  }
  loneProspectId = (await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 'Lone' } } } })).body.data.id;
});
afterAll(async () => {
  await api?.close();
});

describe('to-one', () => {
  it('answers the related resource, as GET of it would', async () => {
    const related = await api.request('GET', `/api/v2/prospects/${prospectIds[0]}/account`);
    const direct = await api.request('GET', `/api/v2/accounts/${accountId}`);
    expect(related.status).toBe(200);
    expect(related.body).toEqual(direct.body);
  });

  it('null when the relationship is empty; fields and include apply', async () => {
    expect((await api.request('GET', `/api/v2/prospects/${loneProspectId}/account`)).body).toEqual({ data: null });
    const sparse = await api.request('GET', `/api/v2/prospects/${prospectIds[0]}/account?fields[account]=name`);
    expect(sparse.body.data.attributes).toEqual({ name: 'Acme' });
  });
});

describe('to-many', () => {
  it('a page of the target collection, with its query parameters and links on the related URL', async () => {
    const first = await api.request('GET', `/api/v2/accounts/${accountId}/prospects?sort=firstName&page[size]=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((p: { attributes: { firstName: string } }) => p.attributes.firstName)).toEqual(['Ada', 'Edsger']);
    expect(first.body.links.next).toMatch(new RegExp(`/api/v2/accounts/${accountId}/prospects\\?page%5Bafter%5D=`));
    const next = await fetch(first.body.links.next, { headers: { authorization: `Bearer ${api.org.token}` } });
    expect((await next.json()).data.map((p: { attributes: { firstName: string } }) => p.attributes.firstName)).toEqual(['Grace']);
    const filtered = await api.request('GET', `/api/v2/accounts/${accountId}/prospects?filter[firstName]=Grace`);
    expect(filtered.body.data.map((p: { id: string }) => Number(p.id))).toEqual([prospectIds[1]]);
    expect((await api.request('GET', `/api/v2/accounts/${emptyAccountId}/prospects`)).body.data).toEqual([]);
  });

  it('the implied filter cannot be given again', async () => {
    const response = await api.request('GET', `/api/v2/accounts/${accountId}/prospects?filter[account][id]=${emptyAccountId}`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'filter[account][id]' });
  });
});

describe('refusals', () => {
  it("404 for an unknown record, an unknown relationship, another org's record", async () => {
    expect((await api.request('GET', '/api/v2/accounts/987654/prospects')).status).toBe(404);
    expect((await api.request('GET', '/api/v2/prospects/987654/account')).status).toBe(404);
    const unknown = await api.request('GET', `/api/v2/accounts/${accountId}/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].detail).toBe('account has no relationship nothing');
    const other = await api.newOrg('Other');
    expect((await api.request('GET', `/api/v2/accounts/${accountId}/prospects`, { token: other.token })).status).toBe(404);
  });

  it("403 without the related resource's read scope", async () => {
    const token = await api.newUserToken(api.org.orgId, ['accounts.read']);
    const response = await api.request('GET', `/api/v2/accounts/${accountId}/prospects`, { token });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].detail).toBe('This request needs the scope prospects.read (or prospects.all)');
    const toOne = await api.request('GET', `/api/v2/prospects/${prospectIds[0]}/account`, { token: await api.newUserToken(api.org.orgId, ['prospects.read']) });
    expect(toOne.status).toBe(403);
  });
});

describe('custom objects', () => {
  it('serve their relationships the same way', async () => {
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
      body: { data: { type: 'visit', attributes: { title: 'Lunch' }, relationships: { prospect: { data: { type: 'prospect', id: prospectIds[2] } } } } },
    });
    const related = await api.request('GET', `/api/v2/customObjects/visit/${visit.body.data.id}/prospect`);
    expect(related.status).toBe(200);
    expect(related.body.data).toMatchObject({ type: 'prospect', id: prospectIds[2], attributes: { firstName: 'Edsger' } });
  });
});
