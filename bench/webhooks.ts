// Webhook deliveries, the real path end to end: account writes through `cadence serve` (event
// and delivery job in the write's transaction), one `cadence worker` child process running the
// jobs, and an HTTPS receiver on 127.0.0.1 in this process, with a certificate made for the run
// and trusted by the worker through WEBHOOK_CA_FILE (WEBHOOK_ALLOWED_HOSTS lets it deliver to
// loopback). (c) deliveries per second of a backlog; (d) event-to-delivery latency under writes.
// Both again with the certificate trusted through NODE_EXTRA_CA_CERTS instead, which is how a
// deployment without WEBHOOK_CA_FILE delivers (no `ca` option on each request). The ceiling is
// a bare kept-alive sender in this process posting the same bodies to the same receiver.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';
import { orgScopedTransaction } from '../runtime/tenancy/index.js';
import { makeCertificate, type TestCertificate } from '../test/runtime/webhooks/certificates.js';
import { cpuMilliseconds, startChildProcess, type ChildProcessHandle } from './processes.js';
import { keepAliveCeiling, type CeilingResult } from './webhook-ceiling.js';

export interface WebhookBenchOptions {
  readonly apiUrl: string;
  readonly token: string;
  readonly orgId: number;
  /** (c): events enqueued before the worker starts. */
  readonly events: number;
  /** API requests in flight while the backlog is enqueued. */
  readonly enqueueConcurrency: number;
  /** (d): writes made with the worker running. */
  readonly writes: number;
  /** (d): writes per second; unset, half the delivery rate (c) measured, within 5..100. */
  readonly writeRate: number | undefined;
  /**
   * (c) with this many events, and (d), again with no WEBHOOK_CA_FILE (the receiver trusted
   * through NODE_EXTRA_CA_CERTS); 0: not run.
   */
  readonly compareEvents: number;
  /** The worker's environment, given the settings a delivery to the local receiver needs. */
  readonly workerEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  /** To read the attempts the worker recorded. */
  readonly sql: postgres.Sql;
  readonly print: (line: string) => void;
}

export interface ThroughputResult {
  readonly events: number;
  readonly delivered: number;
  readonly enqueueSeconds: number;
  readonly enqueuePerSecond: number;
  /** Worker spawned to first delivery received: process start, migrations check, first job. */
  readonly startToFirstSeconds: number;
  /** Deliveries per second between the first and the last received. */
  readonly steadyPerSecond: number;
  /** Deliveries per second from spawning the worker to the last received. */
  readonly fromSpawnPerSecond: number;
  /** Worker CPU time per delivery between the first and last delivery. */
  readonly workerCpuMsPerDelivery: number;
  readonly duplicates: number;
}

export interface LatencyResult {
  readonly writes: number;
  readonly writesPerSecond: number;
  readonly delivered: number;
  readonly missing: number;
  readonly duplicates: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** The API's own response times for the writes. */
  readonly writeP50Ms: number;
  readonly writeP99Ms: number;
  readonly workerCpuMsPerDelivery: number;
}

/** (c) and (d) with one way of trusting the receiver's certificate. */
export interface ConfigurationResult {
  readonly label: string;
  readonly throughput: ThroughputResult;
  readonly latency?: LatencyResult;
  /** The worker exited on its own before the end: the figures are cut short. */
  readonly workerExited: boolean;
}

export interface WebhookResult {
  readonly concurrency: string;
  /** A bare keep-alive sender's deliveries to the same receiver: what (c) is measured against. */
  readonly ceiling: CeilingResult;
  readonly configurations: readonly ConfigurationResult[];
  readonly attempts: { readonly total: number; readonly acknowledged: number };
  /** TLS connections the receiver accepted, deliveries it got in all, and bodies it could not read. */
  readonly connections: number;
  readonly received: number;
  readonly malformed: number;
}

/** Deliveries arrive within this long after the last one came, or the wait ends. */
const STALL_TIMEOUT_MS = 60_000;
/** No wait for deliveries lasts longer than this: it keeps the run bounded on a slow machine. */
const WAIT_LIMIT_MS = 300_000;
const RECEIVER_PATH = '/';

