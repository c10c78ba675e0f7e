import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg, type OrgClient } from '../helpers/bulk-actions.js';
import { importEnded, startImport, uploadAndValidate } from '../helpers/imports.js';
import { duringWork, prospectsPageProbe, type Latency } from '../helpers/latency.js';
import { until } from '../helpers/wait.js';
import { WorkerProcesses } from '../helpers/worker-processes.js';

/**
 * The event-loop-lag guard (issue #25): while one org's heaviest work runs, another org's
 * requests, sent every 100 ms, all answer, the worst within 2 s and the 95th percentile within
 * 600 ms, and the API process's event loop is never held for long. The API runs in this process
 * (so its event-loop delay is measured here) and the background work in a `cadence worker`
 * child process, as `npm start` runs them.
 *
 * The heavy operations: a 2 MB bulk upsert, a compliance request in an org of 20,000 prospects
 * with their events and batch items (20 of them with the address), validation of a 200,000-row file of malformed rows, and a
 * 30,000-row import.
 */

/** The lag this test tolerates: the issue's bounds for other tenants' waits, and a loop p99 of a few tens of ms with slack for a shared machine. */
const WORST_WAIT_MS = 2_000;
const P95_WAIT_MS = 600;
const LOOP_P99_MS = 100;
const ERASED_ADDRESS = 'erase-me@example.test';

let api: TestApi;
let heavy: OrgClient;
let bystander: OrgClient;
const workers = new WorkerProcesses(() => api.databaseUrl);
/** Each operation's report, printed at the end for the record. */
const reports: Record<string, Latency> = {};

beforeAll(async () => {
  api = await startTestApi({ maxBodyBytes: 2 * 1024 * 1024 });
  await workers.start({ WORKER_CONCURRENCY: '4' });
  heavy = await freshOrg(api, 'Heavy org');
  bystander = await freshOrg(api, 'Bystander org');
  // Something for the bystander's list to read.
  for (const lastName of ['Lovelace', 'Hopper', 'Turing']) {
    const created = await bystander.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { lastName } } } });
    expect(created.status).toBe(201);
  }
});

afterAll(async () => {
  console.log(`isolation-lag reports: ${JSON.stringify(reports)}`);
  await workers.stopAll();
  await api?.close();
});

/** Runs `work` while the bystander lists its prospects every 100 ms, and checks what the bystander saw. */
async function guarded<T>(name: string, work: () => Promise<T>): Promise<T> {
  const { result, latency } = await duringWork(work, prospectsPageProbe(api.baseUrl, bystander.token));
  reports[name] = latency;
  const seen = `${name}: ${JSON.stringify(latency)}`;
  expect(latency.failures, seen).toEqual([]);
  expect(latency.samples, seen).toBeGreaterThan(0);
  expect(latency.worstWaitMs, seen).toBeLessThan(WORST_WAIT_MS);
  expect(latency.p95WaitMs, seen).toBeLessThan(P95_WAIT_MS);
  expect(latency.loopP99Ms, seen).toBeLessThan(LOOP_P99_MS);
  return result;
}

/** Prospect records for a bulk upsert, numbered from `from`, each with an address of its own. */
function prospectRecords(from: number, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return { data: { type: 'prospect', attributes: { firstName: `F${n}`, lastName: `L${n}`, emails: [`p${n}@example.test`] }, meta: { sourceId: `s${n}` } } };
  });
}

/**
 * Gives every 1,000th of the heavy org's 20,000 prospects the erased address, in the prospect,
 * its events and its bulk upsert item, as if one person had been entered 20 times (a bulk upsert
 * would have merged them as duplicates): one set-based statement per table. The request then
 * deletes 20 prospects and searches all 20,000 prospects' events and items for the address.
 */
