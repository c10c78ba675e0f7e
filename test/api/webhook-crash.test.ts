import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { DELIVERY_SET_SIZE } from '../../runtime/webhooks/delivery-job.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * Real `cadence worker` processes. A delivery whose worker is SIGKILLed mid-request runs again
 * on another worker within 60 s (production timings: nothing is aged by hand), and carries the
 * same event id both times. A worker that is alive but slow, its receiver hanging for several
 * times the staleness limit, keeps its job. The receiver is addressed by IP, allowed through
 * WEBHOOK_ALLOWED_HOSTS, so the worker processes resolve nothing.
 */

// A dead worker's jobs must run again within this long.
const RECOVERY_LIMIT_MS = 60_000;
// Heartbeats every 0.5 s, stale after 2 s: a slow delivery outlasts the limit several times.
const FAST_LIVENESS = { WORKER_HEARTBEAT_MS: '500', WORKER_STALE_AFTER_MS: '2000' };
// The slow receiver lets this many attempts time out (5 s each, SPEC.md) before answering.
const HUNG_ATTEMPTS = 2;

let api: TestApi;
let certificate: TestCertificate;
let receiver: Receiver;
let folder: string;
let releaseCrashed = false;
let releaseSet = false;
// Requests to /slow open at once, at most: 1 unless a second worker took the job.
let slowInFlight = 0;
let maxSlowInFlight = 0;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  certificate = await makeCertificate('127.0.0.1');
  folder = await mkdtemp(join(tmpdir(), 'cadence-crash-'));
  await writeFile(join(folder, 'ca.pem'), certificate.cert);
  receiver = await startReceiver(certificate, (request, response) => {
    if (request.url === '/slow') {
      maxSlowInFlight = Math.max(maxSlowInFlight, ++slowInFlight);
      response.on('close', () => slowInFlight--);
    }
    // Held requests get no answer: the worker times out (slow) or is killed (crash).
    if (request.url === '/slow' && requestsTo('/slow').length <= HUNG_ATTEMPTS) return;
    if (request.url === '/crash' && !releaseCrashed) return;
    if (request.url === '/crash-set' && !releaseSet) return;
    response.end('ok');
  });
  api = await startTestApi();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
});
afterAll(async () => {
  await api?.close();
  await receiver?.close();
  await rm(folder, { recursive: true, force: true });
});

const requestsTo = (path: string): ReceivedRequest[] => receiver.requests.filter((r) => r.path === path);

interface WorkerProcess {
  readonly child: ChildProcess;
  /** graphile-worker's id for the process's main pool (logged first at start), the `locked_by` of its deliveries. */
  readonly workerId: string;
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** A `cadence worker` process; resolves once it has started and is looking for jobs. */
async function startWorkerProcess(env: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['bin/cadence.js', 'worker'], {
    env: {
      ...process.env,
      DATABASE_URL: api.databaseUrl,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_CA_FILE: join(folder, 'ca.pem'),
      WORKER_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => process.stderr.write(`[worker ${child.pid}] ${chunk}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  workers.push({ child, workerId: '', stop });
  const workerId = await until(
    'the worker to start and look for jobs',
    () => {
      // Whole lines only: the last one may still be arriving.
      const lines = output
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      const started = lines.find((line) => line.msg === 'worker started');
      return started && lines.some((line) => String(line.msg).includes('looking for jobs')) ? (started.workerIds as string[])[0] : undefined;
    },
    60_000,
  );
  return { child, workerId, stop };
}

/**
 * The worker holding the delivery set job of `webhookId` (null while none does), or undefined once
 * the job is gone. The public jobs view has no payload, so this reads graphile-worker's tables.
 */
async function deliveryJobLock(webhookId: number): Promise<string | null | undefined> {
  const [job] = await api.sql<{ locked_by: string | null }[]>`
    select j.locked_by from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = 'deliver_webhook'
       and exists (select 1 from json_array_elements(j.payload) as i(item) where (i.item->>'webhookId')::bigint = ${webhookId})`;
  return job ? job.locked_by : undefined;
}

async function webhook(resource: string, path: string): Promise<number> {
  const url = `https://127.0.0.1:${receiver.port}${path}`;
  const created = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource } } } });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

