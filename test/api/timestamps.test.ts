import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { idleInTransaction } from '../helpers/pool.js';

/**
 * Timestamps that look like RFC 3339 but that JavaScript or PostgreSQL cannot represent: a
 * leap second, year 0, a day the month does not have, an offset beyond ±15:59. Each is the
 * client's mistake, answered with 422 (body) or 400 (query) naming the field, and none may leave
 * a pooled connection inside a transaction.
 */

const UNREPRESENTABLE = [
  '2026-12-31T23:59:60Z',
  '0000-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-01-01T00:00:00+23:59',
  '2025-02-29T12:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '10000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
];

let api: TestApi;
let taskId: number;
beforeAll(async () => {
  api = await startTestApi();
  taskId = (await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } })).body.data.id;
  const definition = {
    name: 'meeting',
    displayField: 'title',
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'startsAt', type: 'date-time', filterable: true, sortable: true },
    ],
  };
  const defined = await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: definition } } });
  expect(defined.status).toBe(201);
});
afterAll(async () => {
  await api?.close();
});

const encoded = (value: string) => encodeURIComponent(value);

describe.each(UNREPRESENTABLE)('%s', (value) => {
  it('in a create body: 422 naming the attribute', async () => {
    const response = await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call', dueAt: value } } } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source).toEqual({ pointer: '/data/attributes/dueAt' });
  });

  it('in an update body: 422 naming the attribute, nothing changed', async () => {
    const response = await api.request('PATCH', `/api/v2/tasks/${taskId}`, { body: { data: { type: 'task', id: String(taskId), attributes: { dueAt: value } } } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source).toEqual({ pointer: '/data/attributes/dueAt' });
    expect((await api.request('GET', `/api/v2/tasks/${taskId}`)).body.data.attributes.dueAt).toBeNull();
  });

  it('in a custom object body: 422 naming the field', async () => {
    const response = await api.request('POST', '/api/v2/customObjects/meeting', {
      body: { data: { type: 'meeting', attributes: { title: 'Kick-off', startsAt: value } } },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source).toEqual({ pointer: '/data/attributes/startsAt' });
  });

  it.each([
    ['classic filter', (v: string) => `/api/v2/tasks?filter[dueAt]=${encoded(v)}`, 'filter[dueAt]'],
    ['classic range', (v: string) => `/api/v2/tasks?filter[dueAt]=${encoded(v)}..2027-01-01T00:00:00Z`, 'filter[dueAt]'],
    ['new syntax list', (v: string) => `/api/v2/tasks?newFilterSyntax=true&filter[dueAt][]=${encoded(v)}`, 'filter[dueAt][]'],
    ['new syntax bound', (v: string) => `/api/v2/tasks?newFilterSyntax=true&filter[dueAt][gte]=${encoded(v)}`, 'filter[dueAt][gte]'],
    ['custom object filter', (v: string) => `/api/v2/customObjects/meeting?filter[startsAt]=${encoded(v)}`, 'filter[startsAt]'],
    ['action parameter', (v: string) => `/api/v2/tasks/${taskId}/actions/snooze?actionParams[dueAt]=${encoded(v)}`, 'actionParams[dueAt]'],
  ])('in a %s: 400 naming the parameter', async (_, path, parameter) => {
    const method = path(value).includes('/actions/') ? 'POST' : 'GET';
    const response = await api.request(method, path(value));
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter });
  });
});

describe('after all of them', () => {
  it('no pooled connection is left in a transaction and the API still answers', async () => {
    expect(await idleInTransaction(api.sql)).toEqual([]);
    expect((await api.request('GET', '/api/v2/tasks')).status).toBe(200);
  });

  it('ordinary timestamps still work: offsets, fractions, the last second of a leap day', async () => {
    for (const [given, stored] of [
      ['2028-02-29T23:59:59.123Z', '2028-02-29T23:59:59.123Z'],
      ['2026-06-01T12:00:00+14:00', '2026-05-31T22:00:00.000Z'],
      ['2026-06-01T12:00:00-12:00', '2026-06-02T00:00:00.000Z'],
    ] as const) {
      const response = await api.request('PATCH', `/api/v2/tasks/${taskId}`, { body: { data: { type: 'task', id: String(taskId), attributes: { dueAt: given } } } });
      expect(response.status).toBe(200);
      expect(response.body.data.attributes.dueAt).toBe(stored);
    }
    const filtered = await api.request('GET', `/api/v2/tasks?filter[dueAt]=${encoded('2026-06-02T00:00:00Z')}`);
    expect(filtered.body.data.map((t: { id: string }) => Number(t.id))).toEqual([taskId]);
  });

  it('a date alone in a filter on a timestamp means its midnight UTC', async () => {
    const ids = async (query: string) => (await api.request('GET', `/api/v2/tasks?${query}`)).body.data.map((t: { id: string }) => Number(t.id));
    expect(await ids('filter[dueAt]=2026-06-02')).toEqual([taskId]);
    expect(await ids('filter[dueAt]=2026-06-01..2026-06-02')).toEqual([taskId]);
    expect(await ids('filter[dueAt]=2026-06-02..inf')).toEqual([taskId]);
    expect(await ids('newFilterSyntax=true&filter[dueAt][gte]=2026-06-03')).toEqual([]);
    const refused = await api.request('GET', '/api/v2/tasks?filter[dueAt]=2026-02-30');
    expect(refused.status).toBe(400);
  });
});
