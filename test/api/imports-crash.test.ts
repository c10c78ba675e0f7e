import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg } from '../helpers/bulk-actions.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';
import { importEnded, importItems, startImport, uploadAndValidate } from '../helpers/imports.js';
import { until } from '../helpers/wait.js';
import { WorkerProcesses } from '../helpers/worker-processes.js';

/**
 * CSV imports run by real `cadence` processes. A worker SIGKILLed in the middle of an import
 * loses the segment it was writing; another worker resumes after the rows stored as items, and
 * every row is applied exactly once. A file uploaded through one API process is imported by
 * the worker of another: the file is in PostgreSQL, not on a process's disk.
 */

const ROWS = 30_000;

let api: TestApi;
const workers = new WorkerProcesses(() => api.databaseUrl);
const processes: RunningCadence[] = [];

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  workers.killAll();
  for (const p of processes) p.kill();
  await api?.close();
});

function csvOf(rows: number): string {
  const lines = ['First Name,Last Name,Email'];
  for (let i = 1; i <= rows; i++) lines.push(`Person,"Number ${i}",person${i}@crash.test`);
  return `${lines.join('\n')}\n`;
}

it('a worker SIGKILLed mid-import: another resumes, and every row is applied exactly once', async () => {
  const org = await freshOrg(api, 'Import crash org');
  const upload = await uploadAndValidate(api, org, csvOf(ROWS));
  expect(upload.recordCount).toBe(String(ROWS));
  const first = await workers.start();
  const started = await startImport(org, upload, { mappings: { 'First Name': 'firstName', 'Last Name': 'lastName', Email: 'emails' } });
  expect(started.status).toBe(200);
  const importId: string = started.body.data.id;

  // Killed once some segments have committed and while it holds the import's job.
  const doneAtKill = await until(
    'the first worker part-way through the import',
    async () => {
      const [batch] = await api.sql<{ done: number }[]>`
          select total - pending as done from batches where org_id = ${org.orgId} and context_id = ${importId}`;
      return batch && batch.done >= 3000 && batch.done < ROWS ? batch.done : undefined;
    },
    120_000,
  );
  await workers.kill(first);
  const second = await workers.start();

  const attributes = await importEnded(org, importId, 300_000);
  expect(attributes).toMatchObject({ state: 'finished', total: ROWS, dupes: 0, failures: 0 });
  expect(doneAtKill).toBeLessThan(ROWS);

  const [counts] = await api.sql<{ prospects: number; emails: number; created: number; items: number; distinctItems: number }[]>`
      select (select count(*)::int from prospects where org_id = ${org.orgId}) as prospects,
             (select count(distinct emails[1])::int from prospects where org_id = ${org.orgId}) as emails,
             (select count(*)::int from events where org_id = ${org.orgId} and name = 'prospect_created') as created,
             (select count(*)::int from batch_items i join batches b on b.org_id = i.org_id and b.id = i.batch_id
               where b.org_id = ${org.orgId} and b.context_id = ${importId}) as items,
             (select count(distinct i.item_id)::int from batch_items i join batches b on b.org_id = i.org_id and b.id = i.batch_id
               where b.org_id = ${org.orgId} and b.context_id = ${importId}) as "distinctItems"`;
  expect(counts).toEqual({ prospects: ROWS, emails: ROWS, created: ROWS, items: ROWS, distinctItems: ROWS });
  const finishedEvents = await api.sql`select 1 from events where org_id = ${org.orgId} and name = 'import_finished'`;
  expect(finishedEvents).toHaveLength(1);
  expect((await second.process.stop()).code).toBe(0);
}, 600_000);

it('a file uploaded to one API process is imported through another, by its worker', async () => {
  const org = await freshOrg(api, 'Two processes org');
  // No worker process runs now: the job can only be taken by the worker this server supervises.
  const server = startCadence(api.databaseUrl, ['serve'], { PORT: '0', LOG_LEVEL: 'info', CADENCE_IN_PROCESS_WORKER: 'true' });
  processes.push(server);
  const otherUrl = JSON.parse(await server.waitForLine(/cadence is serving/)).url as string;

  const upload = await uploadAndValidate(api, org, 'Email,First Name\nuploaded@two.test,Twice\n', otherUrl);
  const response = await fetch(`${otherUrl}/api/v2/imports/actions/prospectsImport`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'import', attributes: { ...upload, mappings: { Email: 'emails', 'First Name': 'firstName' } } } }),
  });
  expect(response.status).toBe(200);
  const importId = (await response.json()).data.id as string;
  expect(await importEnded(org, importId, 120_000)).toMatchObject({ state: 'finished', total: 1, failures: 0 });
  const [item] = await importItems(org, importId);
  const prospect = await org.request('GET', `/api/v2/prospects/${item.itemId}`);
  expect(prospect.body.data.attributes).toMatchObject({ firstName: 'Twice', emails: ['uploaded@two.test'] });
  expect((await server.stop()).code).toBe(0);
}, 180_000);
