import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { FAST_LIVENESS, untilWaitingOn, WorkerProcesses } from '../helpers/worker-processes.js';

/**
 * A 20,000-record bulk upsert written by real `cadence worker` processes, two of which are
 * SIGKILLed in the middle of a chunk. The chunk's transaction dies with its worker; another
 * worker runs the chunk again and finds done only what was committed. In the end every record
 * is written exactly once and every item is final, as a client sees it over HTTP.
 *
 * The kill points are made, not waited for: the test holds the batch's row locked, so a chunk
 * that has written its records waits, uncommitted, to count them into the batch; the test
 * kills its worker there, and then the worker of a second chunk waiting beside it, then lets
 * go. The row is held from before the workers start, so nothing is counted into the batch
 * before both kills. (Waiting for a worker seen holding a chunk raced with the batch, and so did
 * letting the batch run before or between the kills: on a fast run it finished in the gap.)
 */

const RECORDS = 20_000;
/**
 * One chunk at a time per worker: a worker is then almost always holding a chunk, so there is
 * one to kill however fast chunks run (with two each, the batch could finish between two looks).
 */
const ONE_SLOT = { ...FAST_LIVENESS, WORKER_CONCURRENCY: '1' };

let api: TestApi;
const workers = new WorkerProcesses(() => api.databaseUrl);

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  workers.killAll();
  await api?.close();
});

/** The batch as a client reads it. */
async function batch(id: number) {
  const { status, body } = await api.request('GET', `/api/v2/batches/${id}`);
  expect(status).toBe(200);
  return body.data.attributes;
}

/**
 * Starts two workers and kills both in the middle of their chunks. The batch's row is held
 * locked by the test from before they start, so no chunk can commit, and a chunk's transaction
 * waiting on that lock has written its records; a worker holding a chunk then is killed
 * mid-chunk, a replacement started, and the same again once a second chunk waits beside the
 * first one's dead transaction. The replacements start before the lock is let go.
 */
async function killTwiceMidBatch(batchId: number): Promise<void> {
  const holder = postgres(api.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const lock = await holder.reserve();
    await lock`begin`;
    const [{ pid }] = await lock<[{ pid: number }]>`select pg_backend_pid() as pid`;
    await lock`select 1 from batches where id = ${batchId} for no key update`;
    await workers.start(ONE_SLOT);
    await workers.start(ONE_SLOT);
    for (const waiting of [1, 2]) {
      await untilWaitingOn(api.sql, pid, `${waiting} chunks waiting to count their written records into the batch`, { timeoutMs: 240_000, atLeast: waiting });
      const victim = await until('a worker holding a chunk', () => workers.holding(api.sql, 'bulk_upsert_chunk'), 60_000);
      await workers.kill(victim);
      await workers.start(ONE_SLOT);
    }
    expect(await batch(batchId), 'nothing is counted into the batch while its row is locked').toMatchObject({ pending: RECORDS });
    await lock`rollback`;
    lock.release();
  } finally {
    await holder.end({ timeout: 5 });
  }
}

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
  await killTwiceMidBatch(batchId);
  const done = await until(
    'the batch to finish',
    async () => {
      const attributes = await batch(batchId);
      return attributes.state === 'pending' ? undefined : attributes;
    },
    300_000,
  );
  console.info(`20,000 records in ${Math.round(performance.now() - started)} ms; two workers killed mid-chunk`);
  expect(workers.killed.size).toBe(2);

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
