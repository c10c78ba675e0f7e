import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, startSentinel, type Receiver, type ReceivedRequest, type Sentinel } from '../runtime/webhooks/receivers.js';

/**
 * The delivery log and redelivery over HTTP: writes through the API, a real graphile-worker
 * delivering to a real HTTPS receiver on 127.0.0.1 (under a fake host name an injected resolver
 * answers), and the log read and redelivered through /api/v2/webhookDeliveries.
 */

const HOST = 'hooks.example.test';
const PRIVATE_HOST = 'private.example.test';

const now = Date.parse('2026-11-21T12:00:00.000Z');
const clock = () => new Date(now);

let api: TestApi;
let worker: StartedWorker | undefined;
let certificate: TestCertificate;
let receiver: Receiver;
let sentinel: Sentinel;
let status = 200;

async function startDeliveries(): Promise<void> {
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    log: pino({ level: 'silent' }),
    clock,
    delivery: {
      allowedHosts: new Set([HOST]),
      ca: certificate.cert,
      resolver: async (host) => {
        if (host === HOST) return ['127.0.0.1'];
        if (host === PRIVATE_HOST) return ['127.0.0.1'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    },
  });
}

beforeAll(async () => {
  certificate = await makeCertificate('*.example.test');
  receiver = await startReceiver(certificate, (_request, response) => {
    response.statusCode = status;
    response.end('ok');
  });
  sentinel = await startSentinel();
  api = await startTestApi({ clock });
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await receiver?.close();
  await sentinel?.close();
});

async function webhook(attributes: { host?: string; port?: number } & Record<string, unknown>) {
  const url = `https://${attributes.host ?? HOST}:${attributes.port ?? receiver.port}/hook`;
  const { host: _h, port: _p, ...rest } = attributes;
  const response = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, ...rest } } } });
  expect(response.status).toBe(201);
  return response.body.data;
}

async function create(collection: string, type: string, attributes: Record<string, unknown> = {}) {
  const response = await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes } } });
  expect(response.status).toBe(201);
  return response.body.data;
}

async function eventOf(resourceType: string, resourceId: number): Promise<number> {
  const [event] = await api.sql`select id from events where resource_type = ${resourceType} and resource_id = ${resourceId}`;
  return Number(event!.id);
}

/** The webhook's one log record once `ready` holds for it. */
async function deliveryOf(webhookId: number, ready: (attributes: Record<string, any>) => boolean) {
  return until(`delivery of webhook ${webhookId}`, async () => {
    const listed = await api.request('GET', `/api/v2/webhookDeliveries?filter[webhook][id]=${webhookId}`);
    expect(listed.status).toBe(200);
    const [record] = listed.body.data;
    return record && ready(record.attributes) ? record : undefined;
  });
}

const requestsFor = (eventId: number): ReceivedRequest[] => receiver.requests.filter((r) => r.headers['service-webhook-event-id'] === String(eventId));

async function redeliver(id: string | number, token?: string) {
  return api.request('POST', `/api/v2/webhookDeliveries/${id}/actions/redeliver`, token === undefined ? {} : { token });
}