function percentile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

interface Write {
  readonly id: string;
  /** performance.now() when the response's head arrived. */
  readonly at: number;
  readonly ms: number;
}

let accountsCreated = 0;

/** POST /api/v2/accounts: the write whose event is delivered. */
async function createAccount(options: WebhookBenchOptions): Promise<Write> {
  const name = `Webhook bench ${++accountsCreated}`;
  const started = performance.now();
  const response = await fetch(`${options.apiUrl}/api/v2/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'account', attributes: { name } } }),
    signal: AbortSignal.timeout(30_000),
  });
  const at = performance.now();
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST /api/v2/accounts answered ${response.status}: ${text.slice(0, 300)}`);
  return { id: String((JSON.parse(text) as { data: { id: string | number } }).data.id), at, ms: at - started };
}

/** One delivery as the receiver saw it. */
interface Delivery {
  /** The id of the record the event is about. */
  readonly id: string;
  /** performance.now() when the request's head arrived. */
  readonly at: number;
}

export interface Receiver {
  readonly port: number;
  /** In the order their bodies were complete. */
  readonly deliveries: Delivery[];
  /** TLS connections accepted. */
  connections(): number;
  /** Requests whose body was not a delivery. */
  malformed(): number;
  close(): Promise<void>;
}

/** An HTTPS receiver on 127.0.0.1 that answers 200 at once and notes what arrived when. */
export async function startReceiver(certificate: TestCertificate): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  let connections = 0;
  let malformed = 0;
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data: { id: string | number } };
        deliveries.push({ id: String(body.data.id), at });
      } catch {
        malformed++;
      }
      response.statusCode = 200;
      response.end('ok');
    });
  });
  server.on('secureConnection', () => connections++);
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    deliveries,
    connections: () => connections,
    malformed: () => malformed,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Deliveries of the given records among what the receiver got, from index `from` on. */
function matcher(receiver: Receiver, ids: ReadonlySet<string>, from = 0) {
  let scanned = from;
  const matched: Delivery[] = [];
  return {
    matched,
    count(): number {
      while (scanned < receiver.deliveries.length) {
        const delivery = receiver.deliveries[scanned++]!;
        if (ids.has(delivery.id)) matched.push(delivery);
      }
      return matched.length;
    },
  };
}

/**
 * Waits until `count()` reaches `target`, the worker exits, nothing new has arrived for
 * STALL_TIMEOUT_MS, or WAIT_LIMIT_MS have passed; `onFirst` runs as soon as the count first
 * moves from zero. What has arrived by then is what is reported.
 */
async function waitForDeliveries(count: () => number, target: number, worker: ChildProcessHandle, onFirst?: () => void): Promise<void> {
  let seen = count();
  let lastProgress = Date.now();
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let first = false;
  for (;;) {
    const now = count();
    if (!first && now > 0) {
      first = true;
      onFirst?.();
    }
    if (now >= target || worker.exited() || Date.now() > deadline) return;
    if (now !== seen) {
      seen = now;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > STALL_TIMEOUT_MS) {
      return;
    }
    await sleep(5);
  }
}

function duplicatesAmong(deliveries: readonly Delivery[]): number {
  return deliveries.length - new Set(deliveries.map((d) => d.id)).size;
}

