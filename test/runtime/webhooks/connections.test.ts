// Kept-alive delivery connections over real TLS to receivers on loopback posing as
// hooks.example.test, with a scripted resolver: a pooled connection carries many deliveries to
// the address it was made to, and never one whose host check approved another address.
import { afterEach, beforeAll, expect, it } from 'vitest';
import { deliveryConnections, type DeliveryConnections } from '../../../runtime/webhooks/delivery/connections.js';
import { attemptDelivery, type DeliveryOptions, type WebhookDelivery } from '../../../runtime/webhooks/delivery/deliver.js';
import { makeCertificate, type TestCertificate } from './certificates.js';
import { freePort, startReceiver, type Receiver } from './receivers.js';

let certificate: TestCertificate;
const receivers: Receiver[] = [];
const pools: DeliveryConnections[] = [];

beforeAll(async () => {
  certificate = await makeCertificate('hooks.example.test');
});
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.destroy();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(at: { host?: string; port?: number } = {}): Promise<Receiver> {
  const started = await startReceiver(certificate, (_request, response) => response.end('ok'), at);
  receivers.push(started);
  return started;
}

/** Delivery options whose resolver gives `answers` in turn (the last repeating), with a pool of their own. */
function pooled(answers: string[][]): DeliveryOptions {
  const connections = deliveryConnections();
  pools.push(connections);
  let calls = 0;
  return {
    resolver: async () => answers[Math.min(calls++, answers.length - 1)]!,
    allowedHosts: new Set(['hooks.example.test']),
    ca: certificate.cert,
    connections,
  };
}

function deliveryTo(port: number, n: number): WebhookDelivery {
  return { url: new URL(`https://hooks.example.test:${port}/hook`), body: JSON.stringify({ n }), secret: 's3cret', eventId: String(n) };
}

it('many deliveries to one receiver share a few kept-alive TLS connections, and all arrive', async () => {
  const target = await receiver();
  const options = pooled([['127.0.0.1']]);
  const outcomes = [];
  // Ten rounds of twenty at once: later rounds find the first round's connections idle.
  for (let round = 0; round < 10; round++) {
    outcomes.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => attemptDelivery(deliveryTo(target.port, round * 20 + i), options, 1)))));
  }
  expect(outcomes.map((o) => o.kind)).toEqual(Array(200).fill('acknowledged'));
  expect(target.requests.map((r) => JSON.parse(r.body.toString()).n).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  expect(target.secureConnections()).toBeLessThanOrEqual(20);
});

it('a host that resolves elsewhere on the next lookup never gets a connection made to the first address', async () => {
  // Two receivers on one port, at two loopback addresses: only the address tells them apart.
  const first = await receiver({ host: '127.0.0.1', port: await freePort() });
  const second = await receiver({ host: '127.0.0.2', port: first.port });
  const options = pooled([['127.0.0.1'], ['127.0.0.2']]);

  expect((await attemptDelivery(deliveryTo(first.port, 1), options, 1)).kind).toBe('acknowledged');
  // The first connection is idle in the pool now; the host check approves the other address.
  expect((await attemptDelivery(deliveryTo(first.port, 2), options, 1)).kind).toBe('acknowledged');
  expect((await attemptDelivery(deliveryTo(first.port, 3), options, 1)).kind).toBe('acknowledged');

  expect(first.requests.map((r) => JSON.parse(r.body.toString()).n)).toEqual([1]);
  expect(second.requests.map((r) => JSON.parse(r.body.toString()).n)).toEqual([2, 3]);
  expect({ first: first.secureConnections(), second: second.secureConnections() }).toEqual({ first: 1, second: 1 });
});

it('a pool keeps agents for so many targets, closing the least recently used', async () => {
  const connections = deliveryConnections({ maxSockets: 2, idleMs: 60_000, maxTargets: 1 });
  pools.push(connections);
  const one = await receiver({ host: '127.0.0.1' });
  const two = await receiver({ host: '127.0.0.1' });
  const options: DeliveryOptions = { resolver: async () => ['127.0.0.1'], allowedHosts: new Set(['hooks.example.test']), ca: certificate.cert, connections };
  await attemptDelivery(deliveryTo(one.port, 1), options, 1);
  await attemptDelivery(deliveryTo(one.port, 2), options, 1);
  await attemptDelivery(deliveryTo(two.port, 3), options, 1);
  await attemptDelivery(deliveryTo(one.port, 4), options, 1);
  // One's agent was retired when two's was made: its kept-alive connection went with it.
  expect({ one: one.secureConnections(), two: two.secureConnections() }).toEqual({ one: 2, two: 1 });
});
