import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/jobs/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * A worker process killed in the middle of a delivery loses no delivery: the job stays in
 * PostgreSQL, locked by the dead worker, and runs again once graphile-worker's lock expires
 * (4 hours; the test moves the lock's time back instead of waiting). The receiver is addressed
 * by IP, allowed through WEBHOOK_ALLOWED_HOSTS, so the worker process resolves nothing.
 */

let api: TestApi;
let certificate: TestCertificate;
let receiver: Receiver;
let answer = false;
let folder: string;
let child: ChildProcess | undefined;
let worker: StartedWorker | undefined;

beforeAll(async () => {
  certificate = await makeCertificate('127.0.0.1');
  folder = await mkdtemp(join(tmpdir(), 'cadence-crash-'));
  await writeFile(join(folder, 'ca.pem'), certificate.cert);
  // Until `answer` is set the receiver holds the request open, keeping the delivery in flight.
  receiver = await startReceiver(certificate, (_request, response) => {
    if (answer) response.end('ok');
  });
  api = await startTestApi();
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await worker?.stop();
  await api?.close();
  await receiver?.close();
  await rm(folder, { recursive: true, force: true });
});


it('a delivery in flight when its worker is killed is delivered by another worker', async () => {
  const url = `https://127.0.0.1:${receiver.port}/hook`;
  const created = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource: 'account' } } } });
  expect(created.status).toBe(201);
  child = spawn(process.execPath, ['bin/cadence.js', 'worker'], {
    env: { ...process.env, DATABASE_URL: api.databaseUrl, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: join(folder, 'ca.pem'), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d) => process.stderr.write(`[worker] ${d}`));
  await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'In flight' } } } });
  await until('the delivery to arrive at the receiver', () => (receiver.requests.length > 0 ? true : undefined), 30_000);
  child.kill('SIGKILL');
  await new Promise((resolve) => child!.once('exit', resolve));
  child = undefined;

  const [job] = await api.sql`select locked_by from graphile_worker._private_jobs`;
  expect(job?.locked_by).toBeTruthy();
  await api.sql`update graphile_worker._private_jobs set locked_at = now() - interval '5 hours'`;

  answer = true;
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 1,
    log: pino({ level: 'silent' }),
    staleLockCheckMs: 500,
    delivery: { allowedHosts: new Set(['127.0.0.1']), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
  });
  const attempts = await until('the delivery to be acknowledged', async () => {
    const rows = await api.sql`select status from webhook_attempts where webhook_id = ${created.body.data.id}`;
    return rows.length ? rows : undefined;
  }, 30_000);
  expect(attempts.map((a) => a.status)).toEqual([200]);
  expect(receiver.requests.length).toBe(2);
  expect(JSON.parse(receiver.requests[1]!.body.toString()).meta.eventName).toBe('account.created');
}, 90_000);