async function eventIdOf(resourceType: string, resourceId: number): Promise<number> {
  const [event] = await api.sql`select id from events where resource_type = ${resourceType} and resource_id = ${resourceId} and action = 'created'`;
  return event!.id;
}

/** The event id a delivery carried, in the signed body and in the header; they must agree. */
function carriedEventId(request: ReceivedRequest): number {
  const fromBody = JSON.parse(request.body.toString()).meta.eventId;
  expect(request.headers['service-webhook-event-id']).toBe(String(fromBody));
  return fromBody;
}

it('a worker that is alive but slow keeps its job, however long the receiver hangs', async () => {
  const webhookId = await webhook('opportunity', '/slow');
  await startWorkerProcess(FAST_LIVENESS);
  const created = await api.request('POST', '/api/v2/opportunities', { body: { data: { type: 'opportunity' } } });
  await until('the first attempt to arrive', () => (requestsTo('/slow').length ? true : undefined), 30_000);
  // A second worker, idle and sweeping every 0.5 s, while the first one's attempts hang.
  await startWorkerProcess(FAST_LIVENESS);

  // Each attempt is a job of its own (a retry waits in the queue), so either worker may run the
  // next one; no job may change hands while the worker holding it is alive.
  const holders = new Map<string, Set<string>>();
  let maxJobAttempts = 0;
  const attempts = await until(
    'the delivery to be acknowledged',
    async () => {
      for (const job of await api.sql`select id, locked_by, attempts from graphile_worker.jobs where task_identifier = 'deliver_webhook'`) {
        if (job.locked_by) holders.set(String(job.id), new Set([...(holders.get(String(job.id)) ?? []), job.locked_by]));
        maxJobAttempts = Math.max(maxJobAttempts, job.attempts);
      }
      const rows = await api.sql`select attempt, status, error, latency_ms from webhook_attempts where webhook_id = ${webhookId} order by attempt`;
      return rows.some((row) => row.status !== null) ? rows : undefined;
    },
    60_000,
  );

  expect({ holders: Math.max(...[...holders.values()].map((held) => held.size)), maxJobAttempts, maxSlowInFlight }).toEqual({
    holders: 1,
    maxJobAttempts: 1,
    maxSlowInFlight: 1,
  });
  // The job ends once its attempt is recorded; killing the workers before would leave it locked.
  await until('the delivery job to finish', async () => {
    return (await deliveryJobLock(webhookId)) === undefined ? true : undefined;
  });
  // Each hung attempt's job was in flight for more than twice the staleness limit.
  for (const hung of attempts.filter((a) => a.error === 'timeout')) expect(hung.latency_ms).toBeGreaterThan(2 * Number(FAST_LIVENESS.WORKER_STALE_AFTER_MS));
  // The delivery was in flight for several times the staleness limit.
  const requests = requestsTo('/slow');
  expect(requests.at(-1)!.at - requests[0]!.at).toBeGreaterThan(3 * Number(FAST_LIVENESS.WORKER_STALE_AFTER_MS));
  expect(attempts.map((a) => [a.attempt, a.status, a.error])).toEqual([
    [1, null, 'timeout'],
    [2, null, 'timeout'],
    [3, 200, null],
  ]);
  // Retries of one delivery carry one event id: the one of the event in GET /api/v2/events.
  const eventId = await eventIdOf('opportunity', created.body.data.id);
  expect(requests.map(carriedEventId)).toEqual([eventId, eventId, eventId]);
}, 120_000);

