import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg } from '../helpers/bulk-actions.js';
import { importEnded, startImport, uploadAndValidate } from '../helpers/imports.js';
import { duringWork, prospectsPageProbe, type Latency } from '../helpers/latency.js';

/**
 * Issue #25: one org's large CSV file does not stall the other orgs' requests while it is
 * imported (its validation, a 2 MB bulk upsert and a 30,000-row import are in the event-loop-lag
 * guard, isolation-lag.test.ts).
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

function report(what: string, elapsedMs: number, latency: Latency): void {
  console.log(
    `${what}: ${elapsedMs} ms; the other org's worst wait ${latency.worstWaitMs} ms over ${latency.samples} requests; event loop max ${latency.loopMaxMs} ms, p99 ${latency.loopP99Ms} ms`,
  );
}

/** The file: a header, then 200,000 lines that are each a malformed row (one field of two). */
const MALFORMED_ROWS = 200_000;
const malformedFile = `Email,Name\n${'x\n'.repeat(MALFORMED_ROWS)}`;

describe('a CSV file of 200,000 malformed rows', () => {
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
      const { result, latency } = await duringWork(
        async () => {
          const begun = await startImport(org, upload, { mappings: { Email: 'emails', Name: 'firstName' } });
          expect(begun.status, JSON.stringify(begun.body)).toBe(200);
          return { id: begun.body.data.id as string, attributes: await importEnded(org, begun.body.data.id, 600_000) };
        },
        prospectsPageProbe(api.baseUrl, other.token),
      );
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
