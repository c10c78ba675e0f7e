import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * activate and deactivate of sequences and sequence templates (issue #15): `enabled` and
 * `enabledAt`, enabled from creation (SPEC.md: clients enrol prospects in a sequence they never
 * activated), idempotent. The clock is the test's, so enabledAt is exact.
 */

let api: TestApi;
let now = new Date('2026-03-10T12:00:00.000Z');
const tick = () => (now = new Date(now.getTime() + 60_000));

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
});
afterAll(async () => {
  await api?.close();
});

async function create(collection: string, type: string, attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}): Promise<any> {
  const response = await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes, relationships } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

const one = (type: string, id: number) => ({ data: { type, id } });

async function sequenceTemplate(): Promise<any> {
  const sequence = await create('sequences', 'sequence', { name: 'For a template' });
  const step = await create('sequenceSteps', 'sequenceStep', { stepType: 'auto_email', interval: 60 }, { sequence: one('sequence', sequence.id) });
  const template = await create('templates', 'template', { name: 'Hello' });
  return create('sequenceTemplates', 'sequenceTemplate', {}, { sequenceStep: one('sequenceStep', step.id), template: one('template', template.id) });
}

const cases = [
  { collection: 'sequences', type: 'sequence', make: () => create('sequences', 'sequence', { name: 'Outbound' }) },
  { collection: 'sequenceTemplates', type: 'sequenceTemplate', make: sequenceTemplate },
];

describe.each(cases)('$collection', ({ collection, type, make }) => {
  const act = (id: number, action: string, query = '') => api.request('POST', `/api/v2/${collection}/${id}/actions/${action}${query}`);
  const updates = async (id: number) =>
    (await api.request('GET', `/api/v2/events?filter[resourceType]=${type}&filter[resourceId]=${id}`)).body.data.filter(
      (e: { attributes: { name: string } }) => e.attributes.name === `${type}_updated`,
    ).length;

  it('a new one is enabled, enabledAt its creation', async () => {
    tick();
    const created = await make();
    expect(created.attributes).toMatchObject({ enabled: true, enabledAt: now.toISOString() });
    expect((await api.request('GET', `/api/v2/${collection}/${created.id}`)).body.data.attributes).toMatchObject({ enabled: true, enabledAt: now.toISOString() });
  });

  it('deactivate clears enabledAt; activate sets it anew; each is idempotent', async () => {
    const created = await make();
    tick();
    const off = await act(created.id, 'deactivate');
    expect(off.status).toBe(200);
    expect(off.body.data.attributes).toMatchObject({ enabled: false, enabledAt: null });
    expect((await act(created.id, 'deactivate')).body.data.attributes).toMatchObject({ enabled: false, enabledAt: null });
    expect(await updates(created.id)).toBe(1);

    const activatedAt = tick().toISOString();
    const on = await act(created.id, 'activate');
    expect(on.body.data.attributes).toMatchObject({ enabled: true, enabledAt: activatedAt });
    tick();
    // Activating an active one keeps its enabledAt and records nothing.
    expect((await act(created.id, 'activate')).body.data.attributes).toMatchObject({ enabled: true, enabledAt: activatedAt });
    expect(await updates(created.id)).toBe(2);
  });

  it('activating one enabled at creation keeps its enabledAt', async () => {
    const created = await make();
    tick();
    expect((await act(created.id, 'activate')).body.data.attributes.enabledAt).toBe(created.attributes.enabledAt);
  });

  it('takes no parameters (400), and enabled is not the client’s to set (422)', async () => {
    const created = await make();
    const response = await act(created.id, 'activate', '?actionParams[at]=now');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'actionParams[at]' });
    const patch = await api.request('PATCH', `/api/v2/${collection}/${created.id}`, { body: { data: { type, id: String(created.id), attributes: { enabled: false } } } });
    expect(patch.status).toBe(422);
    expect(patch.body.errors[0].source).toEqual({ pointer: '/data/attributes/enabled' });
  });

  it('is 404 for a record the org does not have', async () => {
    const other = await api.newOrg();
    const theirs = (await api.request('POST', '/api/v2/sequences', { token: other.token, body: { data: { type: 'sequence', attributes: { name: 'Theirs' } } } })).body
      .data.id;
    for (const id of type === 'sequence' ? [theirs, 987654321] : [987654321]) expect((await act(id, 'deactivate')).status).toBe(404);
  });
});