it('a delivery in flight when its worker is SIGKILLed is delivered by another worker within 60 s', async () => {
  const webhookId = await webhook('account', '/crash');
  // Production timings: heartbeats every 10 s, stale after 30 s.
  const started = [await startWorkerProcess(), await startWorkerProcess()];
  const created = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'In flight' } } } });
  await until('the delivery to arrive at the receiver', () => (requestsTo('/crash').length ? true : undefined), 30_000);
  // This test's delivery job, by its webhook: a job of an earlier test may still be queued.
  const lockedBy = await deliveryJobLock(webhookId);
  const holder = started.find((worker) => worker.workerId === lockedBy);
  expect(holder).toBeDefined();

  await holder!.stop('SIGKILL');
  const killedAt = performance.now();
  releaseCrashed = true;
  const again = await until('another worker to deliver', () => requestsTo('/crash').find((r) => r.at > killedAt), RECOVERY_LIMIT_MS + 30_000);
  const recoveryMs = Math.round(again.at - killedAt);
  console.info(`delivery recovered ${recoveryMs} ms after its worker was killed`);
  expect(recoveryMs).toBeLessThan(RECOVERY_LIMIT_MS);

  const attempts = await until('the attempt to be recorded', async () => {
    const rows = await api.sql`select attempt, status from webhook_attempts where webhook_id = ${webhookId}`;
    return rows.length ? rows : undefined;
  });
  expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 200]]);
  // The interrupted delivery and the one after the crash name the same event.
  const eventId = await eventIdOf('account', created.body.data.id);
  const carried = requestsTo('/crash').map(carriedEventId);
  expect(carried.length).toBeGreaterThanOrEqual(2);
  expect(new Set(carried)).toEqual(new Set([eventId]));
  const jobIds = requestsTo('/crash').map((request) => JSON.parse(request.body.toString()).meta.jobId);
  expect(new Set(jobIds)).toEqual(new Set([`${eventId}-${webhookId}`]));
  expect(JSON.parse(again.body.toString()).meta.eventName).toBe('account.created');
}, 180_000);

it('a set in flight when its worker is SIGKILLed is delivered whole by another worker, and deliveries enqueued meanwhile too', async () => {
  const webhookId = await webhook('prospect', '/crash-set');
  // The set's events and the one written while it runs share a run of event ids, so the later
  // delivery is enqueued with the running job's key (delivery-job.ts): that must not keep the
  // running job from running again after the crash.
  const lastEventId = async () => Number((await api.sql`select coalesce(max(id), 0) as id from events`)[0]!.id);
  while ((await lastEventId()) % DELIVERY_SET_SIZE >= DELIVERY_SET_SIZE - 8) {
    expect((await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } })).status).toBe(201);
  }
  const create = async (name: string) => {
    const created = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: name } } } });
    expect(created.status).toBe(201);
    return eventIdOf('prospect', created.body.data.id);
  };
  const setEvents = [await create('One'), await create('Two'), await create('Three')];
  const first = await startWorkerProcess(FAST_LIVENESS);
  await until('the set to arrive at the receiver', () => (requestsTo('/crash-set').length >= 3 ? true : undefined), 30_000);
  const later = await create('Four');
  await first.stop('SIGKILL');
  const killedAt = performance.now();
  releaseSet = true;
  await startWorkerProcess(FAST_LIVENESS);

  const all = [...setEvents, later].sort((a, b) => a - b);
  const attempts = await until(
    'every delivery to be acknowledged',
    async () => {
      const rows = await api.sql<{ event_id: number; attempt: number; status: number | null }[]>`
        select event_id, attempt, status from webhook_attempts where webhook_id = ${webhookId} order by event_id, attempt`;
      const acknowledged = new Set(rows.filter((r) => r.status === 200).map((r) => Number(r.event_id)));
      return all.every((id) => acknowledged.has(id)) ? rows : undefined;
    },
    RECOVERY_LIMIT_MS + 30_000,
  );
  // The killed worker's set is sent again after the crash; no attempt is recorded twice.
  const again = requestsTo('/crash-set').filter((r) => r.at > killedAt);
  expect(new Set(again.map(carriedEventId))).toEqual(new Set(all));
  const numbers = attempts.map((a) => `${a.event_id}:${a.attempt}`);
  expect(new Set(numbers).size).toBe(numbers.length);
}, 180_000);
