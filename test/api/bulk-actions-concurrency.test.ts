import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CreatedOrg } from '../../runtime/admin/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';

/**
 * Bulk actions under concurrency: more concurrent requests than the server's pool holds (4),
 * over the same records, with a real worker applying their chunks at the same time. What a
 * client sees at the end must be what the requests, taken in some order, would have made.
 */

const PROSPECTS = 120;

let api: TestApi;
let worker: StartedWorker | undefined;
let other: CreatedOrg;
beforeAll(async () => {
  api = await startTestApi({ poolSize: 4 });
  // No webhooks are subscribed: deliveries would have nowhere to go, and a resolver that finds nothing.
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 4,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set<string>(), resolver: async () => [] },
  });
  other = await api.newOrg('Other org');
  for (const org of [api.org, other]) {
    const response = await api.request('POST', '/api/v2/imports/actions/bulkUpsert', {
      token: org.token,
      body: { data: { attributes: { records: Array.from({ length: PROSPECTS }, (_, i) => ({ data: { type: 'prospect', attributes: { firstName: `P${i}` } } })) } } },
    });
    expect(response.status).toBe(200);
    await settled(response.body.data.id, org.token);
  }
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

async function settled(batchId: string, token = api.org.token) {
  return until(
    `batch ${batchId} to settle`,
    async () => {
      const { body } = await api.request('GET', `/api/v2/batches/${batchId}`, { token });
      const a = body.data.attributes;
      return a.state === 'confirming' || a.pending > 0 || a.state === 'pending' ? undefined : a;
    },
    90_000,
  );
}

async function allProspects(token: string) {
  const rows: { id: string; attributes: Record<string, any> }[] = [];
  let path: string | undefined = '/api/v2/prospects?page[size]=1000';
  while (path) {
    const { status, body } = await api.request('GET', path, { token });
    expect(status).toBe(200);
    rows.push(...body.data);
    path = body.links?.next ? new URL(body.links.next as string).pathname + new URL(body.links.next as string).search : undefined;
  }
  return rows;
}

it('20 concurrent tag actions over the same records all finish, and every record ends with every tag, once', async () => {
  const tags = Array.from({ length: 20 }, (_, i) => `tag-${i}`);
  const started = await Promise.all(
    tags.map((tag) =>
      api.request('POST', '/api/v2/batches/actions/prospectsAddTags?actionParams[skipConfirmation]=true', { body: { data: { attributes: { tags: [tag] } } } }),
    ),
  );
  expect(started.map((r) => r.status)).toEqual(tags.map(() => 200));
  const batches = await Promise.all(started.map((r) => settled(r.body.data.id)));
  expect(batches.map((b) => [b.state, b.total, b.failures])).toEqual(tags.map(() => ['finished', PROSPECTS, 0]));

  const prospects = await allProspects(api.org.token);
  expect(prospects).toHaveLength(PROSPECTS);
  for (const p of prospects) expect([...(p.attributes.tags as string[])].sort()).toEqual([...tags].sort());
  // The other org's records are untouched.
  for (const p of await allProspects(other.token)) expect(p.attributes.tags ?? []).toEqual([]);
}, 180_000);

it('a confirm and a cancel racing on each batch: both outcomes agree with the batch and its records', async () => {
  const made = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      api.request('POST', '/api/v2/batches/actions/prospectsBulkModify', { body: { data: { attributes: { occupation: `race-${i}` } } } }),
    ),
  );
  expect(made.map((r) => r.body.data.attributes.state)).toEqual(made.map(() => 'confirming'));
  const raced = await Promise.all(
    made.map(async (r) => {
      const id = r.body.data.id as string;
      const [confirm, cancel] = await Promise.all([
        api.request('POST', `/api/v2/batches/${id}/actions/confirm`),
        api.request('POST', `/api/v2/batches/${id}/actions/cancel`),
      ]);
      return { id, confirm: confirm.status, cancel: cancel.status };
    }),
  );
  for (const { id, confirm, cancel } of raced) {
    // Cancel first: the confirm finds a canceled batch (422). Confirm first: the cancel stops the
    // batch (200), or finds it already finished by the worker (422) on a fast machine.
    expect([200, 422]).toContain(confirm);
    expect([200, 422]).toContain(cancel);
    expect(confirm === 200 || cancel === 200).toBe(true);
    const batch = await settled(id);
    expect(batch.state).toBe(cancel === 200 ? 'canceled' : 'finished');
    expect(batch.pending).toBe(0);
    const { body } = await api.request('GET', `/api/v2/batchItems?filter[batch][id]=${id}&page[size]=1000`);
    const states = (body.data as { attributes: { state: string } }[]).map((i) => i.attributes.state);
    expect(states).toHaveLength(PROSPECTS);
    expect(states.filter((s) => s === 'pending')).toEqual([]);
    if (confirm === 422) expect(states.filter((s) => s === 'success')).toEqual([]);
    if (cancel === 422) expect(states.filter((s) => s !== 'success')).toEqual([]);
  }
  // Every record changed is one a success item says was changed, by the batch that says so.
  const prospects = await allProspects(api.org.token);
  for (const { id } of raced) {
    const index = made.findIndex((r) => r.body.data.id === id);
    const { body } = await api.request('GET', `/api/v2/batchItems?filter[batch][id]=${id}&filter[state]=success&page[size]=1000`);
    const succeeded = new Set((body.data as { attributes: { itemId: number } }[]).map((i) => String(i.attributes.itemId)));
    const changed = prospects.filter((p) => p.attributes.occupation === `race-${index}`).map((p) => String(p.id));
    // A later batch may have overwritten an earlier one's value: what shows is a subset of its successes.
    for (const pid of changed) expect(succeeded.has(pid)).toBe(true);
  }
}, 180_000);
