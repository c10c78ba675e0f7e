import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { startWebhookSetup, type WebhookSetup } from '../helpers/webhook-worker.js';

/**
 * batch declares the webhook actions created and updated (schema/batch.json), and both reach a
 * webhook: a batch made by a bulk action or a bulk upsert is `batch.created`, and its finish is
 * `batch.updated` with state finished (written through the record writer: issue #27 item 3).
 * A real worker, and a real HTTPS receiver on 127.0.0.1 under a fake host an injected resolver
 * answers.
 */

let api: TestApi;
let setup: WebhookSetup;
let receiver: WebhookSetup['receiver'];

beforeAll(async () => {
  setup = await startWebhookSetup();
  ({ api, receiver } = setup);
  const hook = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url: setup.url, resource: 'batch' } } } });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
});
afterAll(async () => {
  await setup?.close();
});

interface Delivery {
  readonly eventName: string;
  readonly id: string;
  readonly attributes: Record<string, unknown>;
}

/** What the receiver got about batch `id`, in the order received. */
function deliveriesOf(id: string): Delivery[] {
  return receiver.requests
    .map((r) => JSON.parse(r.body.toString()))
    .filter((body) => body.data?.type === 'batch' && String(body.data.id) === id)
    .map((body) => ({ eventName: body.meta.eventName, id: String(body.data.id), attributes: body.data.attributes }));
}

async function finishedDelivery(id: string): Promise<Delivery[]> {
  return until(`batch ${id} finished, delivered`, () => {
    const got = deliveriesOf(id);
    return got.some((d) => d.eventName === 'batch.updated' && d.attributes.state === 'finished') ? got : undefined;
  });
}

describe('batch webhooks', () => {
  it('a bulk action: batch.created when it starts, batch.updated with state finished when it is done', async () => {
    for (const lastName of ['Hooked', 'Hooked']) {
      const made = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { lastName } } } });
      expect(made.status).toBe(201);
    }
    const started = await api.request('POST', '/api/v2/batches/actions/prospectsBulkModify?actionParams[filter][lastName][]=Hooked&actionParams[skipConfirmation]=true', {
      body: { data: { type: 'batch', attributes: { title: 'Hooked' } } },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const id = String(started.body.data.id);
    const got = await finishedDelivery(id);
    const created = got.filter((d) => d.eventName === 'batch.created');
    expect(created).toHaveLength(1);
    expect(created[0]!.attributes).toMatchObject({ action: 'prospectsBulkModify', state: 'pending', total: 2, pending: 2 });
    // Who started it is kept for the batch's jobs, never rendered (writeOnly), nor delivered.
    expect(created[0]!.attributes).not.toHaveProperty('actor');
    const finished = got.filter((d) => d.eventName === 'batch.updated');
    expect(finished).toHaveLength(1);
    expect(finished[0]!.attributes).toMatchObject({ state: 'finished', pending: 0 });
  });

  it('a bulk action over nothing finishes at once: created, then updated to finished', async () => {
    const started = await api.request('POST', '/api/v2/batches/actions/prospectsBulkModify?actionParams[filter][lastName][]=Nobody&actionParams[skipConfirmation]=true', {
      body: { data: { type: 'batch', attributes: { title: 'Nobody' } } },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.attributes.state).toBe('finished');
    const got = await finishedDelivery(String(started.body.data.id));
    expect(got.map((d) => d.eventName).sort()).toEqual(['batch.created', 'batch.updated']);
  });

  it('a batch canceled before it was confirmed: one batch.updated, canceled with nothing pending', async () => {
    const made = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { lastName: 'Unconfirmed' } } } });
    expect(made.status).toBe(201);
    const started = await api.request('POST', '/api/v2/batches/actions/prospectsBulkModify?actionParams[filter][lastName][]=Unconfirmed', {
      body: { data: { type: 'batch', attributes: { title: 'Never' } } },
    });
    expect(started.body.data.attributes.state).toBe('confirming');
    const id = String(started.body.data.id);
    expect((await api.request('POST', `/api/v2/batches/${id}/actions/cancel`)).status).toBe(200);
    const got = await until('batch.updated delivered', () => {
      const updated = deliveriesOf(id).filter((d) => d.eventName === 'batch.updated');
      return updated.length ? updated : undefined;
    });
    expect(got.map((d) => d.attributes)).toEqual([expect.objectContaining({ state: 'canceled', pending: 0 })]);
  });

  it('a bulk upsert: batch.created, then batch.updated with state finished', async () => {
    const records = [{ data: { type: 'prospect', attributes: { firstName: 'Upserted' } } }];
    const started = await api.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes: { records } } } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const id = String(started.body.data.id);
    const got = await finishedDelivery(id);
    expect(got.filter((d) => d.eventName === 'batch.created').map((d) => d.attributes)).toEqual([
      expect.objectContaining({ action: 'bulkUpsert', state: 'pending', total: 1 }),
    ]);
    expect(got.filter((d) => d.eventName === 'batch.updated').map((d) => d.attributes.state)).toEqual(['finished']);
  });
});