async function giveSomeProspectsTheErasedAddress(): Promise<void> {
  const pattern = '^p[0-9]*000@example\\.test$';
  await api.sql`update prospects set emails = array[${ERASED_ADDRESS}] where org_id = ${heavy.orgId} and emails[1] ~ ${pattern}`;
  const inText = 'p[0-9]*000@example\\.test';
  await api.sql`update events set payload = regexp_replace(payload::text, ${inText}, ${ERASED_ADDRESS}, 'g')::jsonb where org_id = ${heavy.orgId} and payload::text ~ ${inText}`;
  await api.sql`update batch_items set data = regexp_replace(data, ${inText}, ${ERASED_ADDRESS}, 'g') where org_id = ${heavy.orgId} and data ~ ${inText}`;
  const [row] = await api.sql<{ count: number }[]>`select count(*)::int as count from prospects where org_id = ${heavy.orgId} and ${ERASED_ADDRESS} = any(emails)`;
  expect(row?.count).toBe(20);
}

async function bulkUpsertSettled(records: unknown[]): Promise<void> {
  const response = await heavy.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes: { records } } } });
  expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
  const batchId = response.body.data.id;
  await until(
    `bulk upsert batch ${batchId} to finish`,
    async () => {
      const { body } = await heavy.request('GET', `/api/v2/batches/${batchId}`);
      return body.data.attributes.state === 'pending' ? undefined : body.data.attributes;
    },
    180_000,
  );
}

describe('another org while one org works hard', () => {
  it('keeps answering during a 2 MB bulk upsert', async () => {
    const records = prospectRecords(1, 14_000);
    // Just under the 2 MB a bulk upsert may carry.
    expect(JSON.stringify({ data: { attributes: { records } } }).length).toBeGreaterThan(1.9 * 1024 * 1024);
    await guarded('bulkUpsert2MB', () => bulkUpsertSettled(records));
  }, 240_000);

  it('keeps answering during a compliance request in an org of 20,000 prospects with their events and items', async () => {
    await bulkUpsertSettled(prospectRecords(14_001, 6_000));
    await giveSomeProspectsTheErasedAddress();
    const [admin] = await api.sql<{ email: string }[]>`select email from users where org_id = ${heavy.orgId} and id = ${heavy.userId}`;
    const done = await guarded('complianceRequest', async () => {
      const created = await heavy.request('POST', '/api/v2/complianceRequests', {
        body: {
          data: {
            type: 'complianceRequest',
            attributes: { requester_email: admin!.email, request_type: 'Delete', object_type: 'Prospect', request_object_email: ERASED_ADDRESS },
          },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const batch = created.body.data.batch_compliance_request_id;
      return until(
        'the compliance request to be done',
        async () => {
          const { body } = await heavy.request('GET', `/api/v2/complianceRequests?filter[batchComplianceRequest]=${batch}`);
          return body.data[0]?.attributes.state === 'done' ? body.data[0].attributes : undefined;
        },
        240_000,
      );
    });
    expect(done.state).toBe('done');
    const [left] = await api.sql<{ count: number }[]>`select count(*)::int as count from prospects where org_id = ${heavy.orgId}`;
    expect(left?.count).toBe(20_000 - 20);
  }, 480_000);

  it('keeps answering while a 200,000-row file of malformed rows is validated', async () => {
    const csv = `Email,Name\n${'x\n'.repeat(200_000)}`;
    const upload = await guarded('malformedCsv200k', () => uploadAndValidate(api, heavy, csv));
    expect(upload.recordCount).toBe('200000');
  }, 240_000);

  it('keeps answering during a 30,000-row import', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => `imported${i}@example.test,Imported${i},Person${i}`);
    const csv = `Email,First Name,Last Name\n${rows.join('\n')}\n`;
    const ended = await guarded('import30k', async () => {
      const upload = await uploadAndValidate(api, heavy, csv);
      const started = await startImport(heavy, upload, { mappings: { Email: 'emails', 'First Name': 'firstName', 'Last Name': 'lastName' } });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      return importEnded(heavy, started.body.data.id, 240_000);
    });
    expect(ended).toMatchObject({ state: 'finished', total: 30_000, failures: 0 });
  }, 300_000);
});
