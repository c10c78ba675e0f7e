import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { changesOfAttributes, SERVICE_ACTOR } from '../../runtime/engine/index.js';
import { standardRecordWriter } from '../../runtime/behaviours/standard-writer.js';
import { orgScopedTransaction } from '../../runtime/tenancy/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * Deliveries in sets over kept-alive connections: a backlog to one receiver, drained by a real
 * worker, arrives whole over a few TLS connections (a worker's pool holds at most 32 per
 * target), not one connection per delivery. The receiver is addressed by IP and allowed
 * through allowedHosts, so nothing is resolved.
 */

const EVENTS = 300;

let api: TestApi;
let certificate: TestCertificate;
let receiver: Receiver;
let worker: StartedWorker | undefined;

beforeAll(async () => {
  certificate = await makeCertificate('127.0.0.1');
  receiver = await startReceiver(certificate, (_request, response) => response.end('ok'));
  api = await startTestApi();
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await receiver?.close();
});

it(`${EVENTS} deliveries to one receiver arrive over a few kept-alive TLS connections`, async () => {
  const url = `https://127.0.0.1:${receiver.port}/hook`;
  const created = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource: 'account' } } } });
  expect(created.status).toBe(201);
  const webhookId = created.body.data.id;
  const attributes = descriptors.get('account')!.attributes;
  await orgScopedTransaction(api.sql, api.org.orgId, (tx) =>
    standardRecordWriter(() => new Date()).write(
      { tx, orgId: api.org.orgId, actor: SERVICE_ACTOR },
      Array.from({ length: EVENTS }, (_, index) => ({ kind: 'create' as const, type: 'account', changes: changesOfAttributes(attributes, { name: `Kept ${index}` }) })),
    ),
  );
  // One write: its deliveries are a few set jobs, not one job each.
  const [queued] = await api.sql<{ jobs: number; items: number }[]>`
    select count(*)::int as jobs, sum(json_array_length(j.payload))::int as items
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'deliver_webhook'`;
  expect(queued!.items).toBe(EVENTS);
  expect(queued!.jobs).toBeLessThanOrEqual(Math.ceil(EVENTS / 64) + 1);

  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(['127.0.0.1']), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
  });
  await until('every delivery to arrive', () => (receiver.requests.length >= EVENTS ? true : undefined), 120_000);
  const eventIds = receiver.requests.map((request) => JSON.parse(request.body.toString()).meta.eventId);
  const events = await api.sql`select id from events where resource_type = 'account' and action = 'created' order by id`;
  expect(eventIds.sort((a, b) => a - b)).toEqual(events.map((e) => e.id));
  expect(receiver.secureConnections()).toBeLessThanOrEqual(32);
  // A set's attempt rows are written after its last response arrives: wait for its job to finish.
  await until(
    'every delivery job to finish',
    async () => {
      const [left] = await api.sql<{ jobs: number }[]>`
      select count(*)::int as jobs from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'deliver_webhook'`;
      return left!.jobs === 0 ? true : undefined;
    },
    60_000,
  );
  const [attempts] = await api.sql`
    select count(*)::int as total, count(*) filter (where status = 200)::int as acknowledged from webhook_attempts where webhook_id = ${webhookId}`;
  expect(attempts).toEqual({ total: EVENTS, acknowledged: EVENTS });
}, 180_000);
