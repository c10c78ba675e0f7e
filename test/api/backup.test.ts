import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../runtime/db/client.js';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runCadence } from '../helpers/cli.js';
import { createEmptyTestDatabase, type TestDatabase } from '../helpers/database.js';
import { listDocuments, listPaths, populateOrg, tableCounts, type PopulatedOrg } from '../helpers/populated-org.js';
import { MINUTE, pendingSteps, releaseDueSteps, SimulatedClock, startClockedWorker, stepsSettled } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * `cadence backup` and `cadence restore` (issue #29, item 2): a populated deployment is backed
 * up, wiped and restored into an empty database; the API answers the same documents to the old
 * token, the jobs still due are there, and the pending sequence step runs once.
 */

let source: TestApi | undefined;
let restored: TestApi | undefined;
let target: TestDatabase | undefined;
let worker: StartedWorker | undefined;
let populated: PopulatedOrg;
let folder: string;

// Each CLI run starts a Node process with tsx, several seconds on a busy machine.

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cadence-backup-'));
  source = await startTestApi();
  populated = await populateOrg(source);
});

afterAll(async () => {
  await worker?.stop();
  await restored?.close();
  if (!restored) await target?.drop();
  await source?.close();
  await rm(folder, { recursive: true, force: true });
});

/** The jobs of the job queue, as they would run: task, payload, key, due time and attempts. */
async function queuedJobs(sql: postgres.Sql) {
  return sql`
    select t.identifier, j.payload::text, j.key, j.priority, j.run_at, j.attempts, j.max_attempts, j.flags, q.queue_name
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      left join graphile_worker._private_job_queues q on q.id = j.job_queue_id
     order by j.id`;
}

async function withConnection<T>(url: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = connectDatabase(url, { max: 1 });
  try {
    return await work(sql);
  } finally {
    await sql.end();
  }
}

describe('backup and restore', () => {
  it('brings back every record, setting, token and job still due, and the pending step runs once', async () => {
    const api = source!;
    const token = api.org.token;
    const paths = listPaths(populated.customObject);
    const documents = await listDocuments(api, token, paths);
    const counts = await tableCounts(api.sql);
    const jobs = await queuedJobs(api.sql);
    const settings = await api.sql`select * from cadence_system.settings order by name`;
    expect(jobs.map((j) => j.identifier)).toEqual(expect.arrayContaining(['deliver_webhook', 'sequence_step_runner']));
    expect((await pendingSteps(api)).has(populated.stateId)).toBe(true);

    const file = join(folder, 'deployment.cadence-backup.gz');
    const backup = await runCadence(api.databaseUrl, ['backup', '--out', file]);
    expect(backup.code, backup.stderr).toBe(0);
    const summary = JSON.parse(backup.stdout);
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    // Everything but graphile-worker's migration ledger (drizzle's is in another schema): the restore's migrations write it.
    expect(summary).toMatchObject({ out: file, rows: total - counts['graphile_worker.migrations']! });

    // Wiped: the database is dropped.
    await api.close();
    source = undefined;

    target = await createEmptyTestDatabase();
    const restore = await runCadence(target.url, ['restore', '--in', file]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ rows: summary.rows, tables: summary.tables, schema: summary.schema });
    await withConnection(target.url, async (sql) => {
      expect(await tableCounts(sql)).toEqual(counts);
      expect(await queuedJobs(sql)).toEqual(jobs);
      expect(await sql`select * from cadence_system.settings order by name`).toEqual(settings);
    });
    console.log(`backup round trip: ${summary.tables} tables, ${summary.rows} rows`, JSON.stringify(Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))));

    // Into a database that is no longer empty, a restore is refused.
    const again = await runCadence(target.url, ['restore', '--in', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^cadence: the database is not empty \(\d+ tables, views or sequences\); restore into a new, empty database\n/);

    restored = await startTestApi({ database: target });
    expect(await listDocuments(restored, token, paths)).toEqual(documents);

    // The call step was due an hour after enrolment; two hours on, a worker runs it, once.
    const clock = new SimulatedClock(Date.now() + 120 * MINUTE);
    worker = await startClockedWorker(restored, clock);
    expect(await releaseDueSteps(restored, clock)).toBeGreaterThan(0);
    const tasksOfState = async () => (await restored!.request('GET', `/api/v2/tasks?filter[sequenceState][id]=${populated.stateId}`, { token })).body.data;
    await until('the pending call step to make its task', async () => ((await tasksOfState()).length > 0 ? true : undefined));
    await stepsSettled(restored);
    const tasks = await tasksOfState();
    expect(tasks.map((t: any) => [t.attributes.taskType, t.relationships.sequenceStep.data.id])).toEqual([['sequence_step_call', populated.callStep]]);
    expect((await pendingSteps(restored)).has(populated.stateId)).toBe(false);
  }, 300_000);

  it('refuses a missing file, a path it cannot write and a missing option, with a clear message', async () => {
    const empty = await createEmptyTestDatabase();
    try {
      const missing = await runCadence(empty.url, ['restore', '--in', join(folder, 'nothing-here.gz')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/^cadence: cannot read .*nothing-here\.gz: ENOENT/);
      const unwritable = await runCadence(empty.url, ['backup', '--out', join(folder, 'no-such-folder', 'backup.gz')]);
      expect(unwritable.code).toBe(2);
      expect(unwritable.stderr).toMatch(/^cadence: cannot write .*no-such-folder\/backup\.gz: ENOENT/);
      const usage = await runCadence(empty.url, ['restore']);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toBe('cadence: --in is required (run cadence restore --help)\n');
    } finally {
      await empty.drop();
    }
  }, 120_000);
});