describe('the delivery log', () => {
  it('logs a delivery its set skipped because the webhook was made inactive meanwhile, as failed with why', async () => {
    const hook = await webhook({ resource: 'persona' });
    const persona = await create('personas', 'persona', { name: 'Skipped' });
    const patched = await api.request('PATCH', `/api/v2/webhooks/${hook.id}`, { body: { data: { type: 'webhook', id: hook.id, attributes: { active: false } } } });
    expect(patched.status).toBe(200);
    await startDeliveries();
    const record = await deliveryOf(hook.id, (a) => a.state === 'failed');
    expect(record.attributes).toMatchObject({
      eventId: await eventOf('persona', persona.id),
      attempts: 0,
      responseStatus: null,
      error: 'not sent: the webhook is inactive',
      deliveredAt: null,
    });
    expect(requestsFor(record.attributes.eventId)).toHaveLength(0);
    const refused = await redeliver(record.id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        id: 'validationError',
        status: '422',
        title: 'Validation Error',
        detail: `Webhook ${hook.id} is inactive; set its active to true to redeliver`,
        source: { pointer: '/data/relationships/webhook' },
      },
    ]);
  });

  it("logs a receiver's 500 as delivered with its status; redelivery sends the same event, signed with the current secret", async () => {
    const hook = await webhook({ resource: 'account', action: 'created', secret: 'first secret' });
    status = 500;
    const account = await create('accounts', 'account', { name: 'Redelivered Ltd' });
    const eventId = await eventOf('account', account.id);
    const record = await deliveryOf(hook.id, (a) => a.state === 'delivered');
    expect(record).toMatchObject({
      type: 'webhookDelivery',
      attributes: {
        eventId,
        jobId: `${eventId}-${hook.id}`,
        eventName: 'account.created',
        state: 'delivered',
        attempts: 1,
        responseStatus: 500,
        error: null,
        deliveredAt: clock().toISOString(),
      },
      relationships: { webhook: { data: { type: 'webhook', id: hook.id } }, event: { data: { type: 'event', id: eventId } } },
    });
    const [first] = requestsFor(eventId);

    status = 200;
    const rotated = await api.request('PATCH', `/api/v2/webhooks/${hook.id}`, {
      body: { data: { type: 'webhook', id: hook.id, attributes: { secret: 'second secret' } } },
    });
    expect(rotated.status).toBe(200);
    const answered = await redeliver(record.id);
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ type: 'webhookDelivery', id: record.id, attributes: { state: 'pending', attempts: 1, responseStatus: 500 } });

    const redelivered = await deliveryOf(hook.id, (a) => a.state === 'delivered' && a.attempts === 2);
    expect(redelivered.attributes).toMatchObject({ responseStatus: 200, error: null, jobId: `${eventId}-${hook.id}` });
    const requests = requestsFor(eventId);
    expect(requests).toHaveLength(2);
    const [firstBody, againBody] = [first!, requests[1]!].map((r) => JSON.parse(r.body.toString()));
    expect(againBody).toEqual(firstBody);
    expect(againBody.meta).toMatchObject({ eventId, jobId: `${eventId}-${hook.id}`, eventName: 'account.created' });
    expect(requests[1]!.headers['service-webhook-event-id']).toBe(String(eventId));
    expect(requests[1]!.headers['service-webhook-signature']).toBe(createHmac('sha256', 'second secret').update(requests[1]!.body).digest('hex'));
    expect(first!.headers['service-webhook-signature']).toBe(createHmac('sha256', 'first secret').update(first!.body).digest('hex'));
    const attempts = await api.sql`select attempt, status from webhook_attempts where webhook_id = ${hook.id} order by attempt`;
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    // The log is bookkeeping: its records record no event, so no `*` webhook hears of them.
    const [logged] = await api.sql`select count(*)::int as n from events where resource_type = 'webhookDelivery'`;
    expect(logged!.n).toBe(0);
  });

  it('retries a redelivery four times from its own first attempt; the log keeps the last status it got', async () => {
    const closed = await startSentinel();
    const port = closed.port;
    await closed.close();
    const hook = await webhook({ resource: 'product', port });
    await create('products', 'product', { name: 'Unreachable' });
    const failed = await deliveryOf(hook.id, (a) => a.state === 'failed');
    expect(failed.attributes).toMatchObject({ attempts: 4, responseStatus: null, deliveredAt: null });
    expect(failed.attributes.error).toMatch(/ECONNREFUSED/);

    expect((await redeliver(failed.id)).status).toBe(200);
    const again = await deliveryOf(hook.id, (a) => a.state === 'failed' && a.attempts === 8);
    expect(again.attributes.error).toMatch(/ECONNREFUSED/);

    // Pointed at a live receiver, the next redelivery is delivered as its ninth attempt.
    const url = `https://${HOST}:${receiver.port}/hook`;
    expect((await api.request('PATCH', `/api/v2/webhooks/${hook.id}`, { body: { data: { type: 'webhook', id: hook.id, attributes: { url } } } })).status).toBe(200);
    expect((await redeliver(failed.id)).status).toBe(200);
    const delivered = await deliveryOf(hook.id, (a) => a.state === 'delivered');
    expect(delivered.attributes).toMatchObject({ attempts: 9, responseStatus: 200, error: null, deliveredAt: clock().toISOString() });
    const attempts = await api.sql`select attempt from webhook_attempts where webhook_id = ${hook.id} order by attempt`;
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a webhook disabled by the host check says why and how to allow the host; redelivery is refused until it is enabled', async () => {
    const hook = await webhook({ resource: 'call', host: PRIVATE_HOST, port: sentinel.port });
    await create('calls', 'call');
    const record = await deliveryOf(hook.id, (a) => a.state === 'failed');
    expect(record.attributes).toMatchObject({ attempts: 1, responseStatus: null, error: 'private address: 127.0.0.1' });
    const shown = (await api.request('GET', `/api/v2/webhooks/${hook.id}`)).body.data.attributes;
    expect(shown).toMatchObject({
      active: false,
      disabledReason: 'host resolves to a private address; an operator allows a trusted host with WEBHOOK_ALLOWED_HOSTS',
      disabledUntil: new Date(now + 60 * 60 * 1000).toISOString(),
    });
    const refused = await redeliver(record.id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({
      id: 'validationError',
      detail: `Webhook ${hook.id} is disabled until ${shown.disabledUntil} (${shown.disabledReason}); redeliver once it is active again`,
      source: { pointer: '/data/relationships/webhook' },
    });
    expect(sentinel.connections()).toBe(0);
  });

  it('refuses a redelivery still pending, and one whose webhook was deleted', async () => {
    const hook = await webhook({ resource: 'team' });
    await create('teams', 'team', { name: 'Kept' });
    const record = await deliveryOf(hook.id, (a) => a.state === 'delivered');

    await api.sql`update webhook_deliveries set state = 'pending' where id = ${record.id}`;
    const pending = await redeliver(record.id);
    expect(pending.status).toBe(422);
    expect(pending.body.errors).toEqual([
      {
        id: 'deliveryPending',
        status: '422',
        title: 'Unprocessable Entity',
        detail: `Webhook delivery ${record.id} is still pending: its attempts are not over; redeliver once it is delivered or failed`,
      },
    ]);
    await api.sql`update webhook_deliveries set state = 'delivered' where id = ${record.id}`;

    expect((await api.request('DELETE', `/api/v2/webhooks/${hook.id}`)).status).toBe(204);
    const orphan = await api.request('GET', `/api/v2/webhookDeliveries/${record.id}`);
    expect(orphan.body.data.relationships.webhook.data).toBeNull();
    expect(orphan.body.data.attributes).toMatchObject({ state: 'delivered', jobId: record.attributes.jobId });
    const gone = await redeliver(record.id);
    expect(gone.status).toBe(422);
    expect(gone.body.errors[0]).toMatchObject({
      id: 'validationError',
      detail: 'The webhook of this delivery was deleted: there is nothing to redeliver to',
      source: { pointer: '/data/relationships/webhook' },
    });
  });
});

