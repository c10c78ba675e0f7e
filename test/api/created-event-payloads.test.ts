import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import type { TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { startWebhookSetup, type WebhookSetup } from '../helpers/webhook-worker.js';

/**
 * A created event is stored without its null values (runtime/engine/event-payload.ts, issue #26:
 * a prospect's ~220 mostly-null attributes were most of a bulk write's cost), yet every reader
 * sees the whole snapshot as before: GET /api/v2/events and webhook deliveries of both payload
 * versions carry every attribute of the resource, nulls included, and every to-one relationship.
 * An update's event still carries only what changed, a value set to null included.
 */

let api: TestApi;
let setup: WebhookSetup;
let accountId: number;

beforeAll(async () => {
  setup = await startWebhookSetup();
  api = setup.api;
  for (const payloadVersion of [1, 2]) {
    const hook = await api.request('POST', '/api/v2/webhooks', {
      body: { data: { type: 'webhook', attributes: { url: setup.url, resource: 'prospect', payloadVersion } } },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  }
  accountId = (await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Analytical Engines' } } } })).body.data.id;
});
afterAll(async () => {
  await setup?.close();
});

const prospect = descriptors.get('prospect')!;
const attributeNames = prospect.attributes
  .filter((a) => !a.writeOnly)
  .map((a) => a.name)
  .sort();
const toOneNames = prospect.relationships
  .filter((r) => r.kind === 'toOne')
  .map((r) => r.name)
  .sort();

interface Delivered {
  readonly body: { data: { attributes: Record<string, unknown> }; beforeUpdate?: { attributes: Record<string, unknown> }; meta: { eventName: string; eventId: number } };
  readonly text: string;
}

/** The deliveries of `eventName` about prospect `id`, once both webhooks have had theirs. */
async function deliveriesOf(id: number, eventName: string): Promise<Delivered[]> {
  return until(`${eventName} of prospect ${id} delivered to both webhooks`, () => {
    const got = setup.receiver.requests
      .map((r) => ({ text: r.body.toString(), body: JSON.parse(r.body.toString()) as Delivered['body'] & { data: { id: number } } }))
      .filter((d) => d.body.meta.eventName === eventName && Number(d.body.data.id) === id);
    return got.length >= 2 ? got : undefined;
  });
}

async function eventsOf(id: number, action: string) {
  const listed = await api.request('GET', `/api/v2/events?filter[resourceType]=prospect&filter[resourceId]=${id}&filter[action]=${action}`);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  return listed.body.data as { id: number; attributes: { payload: { data: { attributes: Record<string, unknown>; relationships: Record<string, unknown> } } } }[];
}

describe('created events', () => {
  it('are served with every attribute and to-one relationship, nulls included, as the record was created', async () => {
    const made = await api.request('POST', '/api/v2/prospects', {
      body: { data: { type: 'prospect', attributes: { firstName: 'Ada', title: 'Analyst' }, relationships: { account: { data: { type: 'account', id: accountId } } } } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data.id as number;
    const record = made.body.data.attributes as Record<string, unknown>;

    const [event] = await eventsOf(id, 'created');
    const { attributes, relationships } = event!.attributes.payload.data;
    expect(Object.keys(attributes).sort()).toEqual(attributeNames);
    expect(attributes).toEqual(record);
    expect(Object.values(attributes).filter((v) => v === null).length).toBeGreaterThan(100);
    expect(Object.keys(relationships).sort()).toEqual(toOneNames);
    expect(relationships.account).toEqual({ data: { type: 'account', id: accountId } });
    expect(relationships.owner).toEqual({ data: null });

    // Both payload versions deliver the same attributes, in the same order as the event serves them.
    const delivered = await deliveriesOf(id, 'prospect.created');
    for (const d of delivered) {
      expect(d.body.meta.eventId).toBe(event!.id);
      expect(d.body.data.attributes).toEqual(record);
      expect(JSON.stringify(d.body.data.attributes)).toBe(JSON.stringify(attributes));
    }
  });

  it('are stored without their nulls', async () => {
    const made = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 'Grace' } } } });
    const [stored] = await api.sql<{ payload: { data: { attributes: Record<string, unknown>; relationships: Record<string, unknown> } } }[]>`
      select payload from events where resource_type = 'prospect' and resource_id = ${made.body.data.id} and action = 'created'`;
    expect(Object.values(stored!.payload.data.attributes)).not.toContain(null);
    expect(stored!.payload.data.attributes.firstName).toBe('Grace');
    expect(stored!.payload.data.relationships).not.toHaveProperty('owner');
    expect(stored!.payload.data.relationships).toHaveProperty('creator');
  });
});

describe('updated events', () => {
  it('carry only what changed, a value set to null as null', async () => {
    const made = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 'Edsger', title: 'Professor' } } } });
    const id = made.body.data.id as number;
    const changed = await api.request('PATCH', `/api/v2/prospects/${id}`, { body: { data: { type: 'prospect', id, attributes: { title: null } } } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    const [event] = await eventsOf(id, 'updated');
    const { attributes } = event!.attributes.payload.data;
    expect(attributes).toHaveProperty('title', null);
    expect(Object.keys(attributes).length).toBeLessThan(10);

    const delivered = await deliveriesOf(id, 'prospect.updated');
    for (const d of delivered) expect(d.body.data.attributes).toEqual(attributes);
    const v2 = delivered.find((d) => d.body.beforeUpdate);
    expect(v2?.body.beforeUpdate?.attributes).toMatchObject({ title: 'Professor' });
  });
});
