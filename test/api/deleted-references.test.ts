import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { startWebhookSetup, WEBHOOK_HOST, type WebhookSetup } from '../helpers/webhook-worker.js';

/**
 * Deleting a record points the records that referred to it at nothing, and each of them gets
 * its `updated` event and webhook like any other change (issue #27: a client that keeps a copy
 * by webhooks must not keep a reference to a record that is gone). A real worker delivers to an
 * HTTPS receiver on 127.0.0.1 under a host name an injected resolver answers.
 */

let api: TestApi;
let setup: WebhookSetup;
let receiver: WebhookSetup['receiver'];

beforeAll(async () => {
  setup = await startWebhookSetup();
  ({ api, receiver } = setup);
});
afterAll(async () => {
  await setup?.close();
});

const one = (type: string, id: number) => ({ data: { type, id } });

async function create(collection: string, type: string, attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}): Promise<number> {
  const response = await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes, relationships } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

async function destroy(path: string): Promise<void> {
  const response = await api.request('DELETE', `/api/v2/${path}`);
  expect(response.status, JSON.stringify(response.body)).toBe(204);
}

interface EventAttributes {
  name: string;
  resourceId: number;
  payload: { data: { relationships?: Record<string, unknown> }; beforeUpdate?: { relationships?: Record<string, unknown> } };
}

/** The events named `name` of the records `ids`, as GET /api/v2/events lists them. */
async function eventsOf(name: string, ids: readonly number[]): Promise<EventAttributes[]> {
  const response = await api.request('GET', `/api/v2/events?filter[name]=${name}&filter[resourceId]=${ids.join(',')}&page[size]=100`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.map((e: { attributes: EventAttributes }) => e.attributes);
}

/** The relationship `name` of an event's after and before values. */
function relationshipChange(event: EventAttributes, name: string) {
  return { after: event.payload.data.relationships?.[name], before: event.payload.beforeUpdate?.relationships?.[name] };
}

const delivered = (eventName: string) => receiver.requests.map((r) => JSON.parse(r.body.toString())).filter((body) => body.meta.eventName === eventName);

describe('deleting a record that others refer to', () => {
  it("gives each of an account's prospects a prospect.updated with account null, and delivers it", async () => {
    const hook = await api.request('POST', '/api/v2/webhooks', {
      body: { data: { type: 'webhook', attributes: { url: `https://${WEBHOOK_HOST}:${receiver.port}/hook`, resource: 'prospect', action: 'updated' } } },
    });
    expect(hook.status).toBe(201);
    const account = await create('accounts', 'account', { name: 'Gone Ltd' });
    const prospects = [
      await create('prospects', 'prospect', { firstName: 'Ada' }, { account: one('account', account) }),
      await create('prospects', 'prospect', { firstName: 'Grace' }, { account: one('account', account) }),
    ];
    await destroy(`accounts/${account}`);

    const events = await eventsOf('prospect_updated', prospects);
    expect(events.map((e) => e.resourceId).sort()).toEqual([...prospects].sort());
    for (const event of events) expect(relationshipChange(event, 'account')).toEqual({ after: { data: null }, before: { data: { type: 'account', id: account } } });
    for (const id of prospects) {
      const prospect = await api.request('GET', `/api/v2/prospects/${id}`);
      expect(prospect.body.data.relationships.account.data).toBeNull();
    }

    const received = await until('two prospect.updated deliveries', () => {
      const found = delivered('prospect.updated');
      return found.length >= 2 ? found : undefined;
    });
    expect(received.map((body) => body.data.id).sort()).toEqual([...prospects].sort());
  });

  it("gives a template's sequenceTemplate a sequenceTemplate.updated with template null", async () => {
    const sequence = await create('sequences', 'sequence', { name: 'Referring' });
    const step = await create('sequenceSteps', 'sequenceStep', { stepType: 'auto_email', interval: 60 }, { sequence: one('sequence', sequence) });
    const template = await create('templates', 'template', { name: 'Hello' });
    const use = await create('sequenceTemplates', 'sequenceTemplate', {}, { sequenceStep: one('sequenceStep', step), template: one('template', template) });
    await destroy(`templates/${template}`);

    const events = await eventsOf('sequenceTemplate_updated', [use]);
    expect(events).toHaveLength(1);
    expect(relationshipChange(events[0]!, 'template')).toEqual({ after: { data: null }, before: { data: { type: 'template', id: template } } });
    expect(relationshipChange(events[0]!, 'sequenceStep')).toEqual({ after: undefined, before: undefined });
  });

  it('gives a custom object record that referred to a deleted prospect its updated event', async () => {
    const definition = await api.request('POST', '/api/v2/customObjectDefinitions', {
      body: {
        data: {
          type: 'customObjectDefinition',
          attributes: { name: 'visit', displayField: 'label', fields: [{ name: 'label', type: 'string' }], relationships: [{ name: 'prospect', target: 'prospect' }] },
        },
      },
    });
    expect(definition.status, JSON.stringify(definition.body)).toBe(201);
    const prospect = await create('prospects', 'prospect', { firstName: 'Visited' });
    const visit = await create('customObjects/visit', 'visit', { label: 'Lunch' }, { prospect: one('prospect', prospect) });
    await destroy(`prospects/${prospect}`);

    const events = await eventsOf('visit_updated', [visit]);
    expect(events).toHaveLength(1);
    expect(relationshipChange(events[0]!, 'prospect')).toEqual({ after: { data: null }, before: { data: { type: 'prospect', id: prospect } } });
    const stored = await api.request('GET', `/api/v2/customObjects/visit/${visit}`);
    expect(stored.body.data.relationships.prospect.data).toBeNull();
  });

  it('records nothing for records that refer to other records', async () => {
    const [kept, deleted] = [await create('accounts', 'account', { name: 'Kept' }), await create('accounts', 'account', { name: 'Deleted' })];
    const prospect = await create('prospects', 'prospect', { firstName: 'Elsewhere' }, { account: one('account', kept) });
    await destroy(`accounts/${deleted}`);
    expect(await eventsOf('prospect_updated', [prospect])).toEqual([]);
  });
});