/** A backlog of `events` account creations, made while no worker runs, then one worker draining it. */
async function throughput(options: WebhookBenchOptions, receiver: Receiver, events: number, startWorker: () => ChildProcessHandle) {
  const before = receiver.deliveries.length;
  const enqueueStarted = performance.now();
  const ids = new Set<string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: options.enqueueConcurrency }, async () => {
      while (next < events) {
        next++;
        ids.add((await createAccount(options)).id);
      }
    }),
  );
  const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
  options.print(`  (c) ${events} accounts created through the API in ${enqueueSeconds.toFixed(1)} s (${options.enqueueConcurrency} in flight); starting the worker`);
  const early = receiver.deliveries.length - before;
  if (early) throw new Error(`${early} deliveries arrived before the worker started`);

  const spawned = performance.now();
  const worker = startWorker();
  const arrivals = matcher(receiver, ids, before);
  let cpuAtFirst = Number.NaN;
  await waitForDeliveries(
    () => arrivals.count(),
    events,
    worker,
    () => (cpuAtFirst = cpuMilliseconds(worker.pid)),
  );
  const cpuAtLast = cpuMilliseconds(worker.pid);
  const delivered = arrivals.matched;
  const unique = new Set(delivered.map((d) => d.id)).size;
  const times = delivered.map((d) => d.at).sort((a, b) => a - b);
  const first = times[0] ?? Number.NaN;
  const last = times[times.length - 1] ?? Number.NaN;
  const result: ThroughputResult = {
    events,
    delivered: unique,
    enqueueSeconds,
    enqueuePerSecond: events / enqueueSeconds,
    startToFirstSeconds: (first - spawned) / 1000,
    steadyPerSecond: (delivered.length - 1) / ((last - first) / 1000),
    fromSpawnPerSecond: delivered.length / ((last - spawned) / 1000),
    workerCpuMsPerDelivery: (cpuAtLast - cpuAtFirst) / Math.max(delivered.length - 1, 1),
    duplicates: duplicatesAmong(delivered),
  };
  options.print(
    `  (c) ${result.delivered}/${result.events} delivered: ${result.steadyPerSecond.toFixed(0)}/s from first to last delivery, the first ${result.startToFirstSeconds.toFixed(1)} s after the worker was spawned`,
  );
  return { result, worker };
}

/** (d): `writes` account creations at a steady rate, each matched with its delivery. */
async function latency(options: WebhookBenchOptions, receiver: Receiver, worker: ChildProcessHandle, count: number, rate: number): Promise<LatencyResult> {
  const base = receiver.deliveries.length;
  const cpuBefore = cpuMilliseconds(worker.pid);
  const started = performance.now();
  const pending: Promise<Write>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(createAccount(options));
  }
  const writes = await Promise.all(pending);
  const arrivals = matcher(receiver, new Set(writes.map((w) => w.id)), base);
  await waitForDeliveries(() => arrivals.count(), count, worker);
  const cpuUsed = cpuMilliseconds(worker.pid) - cpuBefore;
  const arrived = new Map<string, number>();
  for (const delivery of arrivals.matched) if (!arrived.has(delivery.id)) arrived.set(delivery.id, delivery.at);
  const latencies = writes.flatMap((w) => (arrived.has(w.id) ? [arrived.get(w.id)! - w.at] : [])).sort((a, b) => a - b);
  const writeTimes = writes.map((w) => w.ms).sort((a, b) => a - b);
  return {
    writes: count,
    writesPerSecond: rate,
    delivered: latencies.length,
    missing: count - latencies.length,
    duplicates: duplicatesAmong(arrivals.matched),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    minMs: latencies[0] ?? Number.NaN,
    maxMs: latencies[latencies.length - 1] ?? Number.NaN,
    writeP50Ms: percentile(writeTimes, 0.5),
    writeP99Ms: percentile(writeTimes, 0.99),
    workerCpuMsPerDelivery: cpuUsed / Math.max(arrivals.matched.length, 1),
  };
}

/** One worker configuration: (c) then (d), each with its own worker process. */
async function runConfiguration(
  options: WebhookBenchOptions,
  receiver: Receiver,
  configuration: { label: string; note: string; env: NodeJS.ProcessEnv; events: number; writes: number },
): Promise<ConfigurationResult> {
  let worker: ChildProcessHandle | undefined;
  try {
    options.print(`  ${configuration.label}: ${configuration.note}`);
    const startWorker = () => (worker = startChildProcess('cadence worker', { args: ['bin/cadence.js', 'worker'], env: configuration.env, cwd: options.cwd }));
    const drained = await throughput(options, receiver, configuration.events, startWorker);
    let latencyResult: LatencyResult | undefined;
    if (configuration.writes > 0 && !drained.worker.exited()) {
      const fallback = Math.round(Math.min(100, Math.max(5, drained.result.steadyPerSecond / 2)));
      const rate = options.writeRate ?? (Number.isFinite(fallback) ? fallback : 5);
      options.print(
        `  (d) ${configuration.writes} account creations at ${rate}/s with the worker running${options.writeRate ? '' : ' (half the delivery rate of (c), within 5..100/s)'}`,
      );
      latencyResult = await latency(options, receiver, drained.worker, configuration.writes, rate);
      options.print(
        `  (d) ${latencyResult.delivered}/${latencyResult.writes} delivered; write response to delivery p50 ${latencyResult.p50Ms.toFixed(0)} ms, p99 ${latencyResult.p99Ms.toFixed(0)} ms`,
      );
    }
    const workerExited = drained.worker.exited();
    return { label: configuration.label, throughput: drained.result, ...(latencyResult && { latency: latencyResult }), workerExited };
  } finally {
    await worker?.stop();
  }
}

