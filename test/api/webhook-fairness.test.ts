import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { changesOfAttributes, SERVICE_ACTOR } from '../../runtime/engine/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { standardRecordWriter } from '../../runtime/behaviours/standard-writer.js';
import { orgScopedTransaction } from '../../runtime/tenancy/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { orgClient, type OrgClient } from '../helpers/bulk-actions.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * Issue #25: one org's dead webhook receiver must not starve the other orgs' background work.
 * Org A has a webhook to a receiver on 127.0.0.1 that accepts connections and never answers,
 * and 2,000 deliveries queued for it (a set of them then holds a slot for two 5 s timeouts); org B,
 * on the same worker at the default concurrency, does a bulk upsert and has a webhook of its
 * own to a live receiver. B's batch and B's deliveries must not wait for A's backlog.
 */

const BACKLOG = 2000;
const CONCURRENCY = 4;

let api: TestApi;
let worker: StartedWorker | undefined;
let certificate: TestCertificate;
let receiver: Receiver;
let hung: Receiver;
let orgA: OrgClient;
let orgB: OrgClient;

beforeAll(async () => {
  certificate = await makeCertificate('127.0.0.1');
  receiver = await startReceiver(certificate, (_request, response) => response.end('ok'));
  hung = await startReceiver(certificate, () => {});
  api = await startTestApi();
  orgA = orgClient(api, api.org);
  orgB = orgClient(api, await api.newOrg('Org B'));
  // Every attempt times out, so every delivery makes all 4.
  await webhook(orgA, `https://127.0.0.1:${hung.port}/hook`, 'account');
  await webhook(orgB, `https://127.0.0.1:${receiver.port}/hook`, 'prospect');
  await writeAccounts(orgA.orgId, BACKLOG);
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: CONCURRENCY,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(['127.0.0.1']), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await receiver?.close();
  await hung?.close();
});

async function webhook(org: OrgClient, url: string, resource: string): Promise<number> {
  const created = await org.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource } } } });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

/** `count` accounts in one write through the record writer: their events enqueue one delivery each. */
async function writeAccounts(orgId: number, count: number): Promise<void> {
  const attributes = descriptors.get('account')!.attributes;
  const writer = standardRecordWriter(() => new Date());
  await orgScopedTransaction(api.sql, orgId, (tx) =>
    writer.write(
      { tx, orgId, actor: SERVICE_ACTOR },
      Array.from({ length: count }, (_, index) => ({ kind: 'create' as const, type: 'account', changes: changesOfAttributes(attributes, { name: `Backlog ${index}` }) })),
    ),
  );
}

/** The org's deliveries whose first attempt is still to come: all queued before B's work. */
async function firstAttemptsQueued(orgId: number): Promise<number> {
  const [row] = await api.sql<{ n: number }[]>`
    select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id,
           jsonb_array_elements(j.payload::jsonb) as i(item)
     where t.identifier = 'deliver_webhook' and (i.item->>'orgId')::bigint = ${orgId} and i.item->>'attempt' = '1'`;
  return row!.n;
}

it(`with ${BACKLOG} deliveries queued for a dead receiver in org A, org B's bulk upsert of 10 records finishes within 30 s`, async () => {
  // The worker is busy with A's deliveries before B asks for anything.
  await until('A to be delivering', () => (hung.requests.length > 0 ? true : undefined));
  const records = Array.from({ length: 10 }, (_, index) => ({ data: { type: 'prospect', attributes: { firstName: `Fair ${index}` } } }));
  const started = performance.now();
  const response = await orgB.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes: { records } } } });
  expect(response.status).toBe(200);
  const batchId = response.body.data.id;
  const batch = await until(
    `org B's batch ${batchId} to finish`,
    async () => {
      const { body } = await orgB.request('GET', `/api/v2/batches/${batchId}`);
      return body.data.attributes.state === 'pending' ? undefined : body.data.attributes;
    },
    30_000,
  );
  const seconds = (performance.now() - started) / 1000;
  expect(batch).toMatchObject({ state: 'finished', total: 10, pending: 0, failures: 0 });
  expect(seconds).toBeLessThan(30);
  // A's backlog is still there: B did not simply wait for it to drain.
  expect(await firstAttemptsQueued(orgA.orgId)).toBeGreaterThan(BACKLOG / 2);

  // B's own deliveries (one per prospect written) reach B's receiver before most of A's older
  // ones are first tried: A's delivery sets hold at most three of the worker's four slots.
  await until('org B to receive its 10 deliveries', () => (receiver.requests.length >= 10 ? true : undefined), 30_000);
  expect(receiver.requests.map((request) => JSON.parse(request.body.toString()).meta.eventName)).toEqual(Array(10).fill('prospect.created'));
  expect(await firstAttemptsQueued(orgA.orgId)).toBeGreaterThan(BACKLOG / 2);
}, 120_000);
