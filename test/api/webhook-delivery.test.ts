import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, startSentinel, type Receiver, type Sentinel } from '../runtime/webhooks/receivers.js';

/**
 * Deliveries end to end: a write through the API, its event and job in one transaction, a real
 * graphile-worker running the job, and a real HTTPS receiver on 127.0.0.1 under a fake host
 * name that an injected resolver answers. Nothing here resolves or contacts an outside host.
 */

const HOST = 'hooks.example.test';
const SWITCH_HOST = 'switch.example.test';
const PRIVATE_HOST = 'private.example.test';
const MISSING_HOST = 'missing.example.test';

let now = Date.parse('2026-11-21T12:00:00.000Z');
const clock = () => new Date(now);
const allowedHosts = new Set([HOST]);
const resolverCalls = new Map<string, number>();
let sentinel: Sentinel;

let api: TestApi;
let worker: StartedWorker;
let certificate: TestCertificate;
let receiver: Receiver;
let status = 200;

beforeAll(async () => {
  certificate = await makeCertificate('*.example.test');
  receiver = await startReceiver(certificate, (_request, response) => {
    response.statusCode = status;
    response.end('ok');
  });
  sentinel = await startSentinel();
  api = await startTestApi({ clock });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    log: pino({ level: 'silent' }),
    clock,
    delivery: {
      allowedHosts,
      ca: certificate.cert,
      resolver: async (host) => {
        resolverCalls.set(host, (resolverCalls.get(host) ?? 0) + 1);
        if (host === HOST || host === SWITCH_HOST) return ['127.0.0.1'];
        if (host === PRIVATE_HOST) return ['93.184.216.34', '127.0.0.1'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    },
  });
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

async function attemptsOf(webhookId: number) {
  return api.sql`select attempt, status, error from webhook_attempts where webhook_id = ${webhookId} order by id`;
}

const received = (eventName: string) => receiver.requests.filter((r) => JSON.parse(r.body.toString()).meta.eventName === eventName);

describe('signed deliveries', () => {
  it('v1: created attributes, event name and id, signature over the raw body, cleanup token and event id headers', async () => {
    const hook = await webhook({ resource: 'account', action: 'created', secret: 'hush' });
    await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Delivered Ltd' } } } });
    const [request] = await until('account.created', () => (received('account.created').length ? received('account.created') : undefined));
    const body = JSON.parse(request!.body.toString());
    expect(body.data).toMatchObject({ type: 'account', attributes: { name: 'Delivered Ltd' } });
    const [event] = await api.sql`select id from events where resource_type = 'account' and action = 'created'`;
    expect(body.meta).toEqual({ deliveredAt: clock().toISOString(), eventName: 'account.created', eventId: event!.id, jobId: `${event!.id}-${hook.id}` });
    expect(request!.headers['service-webhook-event-id']).toBe(String(event!.id));
    expect(body.beforeUpdate).toBeUndefined();
    expect(request!.headers['content-type']).toBe('application/vnd.api+json');
    expect(request!.headers['service-webhook-signature']).toBe(createHmac('sha256', 'hush').update(request!.body).digest('hex'));
    expect(request!.headers['service-webhook-cleanup-token']).toBe(hook.attributes.cleanupToken);
    expect(request!.servername).toBe(HOST);
    await until('attempt recorded', async () => ((await attemptsOf(hook.id)).length ? true : undefined));
    expect((await attemptsOf(hook.id)).map((a) => [a.attempt, a.status])).toEqual([[1, 200]]);
  });

  it('v2: only changed attributes, with beforeUpdate; destroyed carries relationships; no signature without a secret', async () => {
    await webhook({ resource: 'prospect', payloadVersion: 2 });
    const account = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account' } } });
    const created = await api.request('POST', '/api/v2/prospects', {
      body: {
        data: { type: 'prospect', attributes: { firstName: 'Old', title: 'CTO' }, relationships: { account: { data: { type: 'account', id: account.body.data.id } } } },
      },
    });
    const id = created.body.data.id;
    await api.request('PATCH', `/api/v2/prospects/${id}`, { body: { data: { type: 'prospect', id, attributes: { firstName: 'New', title: 'CTO' } } } });
    await api.request('DELETE', `/api/v2/prospects/${id}`);
    const [updated] = await until('prospect.updated', () => (received('prospect.updated').length ? received('prospect.updated') : undefined));
    const body = JSON.parse(updated!.body.toString());
    expect(body.data.attributes).toEqual({ firstName: 'New', name: 'New' });
    expect(body.beforeUpdate).toEqual({ type: 'prospect', id, attributes: { firstName: 'Old', name: 'Old' } });
    expect(updated!.headers['service-webhook-signature']).toBeUndefined();
    const [destroyed] = await until('prospect.destroyed', () => (received('prospect.destroyed').length ? received('prospect.destroyed') : undefined));
    const gone = JSON.parse(destroyed!.body.toString());
    expect(gone.data.attributes.title).toBe('CTO');
    expect(gone.data.relationships.account).toEqual({ data: { type: 'account', id: account.body.data.id } });
  });

  it('a 500 is an acknowledgement: exactly one attempt', async () => {
    const hook = await webhook({ resource: 'opportunity' });
    status = 500;
    try {
      await api.request('POST', '/api/v2/opportunities', { body: { data: { type: 'opportunity' } } });
      await until('the attempt', async () => ((await attemptsOf(hook.id)).length ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await attemptsOf(hook.id)).map((a) => [a.attempt, a.status])).toEqual([[1, 500]]);
    } finally {
      status = 200;
    }
  });

  it('a refused connection is retried: four attempts in all', async () => {
    const closed = await startSentinel();
    const port = closed.port;
    await closed.close();
    const hook = await webhook({ resource: 'product', port });
    await api.request('POST', '/api/v2/products', { body: { data: { type: 'product' } } });
    const attempts = await until('four attempts', async () => {
      const rows = await attemptsOf(hook.id);
      return rows.length === 4 ? rows : undefined;
    });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(attempts.every((a) => a.status === null && /ECONNREFUSED/.test(a.error))).toBe(true);
  });
});

describe('host checks disable webhooks', () => {
  it('a host resolving to a private address (even among public ones) disables it for an hour, and no connection is made', async () => {
    const hook = await webhook({ resource: 'call', host: PRIVATE_HOST, port: sentinel.port });
    await api.request('POST', '/api/v2/calls', { body: { data: { type: 'call' } } });
    const disabled = await until('disabled', async () => {
      const got = await api.request('GET', `/api/v2/webhooks/${hook.id}`);
      return got.body.data.attributes.disabledUntil ? got.body.data.attributes : undefined;
    });
    expect(disabled.disabledReason).toBe('host resolves to a private address; an operator allows a trusted host with WEBHOOK_ALLOWED_HOSTS');
    expect(Date.parse(disabled.disabledUntil) - now).toBe(60 * 60 * 1000);
    expect(sentinel.connections()).toBe(0);
  });

  it('an unresolvable host (3 DNS attempts) disables it for a minute; it is re-enabled after the period and cleared on success', async () => {
    const hook = await webhook({ resource: 'purchase', host: SWITCH_HOST });
    allowedHosts.delete(SWITCH_HOST);
    const missing = await webhook({ resource: 'stage', host: MISSING_HOST });
    await api.request('POST', '/api/v2/stages', { body: { data: { type: 'stage' } } });
    const disabled = await until('disabled', async () => {
      const got = await api.request('GET', `/api/v2/webhooks/${missing.id}`);
      return got.body.data.attributes.disabledUntil ? got.body.data.attributes : undefined;
    });
    expect(disabled.disabledReason).toBe('host cannot be resolved');
    expect(Date.parse(disabled.disabledUntil) - now).toBe(60 * 1000);
    expect(resolverCalls.get(MISSING_HOST)).toBe(3);

    // switch.example.test resolves to loopback and is not allowed yet: disabled for an hour.
    await api.request('POST', '/api/v2/purchases', { body: { data: { type: 'purchase' } } });
    await until('purchase hook disabled', async () => ((await api.request('GET', `/api/v2/webhooks/${hook.id}`)).body.data.attributes.disabledUntil ? true : undefined));
    const before = receiver.requests.length;
    await api.request('POST', '/api/v2/purchases', { body: { data: { type: 'purchase' } } });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.requests.length).toBe(before);

    // An hour later, with the host allowed, the next event is delivered and the state cleared.
    now += 61 * 60 * 1000;
    allowedHosts.add(SWITCH_HOST);
    await api.request('POST', '/api/v2/purchases', { body: { data: { type: 'purchase' } } });
    const cleared = await until('re-enabled', async () => {
      const got = await api.request('GET', `/api/v2/webhooks/${hook.id}`);
      return got.body.data.attributes.disabledUntil === null ? got.body.data.attributes : undefined;
    });
    expect(cleared).toMatchObject({ active: true, disabledReason: null, disabledSince: null });
    expect(received('purchase.created').length).toBe(1);
  });
});
