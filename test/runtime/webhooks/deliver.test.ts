// Deliveries over real TLS to receivers on 127.0.0.1 posing as hooks.example.test. The
// resolver is a fake, and every send goes through a guard that refuses any address but
// 127.0.0.1, so no test can reach the outside world even when the code under test is wrong.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery, nextAttempt, signBody, type DeliveryOptions, type WebhookDelivery } from '../../../runtime/webhooks/delivery/deliver.js';
import type { HostResolver } from '../../../runtime/webhooks/delivery/resolve.js';
import { sendWebhook, type SendResult, type WebhookRequest } from '../../../runtime/webhooks/delivery/send.js';
import { makeCertificate, type TestCertificate } from './certificates.js';
import { freePort, startReceiver, startSentinel, type Handler, type Receiver, type Sentinel } from './receivers.js';

let certificate: TestCertificate;
const listeners: Array<Receiver | Sentinel> = [];

beforeAll(async () => {
  certificate = await makeCertificate('hooks.example.test');
});

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function receiver(handle: Handler): Promise<Receiver> {
  const started = await startReceiver(certificate, handle);
  listeners.push(started);
  return started;
}

async function sentinel(): Promise<Sentinel> {
  const started = await startSentinel();
  listeners.push(started);
  return started;
}

interface Harness {
  options: DeliveryOptions;
  resolverCalls: string[];
  /** Addresses sends were asked for, with when each began. */
  sends: Array<{ address: string; at: number }>;
}

/**
 * The fake DNS answers from `answers` (one entry per call, the last repeating; an Error is
 * thrown). Sends to 127.0.0.1 are real; any other address gets a network error without a
 * connection, standing in for an unreachable public host.
 */
function harness(answers: Array<string[] | Error>, allowed: string[] = ['hooks.example.test']): Harness {
  const resolverCalls: string[] = [];
  const sends: Harness['sends'] = [];
  const resolver: HostResolver = async (host) => {
    resolverCalls.push(host);
    const answer = answers[Math.min(resolverCalls.length, answers.length) - 1];
    if (answer === undefined || answer instanceof Error) throw answer ?? new Error('no answer scripted');
    return answer;
  };
  const send = async (request: WebhookRequest, options: Parameters<typeof sendWebhook>[1]): Promise<SendResult> => {
    sends.push({ address: request.address, at: performance.now() });
    if (request.address !== '127.0.0.1') return { kind: 'network-error', error: 'ENETUNREACH', latencyMs: 0 };
    return sendWebhook(request, options);
  };
  const options = { resolver, allowedHosts: new Set(allowed), ca: certificate.cert, send };
  return { options, resolverCalls, sends };
}

function deliveryTo(port: number, extra: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    url: new URL(`https://hooks.example.test:${port}/cadence`),
    // Not ASCII, with escapes and odd spacing: the signature must cover these exact bytes.
    body: '{"data":{"type":"prospect","id":"7","attributes":{"name":"Zoë \\u00e9 ✓",  "x":1}},"meta":{}}',
    secret: 's3cret',
    cleanupToken: 'cleanup-token-123',
    ...extra,
  };
}

const respond =
  (status: number, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, headers).end();
  };

