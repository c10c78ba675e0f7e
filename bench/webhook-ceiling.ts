// The ceiling of webhook deliveries: a bare sender in the benchmark process, posting the same
// signed delivery bodies to the same receiver over kept-alive HTTPS connections, as many at
// once as a worker's pool allows one target (runtime/webhooks/delivery/connections.ts). No
// database, no jobs, no host check: what the receiver and TLS on this machine allow.
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONNECTION_POOL } from '../runtime/webhooks/delivery/connections.js';
import { deliveryHeaders } from '../runtime/webhooks/delivery/deliver.js';
import { deliveryBody, deliveryJobId, type StoredEvent } from '../runtime/webhooks/payload.js';

export interface CeilingResult {
  readonly deliveries: number;
  readonly acknowledged: number;
  readonly perSecond: number;
  /** TLS connections the sender opened. */
  readonly connections: number;
}

/** A delivery body like the worker's for an account created, about a negative id the bench's matchers never ask for. */
function bodyOf(n: number): string {
  const event: StoredEvent = {
    id: n,
    resourceType: 'account',
    resourceId: -1 - n,
    action: 'created',
    payload: { data: { attributes: { name: `Webhook ceiling ${n}`, createdAt: new Date().toISOString() }, relationships: {} } },
  };
  return deliveryBody(event, 1, new Date(), deliveryJobId(n, 0));
}

function post(agent: Agent, port: number, ca: string, n: number): Promise<boolean> {
  const body = bodyOf(n);
  const headers = deliveryHeaders({ url: new URL(`https://127.0.0.1:${port}/`), body, secret: 'bench-secret', eventId: String(n) });
  return new Promise((resolve) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path: '/', method: 'POST', ca, agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve((response.statusCode ?? 0) < 300));
      },
    );
    outgoing.on('error', () => resolve(false));
    outgoing.end(body);
  });
}

/** `deliveries` POSTs, DEFAULT_CONNECTION_POOL.maxSockets in flight, over one kept-alive agent. */
export async function keepAliveCeiling(port: number, ca: string, deliveries: number): Promise<CeilingResult> {
  const lanes = DEFAULT_CONNECTION_POOL.maxSockets;
  const agent = new Agent({ keepAlive: true, maxSockets: lanes });
  let connections = 0;
  const createConnection = agent.createConnection.bind(agent);
  agent.createConnection = (...args: Parameters<typeof createConnection>) => {
    connections++;
    return createConnection(...args);
  };
  let next = 0;
  let acknowledged = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < deliveries) if (await post(agent, port, ca, next++)) acknowledged++;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { deliveries, acknowledged, perSecond: deliveries / seconds, connections };
}
