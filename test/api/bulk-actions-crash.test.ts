import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { FAST_LIVENESS, WorkerProcesses } from '../helpers/worker-processes.js';

/**
 * Bulk actions written by real `cadence worker` processes. A 50,000-prospect modify survives two
 * workers SIGKILLed in the middle of a chunk: the chunk's transaction dies with its worker,
 * another worker runs it again, and every prospect is changed, with one `updated` event, exactly
 * once. A batch canceled while a worker is processing it stops within one chunk: what was
 * changed stays changed, the rest is skipped, and nothing is changed twice.
 */

const CRASH_RECORDS = 50_000;
const CANCEL_RECORDS = 10_000;
const CHUNK = 1000;
const MODIFY = '/api/v2/batches/actions/prospectsBulkModify?actionParams[skipConfirmation]=true';

let api: TestApi;
const workers = new WorkerProcesses(() => api.databaseUrl);

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  workers.killAll();
  await api?.close();
});

/** Prospects straight into the database (one statement), with no title and no events of their own. */
async function insertProspects(orgId: number, count: number) {
  await api.sql`
    insert into prospects (org_id, first_name, last_name)
    select ${orgId}, 'Prospect', 'n' || g from generate_series(1, ${count}) g`;
}

/** The batch as a client reads it. */
async function batch(id: string, token?: string) {
  const { status, body } = await api.request('GET', `/api/v2/batches/${id}`, { token });
  expect(status).toBe(200);
  return body.data.attributes;
}

