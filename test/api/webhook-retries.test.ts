import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate } from '../runtime/webhooks/certificates.js';
import { freePort } from '../runtime/webhooks/receivers.js';

/**
 * SPEC.md's retry rule (4 attempts, one second apart, network failures only) with retries that
 * wait in the queue rather than in a worker's slot. The worker has one slot: had a waiting retry
 * held it, each delivery's four attempts would run back to back before the next delivery's first.
 */

const DELIVERIES = 3;

let api: TestApi;
let worker: StartedWorker | undefined;

beforeAll(async () => {
  const certificate = await makeCertificate('127.0.0.1');
  api = await startTestApi();
  // Nothing listens on this port: every attempt is refused.
  const url = `https://127.0.0.1:${await freePort()}/hook`;
  const created = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource: 'account' } } } });
  expect(created.status).toBe(201);
  // Queued before the worker starts, so that all first attempts are due together.
  for (let index = 0; index < DELIVERIES; index++) {
    const account = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: `Retried ${index}` } } } });
    expect(account.status).toBe(201);
  }
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 1,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(['127.0.0.1']), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
  });
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

interface AttemptRow {
  event_id: number;
  attempt: number;
  status: number | null;
  error: string | null;
  at: Date;
}

it('a refused delivery gets 4 attempts at least a second apart, and other deliveries run while its retries wait', async () => {
  const rows = await until('every delivery to make its 4 attempts', async () => {
    const found = await api.sql<AttemptRow[]>`select event_id, attempt, status, error, created_at as at from webhook_attempts order by id`;
    return found.length >= DELIVERIES * 4 ? found : undefined;
  });
  expect(rows).toHaveLength(DELIVERIES * 4);
  expect(rows.every((row) => row.status === null && /ECONNREFUSED/.test(row.error ?? ''))).toBe(true);
  const events = [...new Set(rows.map((row) => row.event_id))];
  expect(events).toHaveLength(DELIVERIES);
  for (const event of events) {
    const attempts = rows.filter((row) => row.event_id === event);
    expect(attempts.map((row) => row.attempt)).toEqual([1, 2, 3, 4]);
    const gaps = attempts.slice(1).map((row, index) => row.at.getTime() - attempts[index]!.at.getTime());
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(990);
  }
  // With one slot, every delivery's first attempt ran before any retry: no retry held the slot.
  expect(rows.slice(0, DELIVERIES).map((row) => row.attempt)).toEqual(Array(DELIVERIES).fill(1));
  // And nothing more: the fourth failure ends each delivery, leaving no job behind.
  await until('the delivery jobs to finish', async () => {
    const [left] = await api.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'deliver_webhook'`;
    return left!.n === 0 ? true : undefined;
  });
  expect(await api.sql`select 1 from webhook_attempts where attempt > 4`).toHaveLength(0);
});