describe('reading the log', () => {
  it('filters by webhook, state, eventName and createdAt, and shows one record', async () => {
    const all = await api.request('GET', '/api/v2/webhookDeliveries?sort=id');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThanOrEqual(5);
    const failed = await api.request('GET', '/api/v2/webhookDeliveries?filter[state]=failed');
    expect(failed.body.data.length).toBeGreaterThan(0);
    expect(failed.body.data.every((d: any) => d.attributes.state === 'failed')).toBe(true);
    const named = await api.request('GET', '/api/v2/webhookDeliveries?filter[eventName]=account.created');
    expect(named.body.data.map((d: any) => d.attributes.eventName)).toEqual(['account.created']);
    const [{ created_at: createdAt }] = (await api.sql`select created_at from webhook_deliveries where event_name = 'account.created'`) as any;
    const since = new Date(createdAt).toISOString();
    const recent = await api.request('GET', `/api/v2/webhookDeliveries?filter[createdAt]=${since}..inf`);
    expect(recent.body.data.map((d: any) => d.attributes.eventName)).toContain('account.created');
    expect(recent.body.data.map((d: any) => d.attributes.eventName)).not.toContain('persona.created');
    const one = await api.request('GET', `/api/v2/webhookDeliveries/${named.body.data[0].id}?include=event`);
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(named.body.data[0].id);
    expect(one.body.included).toEqual([expect.objectContaining({ type: 'event', id: named.body.data[0].attributes.eventId })]);
  });

  it('needs webhooks.read to read and webhooks.write to redeliver', async () => {
    const [record] = (await api.request('GET', '/api/v2/webhookDeliveries?filter[state]=delivered')).body.data;
    const writer = await api.newUserToken(api.org.orgId, ['webhooks.write'], true);
    const listed = await api.request('GET', '/api/v2/webhookDeliveries', { token: writer });
    expect(listed.status).toBe(403);
    expect(listed.body.errors[0].status).toBe('403');
    const reader = await api.newUserToken(api.org.orgId, ['webhooks.read'], true);
    expect((await api.request('GET', `/api/v2/webhookDeliveries/${record.id}`, { token: reader })).status).toBe(200);
    const refused = await redeliver(record.id, reader);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].status).toBe('403');
  });

  it('answers bad ids, filters and methods with JSON:API errors', async () => {
    const missing = await api.request('GET', '/api/v2/webhookDeliveries/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].id).toBe('resourceNotFound');
    expect((await redeliver(999999)).status).toBe(404);
    const malformed = await api.request('GET', '/api/v2/webhookDeliveries/abc');
    expect([400, 404]).toContain(malformed.status);
    expect(malformed.body.errors[0].status).toBe(String(malformed.status));
    const unknownFilter = await api.request('GET', '/api/v2/webhookDeliveries?filter[secret]=x');
    expect(unknownFilter.status).toBe(400);
    expect(unknownFilter.body.errors[0].source).toEqual({ parameter: 'filter[secret]' });
    const badDate = await api.request('GET', '/api/v2/webhookDeliveries?filter[createdAt]=yesterday');
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors[0].source).toEqual({ parameter: 'filter[createdAt]' });
    const create = await api.request('POST', '/api/v2/webhookDeliveries', { body: { data: { type: 'webhookDelivery', attributes: {} } } });
    expect(create.status).toBe(405);
    const [record] = (await api.request('GET', '/api/v2/webhookDeliveries')).body.data;
    const patch = await api.request('PATCH', `/api/v2/webhookDeliveries/${record.id}`, { body: { data: { type: 'webhookDelivery', id: record.id, attributes: {} } } });
    expect(patch.status).toBe(405);
  });
});
