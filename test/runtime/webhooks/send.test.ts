// Real TLS against receivers on 127.0.0.1 that pose as hooks.example.test: the URL names the
// fake host, and the address to connect to is given, as resolveDeliveryTarget would give it.
import { performance } from 'node:perf_hooks';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook, type WebhookRequest } from '../../../runtime/webhooks/delivery/send.js';
import { makeCertificate, type TestCertificate } from './certificates.js';
import { freePort, startReceiver, startSentinel, type Handler, type Receiver, type Sentinel } from './receivers.js';

let trusted: TestCertificate;
let untrusted: TestCertificate;
let otherName: TestCertificate;
const listeners: Array<Receiver | Sentinel> = [];

beforeAll(async () => {
  [trusted, untrusted, otherName] = await Promise.all([
    makeCertificate('hooks.example.test'),
    makeCertificate('hooks.example.test'),
    makeCertificate('other.example.test'),
  ]);
});

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function receiver(handle: Handler, certificate: TestCertificate = trusted): Promise<Receiver> {
  const started = await startReceiver(certificate, handle);
  listeners.push(started);
  return started;
}

async function sentinel(): Promise<Sentinel> {
  const started = await startSentinel();
  listeners.push(started);
  return started;
}

function webhookTo(port: number, path = '/hooks?x=1'): WebhookRequest {
  return {
    url: new URL(`https://hooks.example.test:${port}${path}`),
    address: '127.0.0.1',
    family: 4,
    body: '{"data":{"type":"prospect","id":"1","attributes":{"name":"Zoë"}}}',
    headers: { 'Content-Type': 'application/vnd.api+json' },
  };
}

const respond =
  (status: number, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, headers).end('ignored');
  };

describe('sendWebhook', () => {
  it('posts the body to the checked address, naming the URL host in SNI and Host', async () => {
    const target = await receiver(respond(200));
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000, ca: trusted.cert });
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    expect(target.requests).toHaveLength(1);
    const [received] = target.requests;
    expect(received).toMatchObject({
      method: 'POST',
      path: '/hooks?x=1',
      servername: 'hooks.example.test',
      headers: {
        host: `hooks.example.test:${target.port}`,
        'content-type': 'application/vnd.api+json',
        'content-length': String(Buffer.byteLength(webhookTo(0).body)),
      },
    });
    expect(received?.body.toString('utf8')).toBe(webhookTo(0).body);
  });

  it('accepts a CA bundle as a Buffer', async () => {
    const target = await receiver(respond(204));
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000, ca: Buffer.from(trusted.cert) });
    expect(result).toMatchObject({ kind: 'response', status: 204 });
  });

  it('reports a redirect as a response and does not follow it', async () => {
    const elsewhere = await sentinel();
    const target = await receiver(respond(302, { Location: `https://127.0.0.1:${elsewhere.port}/` }));
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000, ca: trusted.cert });
    expect(result).toMatchObject({ kind: 'response', status: 302 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(elsewhere.connections()).toBe(0);
  });

  it('stops reading a response body that does not end', async () => {
    let closedAt = 0;
    const target = await receiver((request, response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write(Buffer.alloc(4096, 'x')), 5);
      request.socket.on('close', () => {
        clearInterval(timer);
        closedAt = performance.now();
      });
    });
    const started = performance.now();
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000, ca: trusted.cert });
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    await expect.poll(() => closedAt, { timeout: 4000 }).toBeGreaterThan(0);
    expect(closedAt - started).toBeLessThan(2000);
  });

  it('fails on a certificate that is not trusted', async () => {
    const target = await receiver(respond(200), untrusted);
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000, ca: trusted.cert });
    expect(result).toMatchObject({ kind: 'network-error', error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(target.connections()).toBe(1);
    expect(target.requests).toHaveLength(0);
  });

  it('trusts only the bundled roots without a ca', async () => {
    const target = await receiver(respond(200));
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000 });
    expect(result).toMatchObject({ kind: 'network-error', error: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(target.requests).toHaveLength(0);
  });

  it('checks the certificate against the URL host, not the address', async () => {
    const target = await receiver(respond(200), otherName);
    const result = await sendWebhook(webhookTo(target.port), {
      timeoutMs: 5000,
      ca: [trusted.cert, otherName.cert].join('\n'),
    });
    expect(result).toMatchObject({ kind: 'network-error', error: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    expect(target.requests).toHaveLength(0);
  });

  it('reports a refused connection', async () => {
    const result = await sendWebhook(webhookTo(await freePort()), { timeoutMs: 5000, ca: trusted.cert });
    expect(result).toMatchObject({ kind: 'network-error', error: 'ECONNREFUSED' });
  });

  it('reports a connection reset mid-request', async () => {
    const target = await receiver((request) => request.socket.destroy());
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000, ca: trusted.cert });
    expect(result).toMatchObject({ kind: 'network-error', error: 'ECONNRESET' });
    expect(target.requests).toHaveLength(1);
  });

  it('gives up on a receiver that never answers after 5 seconds', async () => {
    const target = await receiver(() => {});
    const started = performance.now();
    const result = await sendWebhook(webhookTo(target.port), { timeoutMs: 5000, ca: trusted.cert });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ kind: 'network-error', error: 'timeout' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeLessThan(6500);
    expect(target.requests).toHaveLength(1);
  }, 10_000);

  it('sends over HTTPS only', () => {
    const webhook = { ...webhookTo(443), url: new URL('http://hooks.example.test/') };
    expect(() => sendWebhook(webhook, { timeoutMs: 5000 })).toThrow(/HTTPS only/);
  });

  it('refuses an address of the wrong family', () => {
    expect(() => sendWebhook({ ...webhookTo(443), family: 6 }, { timeoutMs: 5000 })).toThrow(TypeError);
  });
});
