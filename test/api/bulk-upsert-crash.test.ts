import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

/**
 * A 20,000-record bulk upsert written by real `cadence worker` processes, two of which are
 * SIGKILLed in the middle of a chunk. The chunk's transaction dies with its worker; another
 * worker runs the chunk again and finds done only what was committed. In the end every record
 * is written exactly once and every item is final, as a client sees it over HTTP.
 */

const RECORDS = 20_000;
// Heartbeats every 0.5 s, stale after 2 s: a dead worker's chunk runs again within seconds.
const FAST_LIVENESS = { WORKER_HEARTBEAT_MS: '500', WORKER_STALE_AFTER_MS: '2000', WORKER_CONCURRENCY: '2' };

let api: TestApi;
const workers: { process: RunningCadence; workerId: string }[] = [];

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  for (const w of workers) w.process.kill();
  await api?.close();
});

async function startWorkerProcess() {
  const process = startCadence(api.databaseUrl, ['worker'], FAST_LIVENESS);
  const started = JSON.parse(await process.waitForLine(/"worker started"/));
  await process.waitForLine(/looking for jobs/);
  const worker = { process, workerId: started.workerId as string };
  workers.push(worker);
  return worker;
}

/** The batch as a client reads it. */
async function batch(id: number) {
  const { status, body } = await api.request('GET', `/api/v2/batches/${id}`);
  expect(status).toBe(200);
  return body.data.attributes;
}

/** The workers holding a chunk job now. The public jobs view has no payload; the lock is enough. */
async function chunkHolders(): Promise<string[]> {
  const rows = await api.sql<{ locked_by: string }[]>`
    select locked_by from graphile_worker.jobs where task_identifier = 'bulk_upsert_chunk' and locked_by is not null`;
  return rows.map((r) => r.locked_by);
}

/** Kills, once some chunks are done and others are under way, a worker that holds a chunk. */
async function killMidBatch(batchId: number, doneAtLeast: number): Promise<{ done: number }> {
  const victim = await until(
    `a worker holding a chunk once ${doneAtLeast} items are done`,
    async () => {
      const { total, pending } = await batch(batchId);
      if (total - pending < doneAtLeast) return undefined;
      const holders = await chunkHolders();
      return workers.find((w) => holders.includes(w.workerId) && !killed.has(w.workerId));
    },
    240_000,
  );
  victim.process.kill();
  killed.add(victim.workerId);
  const { total, pending } = await batch(batchId);
  return { done: total - pending };
}
const killed = new Set<string>();

/** Every item of the batch, page by page, as a client reads them. */
async function allItems(batchId: number) {
  const items: { attributes: Record<string, any> }[] = [];
  let next: string | undefined = `/api/v2/batchItems?filter[batchId]=${batchId}&page[size]=1000&fields[batchItem]=state,itemId,data`;
  while (next) {
    const { status, body } = await api.request('GET', next);
    expect(status).toBe(200);
    items.push(...body.data);
    next = body.links.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : undefined;
  }
  return items;
}

it('workers SIGKILLed twice during a 20,000-record upsert: every record applied once, every item final', async () => {
  const records = Array.from({ length: RECORDS }, (_, i) => ({ data: { type: 'account', attributes: { name: `a${i}` }, meta: { n: i } } }));
  const posted = performance.now();
  const response = await api.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes: { records } } } });
  expect(response.status).toBe(200);
  console.info(
    `POST of ${RECORDS} records (${JSON.stringify({ data: { attributes: { records } } }).length} bytes) answered in ${Math.round(performance.now() - posted)} ms`,
  );
  const batchId = response.body.data.id;
  expect(response.body.data.attributes).toMatchObject({ state: 'pending', total: RECORDS, pending: RECORDS });

  const started = performance.now();
  await startWorkerProcess();
  await startWorkerProcess();
  const first = await killMidBatch(batchId, 1);
  await startWorkerProcess();
  const second = await killMidBatch(batchId, first.done + 1000);
  await startWorkerProcess();
  const done = await until(
    'the batch to finish',
    async () => {
      const attributes = await batch(batchId);
      return attributes.state === 'pending' ? undefined : attributes;
    },
    300_000,
  );
  console.info(`20,000 records in ${Math.round(performance.now() - started)} ms; workers killed after ${first.done} and ${second.done} items`);
  // Both kills happened with the batch under way.
  expect(first.done).toBeLessThan(RECORDS);
  expect(second.done).toBeLessThan(RECORDS);
  expect(killed.size).toBe(2);

  expect(done).toMatchObject({ state: 'finished', total: RECORDS, pending: 0, failures: 0, summary: null });
  const items = await allItems(batchId);
  expect(items).toHaveLength(RECORDS);
  expect(items.filter((i) => i.attributes.state !== 'success')).toEqual([]);
  const itemIds = new Set(items.map((i) => i.attributes.itemId));
  expect(itemIds.size).toBe(RECORDS);
  // Each item's itemId is the account made from its own data.
  const byId = new Map(items.map((i) => [i.attributes.itemId as number, JSON.parse(i.attributes.data).data.attributes.name as string]));

  const accounts = await api.request('GET', '/api/v2/accounts?count=true&page[size]=1');
  expect(accounts.body.meta.count).toBe(RECORDS);
  const created = await api.request('GET', '/api/v2/events?filter[name]=account_created&count=true&page[size]=1');
  expect(created.body.meta.count).toBe(RECORDS);
  const rows = await api.sql<{ id: number; name: string }[]>`select id, name from accounts`;
  expect(rows.filter((row) => byId.get(row.id) !== row.name)).toEqual([]);
}, 600_000);
