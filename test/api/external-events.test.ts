import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** Apps record external activity as events (SPEC.md's server-to-server example); events never change once recorded. */

let api: TestApi;
let prospectId: number;
beforeAll(async () => {
  api = await startTestApi();
  prospectId = (await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 'Ada' } } } })).body.data.id;
});
afterAll(async () => {
  await api?.close();
});

const eventCount = async () => (await api.sql`select count(*)::int as n from events`)[0]!.n as number;

describe('POST /api/v2/events', () => {
  it('records an external event tied to a prospect, and no event about it', async () => {
    const before = await eventCount();
    const started = Date.now();
    const response = await api.request('POST', '/api/v2/events', {
      body: {
        data: {
          type: 'event',
          attributes: { name: 'webinar_attended', externalUrl: 'https://app.example.test/webinars/7', body: 'Attended the June webinar' },
          relationships: { prospect: { data: { type: 'prospect', id: prospectId } } },
        },
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({
      name: 'webinar_attended',
      externalUrl: 'https://app.example.test/webinars/7',
      body: 'Attended the June webinar',
      action: null,
      resourceType: null,
    });
    expect(Date.parse(response.body.data.attributes.eventAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(response.body.data.relationships.prospect.data).toEqual({ type: 'prospect', id: prospectId });
    expect(await eventCount()).toBe(before + 1);
    const listed = await api.request('GET', `/api/v2/events?filter[prospect][id]=${prospectId}&filter[name]=webinar_attended`);
    expect(listed.body.data.map((e: { id: number }) => e.id)).toEqual([response.body.data.id]);
  });

  it('keeps the time the app gives', async () => {
    const response = await api.request('POST', '/api/v2/events', {
      body: { data: { type: 'event', attributes: { name: 'call_logged', eventAt: '2026-03-01T10:00:00Z' } } },
    });
    expect(response.body.data.attributes.eventAt).toBe('2026-03-01T10:00:00.000Z');
  });

  it('refuses what the service records itself, a prospect of another org, and tokens without events.write', async () => {
    const own = await api.request('POST', '/api/v2/events', { body: { data: { type: 'event', attributes: { resourceType: 'prospect' } } } });
    expect(own.status).toBe(422);
    expect(own.body.errors[0].source).toEqual({ pointer: '/data/attributes/resourceType' });
    const other = await api.newOrg('Other');
    const foreign = await api.request('POST', '/api/v2/events', {
      token: other.token,
      body: { data: { type: 'event', attributes: { name: 'x' }, relationships: { prospect: { data: { type: 'prospect', id: prospectId } } } } },
    });
    expect(foreign.status).toBe(422);
    const readOnly = await api.newUserToken(api.org.orgId, ['events.read']);
    expect((await api.request('POST', '/api/v2/events', { token: readOnly, body: { data: { type: 'event', attributes: { name: 'x' } } } })).status).toBe(403);
  });

  it('an event never changes once recorded', async () => {
    const id = (await api.request('POST', '/api/v2/events', { body: { data: { type: 'event', attributes: { name: 'kept' } } } })).body.data.id;
    const patch = await api.request('PATCH', `/api/v2/events/${id}`, { body: { data: { type: 'event', id: String(id), attributes: { name: 'changed' } } } });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('GET');
    expect((await api.request('DELETE', `/api/v2/events/${id}`)).status).toBe(405);
  });
});
