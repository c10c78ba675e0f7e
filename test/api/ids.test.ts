import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { requiredActionParams } from '../helpers/samples.js';

/**
 * Ids a client sends that can name no record: zero, leading zeros, and numbers past
 * Number.MAX_SAFE_INTEGER (which a JS number rounds to another id) or past what bigint holds.
 * In a path they are not found (404), whatever the operation; in a body's relationship linkage
 * they are a 422 at the relationship, as unknown ids are; in filter[id] and filter[<rel>][id]
 * they are a 400 naming the parameter, as any value that is not an id is.
 */

let api: TestApi;

const HOSTILE_IDS = ['9223372036854775807', '9223372036854775808', '99999999999999999999', '9007199254740992', '9007199254740993', '0', '007'];

const room = {
  name: 'room',
  displayName: 'Room',
  displayField: 'label',
  fields: [{ name: 'label', type: 'string' }],
  relationships: [{ name: 'prospect', target: 'prospect' }],
};
let definitionId: number;

beforeAll(async () => {
  api = await startTestApi();
  definitionId = (await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: room } } })).body.data.id;
  // Something to find at id 7, so that 007 is refused for its form, not for being absent.
  for (let i = 0; i < 7; i++) await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: `A${i}` } } } });
});
afterAll(async () => {
  await api?.close();
});

interface PathCase {
  method: string;
  path: (id: string) => string;
  body?: (id: string) => unknown;
}

/** Every member path of every collection, as the descriptors declare them. */
function memberCases(): [string, PathCase][] {
  const cases: [string, PathCase][] = [];
  for (const d of descriptors.values()) {
    const path = (id: string) => `/api/v2/${d.collection}/${id}`;
    if (d.operations.get) cases.push([`GET ${d.collection}`, { method: 'GET', path }]);
    if (d.operations.update) cases.push([`PATCH ${d.collection}`, { method: 'PATCH', path, body: (id) => ({ data: { type: d.type, id } }) }]);
    if (d.operations.delete) cases.push([`DELETE ${d.collection}`, { method: 'DELETE', path }]);
    const related = d.operations.get ? d.relationships[0] : undefined;
    if (related) cases.push([`GET ${d.collection}/<id>/${related.name}`, { method: 'GET', path: (id) => `${path(id)}/${related.name}` }]);
    for (const action of d.actions) {
      const params = requiredActionParams(action);
      cases.push([`${action.name} on ${d.collection}`, { method: 'POST', path: (id) => `${path(id)}/actions/${action.name}${params ? `?${params}` : ''}` }]);
    }
  }
  const custom = (id: string) => `/api/v2/customObjects/room/${id}`;
  const definition = (id: string) => `/api/v2/customObjectDefinitions/${id}`;
  cases.push(
    ['GET a custom object', { method: 'GET', path: custom }],
    ['PATCH a custom object', { method: 'PATCH', path: custom, body: (id) => ({ data: { type: 'room', id } }) }],
    ['DELETE a custom object', { method: 'DELETE', path: custom }],
    ["GET a custom object's related prospect", { method: 'GET', path: (id) => `${custom(id)}/prospect` }],
    ['GET a custom object definition', { method: 'GET', path: definition }],
    ['PATCH a custom object definition', { method: 'PATCH', path: definition, body: (id) => ({ data: { type: 'customObjectDefinition', id } }) }],
    ['DELETE a custom object definition', { method: 'DELETE', path: definition }],
  );
  return cases;
}

describe('an id in a path that can name no record is not found', () => {
  it.each(memberCases())('%s', async (_name, { method, path, body }) => {
    const answers = [];
    for (const id of HOSTILE_IDS) {
      const response = await api.request(method, path(id), body ? { body: body(id) } : {});
      answers.push({ id, status: response.status, error: response.body?.errors?.[0]?.id });
    }
    expect(answers).toEqual(HOSTILE_IDS.map((id) => ({ id, status: 404, error: 'resourceNotFound' })));
  });

  it('the largest id the API accepts is looked up like any other', async () => {
    expect((await api.request('GET', `/api/v2/accounts/${Number.MAX_SAFE_INTEGER}`)).status).toBe(404);
    expect((await api.request('GET', '/api/v2/accounts/7')).status).toBe(200);
    expect((await api.request('GET', `/api/v2/customObjectDefinitions/${definitionId}`)).status).toBe(200);
  });
});

describe('relationship linkage with such an id is a 422 at the relationship', () => {
  const linked = (id: unknown) => ({ data: { type: 'prospect', relationships: { account: { data: { type: 'account', id } } } } });

  // 2 ** 63 is the number a JSON parser makes of 9223372036854775807, bigint's largest value.
  it.each([...HOSTILE_IDS, 2 ** 63, 1e20, -1, 0, Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)])('account id %j', async (id) => {
    const response = await api.request('POST', '/api/v2/prospects', { body: linked(id) });
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.errors[0].source.pointer).toMatch(/^\/data\/relationships\/account/);
  });

  it.each(['9223372036854775807', 1e20, Number.MAX_SAFE_INTEGER])('a custom object linking prospect %j', async (id) => {
    const response = await api.request('POST', '/api/v2/customObjects/room', {
      body: { data: { type: 'room', attributes: { label: 'x' }, relationships: { prospect: { data: { type: 'prospect', id } } } } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.errors[0].source.pointer).toMatch(/^\/data\/relationships\/prospect/);
  });
});

describe('filters by such an id are a 400 naming the parameter', () => {
  it.each(HOSTILE_IDS.filter((id) => id.length > 15))('filter[id]=%s, filter[account][id]=%s', async (id) => {
    for (const parameter of ['filter[id]', 'filter[account][id]']) {
      const response = await api.request('GET', `/api/v2/prospects?${encodeURIComponent(parameter)}=${id}`);
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ id: 'invalidQueryParameter', source: { parameter } });
    }
    const custom = await api.request('GET', `/api/v2/customObjects/room?${encodeURIComponent('filter[prospect][id]')}=${id}`);
    expect(custom.status).toBe(400);
  });
});
