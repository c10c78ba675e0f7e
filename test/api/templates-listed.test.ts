import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * SPEC.md, Other operations: "a template without a name is hidden from lists and from the UI
 * and can still be attached to a sequence template" (the template schema's x-listedWhen).
 */

let api: TestApi;
const ids: Record<string, number> = {};

beforeAll(async () => {
  api = await startTestApi();
  const cases: [string, Record<string, unknown>][] = [
    ['named', { name: 'Intro', subject: 'Hello', shareType: 'private' }],
    ['unnamed', { subject: 'Hello', shareType: 'private' }],
    ['nullName', { name: null, subject: 'Hello', shareType: 'private' }],
    ['emptyName', { name: '', subject: 'Hello', shareType: 'private' }],
  ];
  for (const [key, attributes] of cases) {
    const response = await api.request('POST', '/api/v2/templates', { body: { data: { type: 'template', attributes } } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    ids[key] = response.body.data.id;
  }
});
afterAll(async () => {
  await api?.close();
});

const listed = async (query = '') => {
  const response = await api.request('GET', `/api/v2/templates?count=true${query}`);
  expect(response.status).toBe(200);
  return { ids: response.body.data.map((t: { id: number }) => t.id), count: response.body.meta.count };
};

describe('a template without a name', () => {
  it('is left out of the list and its count', async () => {
    expect(await listed()).toEqual({ ids: [ids.named], count: 1 });
  });

  it('is left out whatever the filter, page or sort', async () => {
    expect(await listed('&filter[shareType]=private')).toEqual({ ids: [ids.named], count: 1 });
    expect(await listed(`&filter[id]=${ids.unnamed},${ids.emptyName}`)).toEqual({ ids: [], count: 0 });
    expect(await listed('&page[offset]=0&page[limit]=10&sort=-name')).toEqual({ ids: [ids.named], count: 1 });
  });

  it('is still read by its id', async () => {
    for (const key of ['unnamed', 'nullName', 'emptyName']) {
      const response = await api.request('GET', `/api/v2/templates/${ids[key]}`);
      expect(response.status, key).toBe(200);
      expect(response.body.data.attributes.subject).toBe('Hello');
    }
  });

  it('can be attached to a sequence template, and read through it', async () => {
    const one = (type: string, id: number) => ({ data: { type, id } });
    const sequence = (await api.request('POST', '/api/v2/sequences', { body: { data: { type: 'sequence', attributes: { name: 'S' } } } })).body.data.id;
    const step = await api.request('POST', '/api/v2/sequenceSteps', {
      body: { data: { type: 'sequenceStep', attributes: { stepType: 'auto_email', interval: 60 }, relationships: { sequence: one('sequence', sequence) } } },
    });
    const attached = await api.request('POST', '/api/v2/sequenceTemplates', {
      body: { data: { type: 'sequenceTemplate', relationships: { sequenceStep: one('sequenceStep', step.body.data.id), template: one('template', ids.unnamed!) } } },
    });
    expect(attached.status, JSON.stringify(attached.body)).toBe(201);
    expect(attached.body.data.relationships.template.data).toEqual({ type: 'template', id: ids.unnamed });
    const related = await api.request('GET', `/api/v2/sequenceTemplates/${attached.body.data.id}/template`);
    expect(related.body.data.id).toBe(ids.unnamed);
    const included = await api.request('GET', `/api/v2/sequenceTemplates/${attached.body.data.id}?include=template`);
    expect(included.body.included.map((t: { id: number }) => t.id)).toEqual([ids.unnamed]);
  });

  it('is listed once it gets a name', async () => {
    const id = ids.emptyName!;
    const named = await api.request('PATCH', `/api/v2/templates/${id}`, { body: { data: { type: 'template', id: String(id), attributes: { name: 'Named later' } } } });
    expect(named.status).toBe(200);
    expect((await listed('&sort=id')).ids).toEqual([ids.named, id]);
    await api.request('PATCH', `/api/v2/templates/${id}`, { body: { data: { type: 'template', id: String(id), attributes: { name: '' } } } });
    expect((await listed()).ids).toEqual([ids.named]);
  });
});