describe('attemptDelivery headers', () => {
  it('signs the exact bytes received with the secret', async () => {
    const target = await receiver(respond(200));
    const { options } = harness([['127.0.0.1']]);
    const delivery = deliveryTo(target.port);
    const outcome = await attemptDelivery(delivery, options, 1);

    expect(outcome).toMatchObject({
      kind: 'acknowledged',
      status: 200,
      attempts: [{ number: 1, kind: 'response', status: 200 }],
    });
    const [received] = target.requests;
    if (received === undefined) throw new Error('nothing received');
    expect(received.body.equals(Buffer.from(delivery.body, 'utf8'))).toBe(true);
    const expected = createHmac('sha256', 's3cret').update(received.body).digest();
    const signature = received.headers['service-webhook-signature'];
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(timingSafeEqual(Buffer.from(String(signature), 'hex'), expected)).toBe(true);
    expect(received.headers['content-type']).toBe('application/vnd.api+json');
    expect(received.headers['service-webhook-cleanup-token']).toBe('cleanup-token-123');
  });

  it.each([[undefined], [null], ['']])('sends no signature when the secret is %j', async (secret) => {
    const target = await receiver(respond(200));
    const outcome = await attemptDelivery(deliveryTo(target.port, { secret }), harness([['127.0.0.1']]).options, 1);
    expect(outcome.kind).toBe('acknowledged');
    expect(target.requests[0]?.headers).not.toHaveProperty('service-webhook-signature');
    expect(target.requests[0]?.headers['service-webhook-cleanup-token']).toBe('cleanup-token-123');
  });

  it('signs as hex HMAC-SHA256', () => {
    // RFC 4231 test case 2.
    expect(signBody('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});

describe('attemptDelivery attempts', () => {
  it.each([[500], [404], [429], [302]])('takes a %i as the answer, with no attempt after it', async (status) => {
    const elsewhere = await sentinel();
    const target = await receiver(respond(status, { Location: `https://127.0.0.1:${elsewhere.port}/moved` }));
    const { options, resolverCalls } = harness([['127.0.0.1']]);
    const outcome = await attemptDelivery(deliveryTo(target.port), options, 1);
    expect(outcome).toEqual({
      kind: 'acknowledged',
      status,
      attempts: [{ number: 1, kind: 'response', status, latencyMs: expect.any(Number) }],
    });
    expect(nextAttempt(outcome, 1)).toBeUndefined();
    expect(target.requests).toHaveLength(1);
    expect(resolverCalls).toHaveLength(1);
    await sleepFor(200);
    expect(elsewhere.connections()).toBe(0);
  });

  it('a reset connection is a network failure, followed by attempts 2 to 4', async () => {
    const target = await receiver((request) => request.socket.destroy());
    const { options, resolverCalls } = harness([['127.0.0.1']]);
    const outcomes = [];
    for (const number of [1, 2, 3, 4]) outcomes.push(await attemptDelivery(deliveryTo(target.port), options, number));
    expect(outcomes).toEqual(
      [1, 2, 3, 4].map((number) => ({
        kind: 'network-failure',
        attempts: [{ number, kind: 'network-error', error: 'ECONNRESET', latencyMs: expect.any(Number) }],
      })),
    );
    expect(outcomes.map((outcome, index) => nextAttempt(outcome, index + 1))).toEqual([2, 3, 4, undefined]);
    expect(target.requests).toHaveLength(4);
    // The host is checked before every attempt.
    expect(resolverCalls).toHaveLength(4);
  });

  it('a refused connection is a network failure', async () => {
    const { options } = harness([['127.0.0.1']]);
    const outcome = await attemptDelivery(deliveryTo(await freePort()), options, 3);
    expect(outcome).toEqual({ kind: 'network-failure', attempts: [{ number: 3, kind: 'network-error', error: 'ECONNREFUSED', latencyMs: expect.any(Number) }] });
    expect(nextAttempt(outcome, 3)).toBe(4);
  });
});

describe('attemptDelivery host check', () => {
  it('connects nowhere when the name resolves to a private address', async () => {
    const target = await receiver(respond(200));
    const { options, resolverCalls, sends } = harness([['127.0.0.1']], []);
    const outcome = await attemptDelivery(deliveryTo(target.port), options, 1);
    expect(outcome).toEqual({ kind: 'private', addresses: ['127.0.0.1'], attempts: [] });
    expect(nextAttempt(outcome, 1)).toBeUndefined();
    expect(resolverCalls).toHaveLength(1);
    expect(sends).toEqual([]);
    expect(target.connections()).toBe(0);
  });

  it('connects nowhere when a mixed answer includes a private address', async () => {
    const target = await receiver(respond(200));
    const { options, sends } = harness([['8.8.8.8', '127.0.0.1']], []);
    const outcome = await attemptDelivery(deliveryTo(target.port), options, 1);
    expect(outcome).toEqual({ kind: 'private', addresses: ['8.8.8.8', '127.0.0.1'], attempts: [] });
    expect(sends).toEqual([]);
    expect(target.connections()).toBe(0);
  });

  it('catches a name that rebinds to a private address between attempts', async () => {
    const loopback = await sentinel();
    // Public for the first check, loopback (where the sentinel listens) from then on.
    const { options, resolverCalls, sends } = harness([['8.8.8.8'], ['127.0.0.1']], []);
    const first = await attemptDelivery(deliveryTo(loopback.port), options, 1);
    expect(first).toEqual({ kind: 'network-failure', attempts: [{ number: 1, kind: 'network-error', error: 'ENETUNREACH', latencyMs: 0 }] });
    const second = await attemptDelivery(deliveryTo(loopback.port), options, 2);
    expect(second).toEqual({ kind: 'private', addresses: ['127.0.0.1'], attempts: [] });
    expect(resolverCalls).toEqual(['hooks.example.test', 'hooks.example.test']);
    // The one attempt went to the address that was checked, and nothing reached loopback.
    expect(sends.map((send) => send.address)).toEqual(['8.8.8.8']);
    expect(loopback.connections()).toBe(0);
  });

  it('gives up after 3 failed lookups without connecting', async () => {
    const loopback = await sentinel();
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.test'), { code: 'ENOTFOUND' });
    const { options, resolverCalls, sends } = harness([notFound]);
    const outcome = await attemptDelivery(deliveryTo(loopback.port), options, 1);
    expect(outcome).toEqual({ kind: 'unresolvable', error: 'getaddrinfo ENOTFOUND hooks.example.test', attempts: [] });
    expect(nextAttempt(outcome, 1)).toBeUndefined();
    expect(resolverCalls).toHaveLength(3);
    expect(sends).toEqual([]);
    expect(loopback.connections()).toBe(0);
  });

  it('refuses a URL that is not HTTPS before looking anything up', async () => {
    const { options, resolverCalls } = harness([['127.0.0.1']]);
    await expect(attemptDelivery({ ...deliveryTo(443), url: new URL('http://hooks.example.test/') }, options, 1)).rejects.toThrow(/HTTPS only/);
    expect(resolverCalls).toEqual([]);
  });
});