export async function runWebhookBench(options: WebhookBenchOptions): Promise<WebhookResult> {
  const folder = await mkdtemp(join(tmpdir(), 'cadence-bench-webhook-'));
  let receiver: Receiver | undefined;
  try {
    const certificate = await makeCertificate('127.0.0.1');
    const caFile = join(folder, 'receiver-cert.pem');
    await writeFile(caFile, certificate.cert);
    receiver = await startReceiver(certificate);
    const ceiling = await keepAliveCeiling(receiver.port, certificate.cert, options.events);
    options.print(
      `  ceiling: a bare keep-alive sender in this process, ${ceiling.acknowledged}/${ceiling.deliveries} acknowledged: ${ceiling.perSecond.toFixed(0)}/s on ${ceiling.connections} TLS connections`,
    );
    const response = await fetch(`${options.apiUrl}/api/v2/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({
        data: {
          type: 'webhook',
          attributes: { url: `https://127.0.0.1:${receiver.port}${RECEIVER_PATH}`, resource: 'account', action: 'created', secret: 'bench-secret' },
        },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    const created = await response.text();
    if (response.status !== 201) throw new Error(`creating the webhook answered ${response.status}: ${created.slice(0, 300)}`);
    const webhookId = Number((JSON.parse(created) as { data: { id: string } }).data.id);

    const env = options.workerEnv({ LOG_LEVEL: 'warn', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: caFile });
    const concurrency = env.WORKER_CONCURRENCY ? env.WORKER_CONCURRENCY : '4 (default)';
    options.print(`  webhook ${webhookId} -> https://127.0.0.1:${receiver.port}${RECEIVER_PATH} (account.created, signed); WORKER_CONCURRENCY=${concurrency}`);
    const configurations = [
      await runConfiguration(options, receiver, {
        label: 'WEBHOOK_CA_FILE',
        note: "the receiver's certificate in WEBHOOK_CA_FILE",
        env,
        events: options.events,
        writes: options.writes,
      }),
    ];
    // The same with the receiver's certificate in Node's default trust store instead: no `ca`
    // option per delivery, as in a deployment without WEBHOOK_CA_FILE.
    if (options.compareEvents > 0) {
      const { WEBHOOK_CA_FILE: _unused, ...withoutCaFile } = env;
      configurations.push(
        await runConfiguration(options, receiver, {
          label: 'NODE_EXTRA_CA_CERTS',
          note: "no WEBHOOK_CA_FILE; the receiver's certificate trusted through NODE_EXTRA_CA_CERTS (a deployment without WEBHOOK_CA_FILE)",
          env: { ...withoutCaFile, NODE_EXTRA_CA_CERTS: caFile },
          events: options.compareEvents,
          writes: options.writes,
        }),
      );
    }
    const attempts = await orgScopedTransaction(options.sql, options.orgId, async (tx) => {
      const [row] = await tx<{ total: number; acknowledged: number }[]>`
        select count(*)::int as total, (count(*) filter (where status between 200 and 299))::int as acknowledged
          from webhook_attempts where org_id = ${options.orgId} and webhook_id = ${webhookId}`;
      return row!;
    });
    return {
      concurrency,
      ceiling,
      configurations,
      attempts,
      connections: receiver.connections(),
      received: receiver.deliveries.length,
      malformed: receiver.malformed(),
    };
  } finally {
    await receiver?.close();
    await rm(folder, { recursive: true, force: true });
  }
}
