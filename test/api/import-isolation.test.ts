import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../runtime/jobs/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg, type OrgClient } from '../helpers/bulk-actions.js';
import { generateUploadLink, importEnded, sha512, startImport, uploadAndValidate } from '../helpers/imports.js';
import { duringWork, type Latency } from '../helpers/latency.js';

/**
 * Issue #25: one org's large CSV file or bulk upsert does not stall the other orgs' requests.
 * The API runs in the test's process, so any stretch of work that holds its event loop delays
 * the other org's requests, which are sent every 100 ms while the work runs; each waits less
 * than two seconds (a loop held for longer is what the issue reported: 18 to 67 s), and none
 * fails. The measurements are printed for the record.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

/** A request of another org, as a probe: a page of its prospects. */
function otherOrgsPage(other: OrgClient) {
  return async () => {
    const response = await fetch(`${api.baseUrl}/api/v2/prospects?page[size]=5`, { headers: { authorization: `Bearer ${other.token}` } });
    await response.text();
    return response.status === 200 ? undefined : `GET /api/v2/prospects answered ${response.status}`;
  };
}

function report(what: string, elapsedMs: number, latency: Latency): void {
  console.log(
    `${what}: ${elapsedMs} ms; the other org's worst wait ${latency.worstWaitMs} ms over ${latency.samples} requests; event loop max ${latency.loopMaxMs} ms, p99 ${latency.loopP99Ms} ms`,
  );
}

async function uploaded(org: OrgClient, csv: string): Promise<string> {
  const { uploadUrl, storageKey, uploadHeaders } = await generateUploadLink(api, org);
  const at = new URL(uploadUrl);
  const response = await fetch(`${api.baseUrl}${at.pathname}${at.search}`, { method: 'PUT', headers: uploadHeaders, body: csv });
  expect(response.status).toBe(200);
  return storageKey;
}

/** The file: a header, then 200,000 lines that are each a malformed row (one field of two). */
const MALFORMED_ROWS = 200_000;
const malformedFile = `Email,Name\n${'x\n'.repeat(MALFORMED_ROWS)}`;

describe('a CSV file of 200,000 malformed rows', () => {
  it('is validated (every row counted) while another org’s requests keep being answered', async () => {
    const org = await freshOrg(api, 'Uploading org');
    const other = await freshOrg(api, 'Other org');
    const storageKey = await uploaded(org, malformedFile);
    const started = performance.now();
    const { result, latency } = await duringWork(async () => {
      const url = `${api.baseUrl}/api/v2/imports/actions/validateUpload?actionParams[storageKey]=${storageKey}&actionParams[hash]=${sha512(malformedFile)}`;
      const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${org.token}` } });
      return { status: response.status, body: await response.json() };
    }, otherOrgsPage(other));
    report('validateUpload of 200,000 malformed rows', Math.round(performance.now() - started), latency);
    expect(result).toEqual({
      status: 200,
      body: {
        data: {
          type: 'validateUpload',
          attributes: {
            headerValue: [
              { header: 'Email', value: '' },
              { header: 'Name', value: '' },
            ],
            recordCount: String(MALFORMED_ROWS),
          },
        },
      },
    });
    expect(latency.failures).toEqual([]);
    expect(latency.worstWaitMs).toBeLessThan(2000);
  });

  it('is imported, each row a failure naming its line, while another org’s requests keep being answered', async () => {
    const org = await freshOrg(api, 'Importing org');
    const other = await freshOrg(api, 'Other org');
    const upload = await uploadAndValidate(api, org, malformedFile);
    expect(upload.recordCount).toBe(String(MALFORMED_ROWS));
    const worker = await startWorker({
      databaseUrl: api.databaseUrl,
      concurrency: 2,
      log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    });
    try {
      const started = performance.now();
      const { result, latency } = await duringWork(async () => {
        const begun = await startImport(org, upload, { mappings: { Email: 'emails', Name: 'firstName' } });
        expect(begun.status, JSON.stringify(begun.body)).toBe(200);
        return { id: begun.body.data.id as string, attributes: await importEnded(org, begun.body.data.id, 600_000) };
      }, otherOrgsPage(other));
      report('import of 200,000 malformed rows', Math.round(performance.now() - started), latency);
      expect(result.attributes).toMatchObject({ state: 'finished', total: MALFORMED_ROWS, failures: MALFORMED_ROWS, dupes: 0 });
      const batches = await org.request('GET', `/api/v2/batches?filter[contextId]=${result.id}`);
      const lastItems = await org.request('GET', `/api/v2/batchItems?filter[batch][id]=${batches.body.data[0].id}&sort=-id&page[size]=1`);
      expect(lastItems.body.data[0].attributes).toMatchObject({
        state: 'error',
        data: JSON.stringify({ line: MALFORMED_ROWS + 1 }),
        errors: [{ id: 'invalidRow', detail: `Line ${MALFORMED_ROWS + 1}: The row has 1 field; the header row has 2` }],
      });
      expect(latency.failures).toEqual([]);
      expect(latency.worstWaitMs).toBeLessThan(2000);
    } finally {
      await worker.stop();
    }
  }, 660_000);
});

describe('a 2 MB bulk upsert', () => {
  it('is answered while another org’s requests keep being answered', async () => {
    const org = await freshOrg(api, 'Upserting org');
    const other = await freshOrg(api, 'Other org');
    const records = Array.from({ length: 14_000 }, (_, i) => ({
      data: { type: 'prospect', attributes: { firstName: `First${i}`, lastName: `Last${i}`, emails: [`person${i}@example.com`], title: 'Head of ops' } },
    }));
    const body = JSON.stringify({ data: { attributes: { dupeMethod: 'skip', records } } });
    // Just under the 2 MiB limit of a bulk upsert body (UPSERT_BODY_LIMIT).
    expect(body.length).toBeGreaterThan(2_000_000);
    expect(body.length).toBeLessThan(2 * 1024 * 1024);
    const started = performance.now();
    const { result, latency } = await duringWork(async () => {
      const response = await fetch(`${api.baseUrl}/api/v2/imports/actions/bulkUpsert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/vnd.api+json' },
        body,
      });
      return { status: response.status, body: await response.json() };
    }, otherOrgsPage(other));
    report('bulk upsert of 14,000 records (2 MB)', Math.round(performance.now() - started), latency);
    expect(result.status, JSON.stringify(result.body).slice(0, 500)).toBe(200);
    expect(result.body.data.attributes).toMatchObject({ state: 'pending', total: 14_000, pending: 14_000, failures: 0 });
    expect(latency.failures).toEqual([]);
    expect(latency.worstWaitMs).toBeLessThan(2000);
  }, 120_000);
});