async function chunkJobsLeft(): Promise<number> {
  const [row] = await api.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'bulk_action_chunk'`;
  return row!.n;
}

/** Kills, once some chunks are done and others are under way, a worker that holds a chunk. */
async function killMidBatch(batchId: string, doneAtLeast: number): Promise<{ done: number }> {
  const victim = await until(
    `a worker holding a chunk once ${doneAtLeast} items are done`,
    async () => {
      const { total, pending } = await batch(batchId);
      if (total - pending < doneAtLeast) return undefined;
      return workers.holding(api.sql, 'bulk_action_chunk');
    },
    120_000,
  );
  await workers.kill(victim);
  const { total, pending } = await batch(batchId);
  return { done: total - pending };
}

interface Item {
  attributes: { state: string; itemId: number; data: string; info: string | null };
}

/** Every item of the batch, page by page, as a client reads them. */
async function allItems(batchId: string, token?: string): Promise<Item[]> {
  const items: Item[] = [];
  let next: string | undefined = `/api/v2/batchItems?filter[batchId]=${batchId}&page[size]=1000&fields[batchItem]=state,itemId,data,info`;
  while (next) {
    const { status, body } = await api.request('GET', next, { token });
    expect(status).toBe(200);
    items.push(...body.data);
    next = body.links.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : undefined;
  }
  return items;
}

/** How many `prospect.updated` events each prospect of the org has (0 for none). */
async function updatedEventsByProspect(orgId: number): Promise<Map<number, number>> {
  const rows = await api.sql<{ id: number; n: number }[]>`
    select p.id::int as id, coalesce(e.n, 0)::int as n
      from prospects p
      left join (select resource_id, count(*) as n from events
                  where org_id = ${orgId} and resource_type = 'prospect' and action = 'updated'
                  group by resource_id) e on e.resource_id = p.id
     where p.org_id = ${orgId}`;
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Counts of each value in a list, for one readable assertion over thousands of records. */
function tally(values: readonly unknown[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

it('workers SIGKILLed twice during a 50,000-prospect modify: every prospect changed once, with one event, every item success', async () => {
  const orgId = api.org.orgId;
  await insertProspects(orgId, CRASH_RECORDS);
  const posted = performance.now();
  const response = await api.request('POST', MODIFY, { body: { data: { attributes: { title: 'Bulk' } } } });
  console.info(`POST of a ${CRASH_RECORDS}-prospect modify answered in ${Math.round(performance.now() - posted)} ms`);
  expect(response.status).toBe(200);
  expect(response.body.data.type).toBe('batch');
  const batchId: string = response.body.data.id;
  expect(response.body.data.attributes).toMatchObject({
    action: 'prospectsBulkModify',
    resourceType: 'prospect',
    state: 'pending',
    total: CRASH_RECORDS,
    pending: CRASH_RECORDS,
  });
  expect(response.body.data.attributes.startedAt).toEqual(expect.any(String));

  try {
    const started = performance.now();
    await workers.start();
    await workers.start();
    const first = await killMidBatch(batchId, 1);
    await workers.start();
    const second = await killMidBatch(batchId, first.done + 2 * CHUNK);
    await workers.start();
    const done = await until(
      'the batch to finish',
      async () => {
        const attributes = await batch(batchId);
        return attributes.state === 'pending' ? undefined : attributes;
      },
      150_000,
    );
    console.info(`${CRASH_RECORDS} prospects in ${Math.round(performance.now() - started)} ms; workers killed after ${first.done} and ${second.done} items`);
    // Both kills happened with the batch under way.
    expect(first.done).toBeLessThan(CRASH_RECORDS);
    expect(second.done).toBeLessThan(CRASH_RECORDS);
    expect(workers.killed.size).toBe(2);

    expect(done).toMatchObject({ state: 'finished', total: CRASH_RECORDS, pending: 0, failures: 0, summary: null });
    expect(done.finishedAt).toEqual(expect.any(String));
  } finally {
    await workers.stopAll();
  }

  // Counted as a client counts them (reading 50 pages would take most of the run); which item
  // names which prospect is checked in SQL.
  const itemCount = async (query: string) => {
    const { status, body } = await api.request('GET', `/api/v2/batchItems?filter[batchId]=${batchId}${query}&count=true&page[size]=1`);
    expect(status).toBe(200);
    return body.meta.count as number;
  };
  expect(await itemCount('')).toBe(CRASH_RECORDS);
  expect(await itemCount('&filter[state]=success')).toBe(CRASH_RECORDS);
  const [coverage] = await api.sql<{ items: number; prospects: number }[]>`
    select count(*)::int as items, count(distinct p.id)::int as prospects
      from batch_items i
      join prospects p on p.org_id = i.org_id and p.id = i.item_id
     where i.org_id = ${orgId} and i.batch_id = ${batchId} and i.state = 'success'
       and i.data::jsonb = jsonb_build_object('type', 'prospect', 'id', p.id::text)`;
  expect(coverage).toEqual({ items: CRASH_RECORDS, prospects: CRASH_RECORDS });

  const titles = await api.sql<{ title: string | null; n: number }[]>`
    select title, count(*)::int as n from prospects where org_id = ${orgId} group by title`;
  expect(titles).toEqual([{ title: 'Bulk', n: CRASH_RECORDS }]);
  // Exactly one `updated` event per prospect: a chunk run again after a kill repeated nothing.
  expect(tally([...(await updatedEventsByProspect(orgId)).values()])).toEqual({ 1: CRASH_RECORDS });
  const events = await api.request('GET', '/api/v2/events?filter[name]=prospect_updated&count=true&page[size]=1');
  expect(events.status).toBe(200);
  expect(events.body.meta.count).toBe(CRASH_RECORDS);
}, 240_000);

it('a batch canceled while a worker processes it stops within one chunk; the rest is skipped, nothing is changed twice', async () => {
  // An org of its own, so that the selection is exactly these prospects.
  const { orgId, token } = await api.newOrg('Cancel org');
  await insertProspects(orgId, CANCEL_RECORDS);
  const response = await api.request('POST', MODIFY, { token, body: { data: { attributes: { title: 'Bulk' } } } });
  expect(response.status).toBe(200);
  const batchId: string = response.body.data.id;
  expect(response.body.data.attributes).toMatchObject({ state: 'pending', total: CANCEL_RECORDS, pending: CANCEL_RECORDS });

  let doneAtCancel: number;
  try {
    await workers.start({ ...FAST_LIVENESS, WORKER_CONCURRENCY: '1' });
    await until(
      'a first chunk done',
      async () => {
        const { total, pending } = await batch(batchId, token);
        return total - pending >= CHUNK ? true : undefined;
      },
      60_000,
    );
    const canceled = await api.request('POST', `/api/v2/batches/${batchId}/actions/cancel`, { token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.data.attributes).toMatchObject({ state: 'canceled', total: CANCEL_RECORDS });
    expect(canceled.body.data.attributes.canceledAt).toEqual(expect.any(String));
    doneAtCancel = canceled.body.data.attributes.total - canceled.body.data.attributes.pending;
    console.info(`canceled with ${doneAtCancel} of ${CANCEL_RECORDS} items done`);
    expect(doneAtCancel).toBeLessThan(CANCEL_RECORDS);

    // Settled: nothing pending and no chunk job left to run.
    const settled = await until(
      'pending to reach 0 and the chunk jobs to be gone',
      async () => {
        const attributes = await batch(batchId, token);
        return attributes.pending === 0 && (await chunkJobsLeft()) === 0 ? attributes : undefined;
      },
      60_000,
    );
    expect(settled).toMatchObject({ state: 'canceled', total: CANCEL_RECORDS, pending: 0, failures: 0 });
  } finally {
    await workers.stopAll();
  }
  // Still canceled once the worker is gone: no late chunk finished it.
  expect(await batch(batchId, token)).toMatchObject({ state: 'canceled', pending: 0 });

  const items = await allItems(batchId, token);
  expect(items).toHaveLength(CANCEL_RECORDS);
  const states = tally(items.map((i) => i.attributes.state));
  expect(Object.keys(states).sort()).toEqual(['skipped', 'success']);
  const succeeded = items.filter((i) => i.attributes.state === 'success').map((i) => i.attributes.itemId);
  // At most the chunk under way when the cancel came was applied after it.
  expect(succeeded.length).toBeGreaterThanOrEqual(doneAtCancel);
  expect(succeeded.length).toBeLessThanOrEqual(doneAtCancel + CHUNK);
  expect(items.filter((i) => i.attributes.state === 'skipped' && !/cancel/i.test(i.attributes.info ?? ''))).toEqual([]);

  // The prospects changed are exactly the items that succeeded, each with one `updated` event.
  const changed = await api.sql<{ id: number }[]>`select id::int as id from prospects where org_id = ${orgId} and title = 'Bulk'`;
  expect(new Set(changed.map((r) => r.id))).toEqual(new Set(succeeded));
  const events = await updatedEventsByProspect(orgId);
  const succeededIds = new Set(succeeded);
  const wrong = [...events].filter(([id, n]) => n !== (succeededIds.has(id) ? 1 : 0));
  expect(wrong).toEqual([]);
}, 150_000);
