import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * A backlog of deliveries to one webhook, run by one worker at concurrency 4: every delivery
 * transaction inserts attempt rows that reference the webhook row (a foreign-key share lock on
 * it), and the deliveries that find the webhook recovering from a disable also update that row.
 * The burst must neither deadlock nor deliver anything twice. The receiver is addressed by IP and
 * allowed through allowedHosts, so nothing is resolved.
 */

const EVENTS = 1000;
const CONCURRENCY = 4;
// Requests in flight while the backlog is written; the worker starts once it is complete.
const WRITERS = 8;

let api: TestApi;
let certificate: TestCertificate;
let receiver: Receiver;
let worker: StartedWorker | undefined;
const logLines: string[] = [];

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

async function writeAccounts(count: number): Promise<void> {
  let written = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (written < count) {
        written++;
        const response = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: `Burst ${written}` } } } });
        expect(response.status).toBe(201);
      }
    }),
  );
}

it(`${EVENTS} deliveries to one recovering webhook at concurrency ${CONCURRENCY}: no deadlock, each delivered once`, async () => {
  const url = `https://127.0.0.1:${receiver.port}/hook`;
  const created = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource: 'account' } } } });
  expect(created.status).toBe(201);
  const webhookId = created.body.data.id;
  // Disabled for a minute (an unresolvable host) an hour ago: the period is over, and the first
  // acknowledgement clears the disabled state, while the deliveries around it still see it set.
  await api.sql`update webhooks set disabled_reason = 'host cannot be resolved', disabled_since = now() - interval '1 hour',
                       disabled_until = now() - interval '59 minutes' where id = ${webhookId}`;
  await writeAccounts(EVENTS);

  let failures = 0;
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: CONCURRENCY,
    log: pino({ level: 'warn' }, { write: (line: string) => void logLines.push(line) }),
    delivery: { allowedHosts: new Set(['127.0.0.1']), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
  });
  worker.runner.events.on('job:error', () => failures++);
  await until(
    'every delivery job to finish',
    async () => {
      const [left] = await api.sql`select count(*)::int as jobs from graphile_worker.jobs where task_identifier = 'deliver_webhook'`;
      return left!.jobs === 0 ? true : undefined;
    },
    200_000,
  );

  const eventIds = receiver.requests.map((request) => JSON.parse(request.body.toString()).meta.eventId);
  expect({
    deadlocks: logLines.filter((line) => /deadlock|40P01/.test(line)).length,
    failedJobRuns: failures,
    received: eventIds.length,
    distinct: new Set(eventIds).size,
  }).toEqual({ deadlocks: 0, failedJobRuns: 0, received: EVENTS, distinct: EVENTS });
  const events = await api.sql`select id from events where resource_type = 'account' and action = 'created' order by id`;
  expect(eventIds.sort((a, b) => a - b)).toEqual(events.map((e) => e.id));
  // Each event acknowledged once. An attempt that failed below HTTP (a connection refused or
  // reset on a loaded machine) is retried, as SPEC.md says; no other attempt may be repeated.
  const [attempts] = await api.sql`
    select count(distinct event_id)::int as events, count(*) filter (where status = 200)::int as acknowledged,
           count(*) filter (where status is distinct from 200 and (status is not null or error is null))::int as "otherFailures"
      from webhook_attempts where webhook_id = ${webhookId}`;
  expect(attempts).toEqual({ events: EVENTS, acknowledged: EVENTS, otherFailures: 0 });
  // Cleared once, by whichever delivery came first; the others found nothing to change.
  const webhook = await api.request('GET', `/api/v2/webhooks/${webhookId}`);
  expect(webhook.body.data.attributes).toMatchObject({ active: true, disabledReason: null, disabledSince: null, disabledUntil: null });
  const [updates] = await api.sql`select count(*)::int as n from events where resource_type = 'webhook' and resource_id = ${webhookId} and action = 'updated'`;
  expect(updates!.n).toBe(1);
}, 270_000);
