import type { Job } from 'graphile-worker';
import { pino } from 'pino';
import type postgres from 'postgres';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOrg } from '../../../runtime/admin/index.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import { STEP_RUNNER_TASK, wakeRunnerAt } from '../../../runtime/sequences/index.js';
import { orgScopedTransaction } from '../../../runtime/tenancy/index.js';
import { startWorker, type StartedWorker } from '../../../runtime/worker.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';
import { until } from '../../helpers/wait.js';

/**
 * The due-job alarm (runtime/jobs/due-alarm.ts): a step runner's job whose run-at is a moment
 * ahead when it is added starts at its instant, not when the worker's idle slots next poll.
 * The worker here polls every ten minutes. What else wakes its idle slots is a job's insert
 * NOTIFY: the mail sync's, which graphile-worker's cron adds at each minute. The job is made due
 * early in a minute, and given 30 s to start: without the alarm it would wait for the next
 * minute's tick at least.
 */

const POLL_INTERVAL_MS = 600_000;
const DUE_IN_MS = 1_500;
const START_WITHIN_MS = 30_000;
/** The job is added at most this far into a minute, so the next minute's tick is well after START_WITHIN_MS. */
const LATEST_INTO_MINUTE_MS = 15_000;

let database: TestDatabase;
let sql: postgres.Sql;
let worker: StartedWorker;
/** When each step runner job started, by this process's clock. */
const starts: number[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 2 });
  worker = await startWorker({
    databaseUrl: database.url,
    concurrency: 2,
    reservedConcurrency: 1,
    pollIntervalMs: POLL_INTERVAL_MS,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
  });
  for (const runner of worker.runners) {
    runner.events.on('job:start', ({ job }: { job: Job }) => {
      if (job.task_identifier === STEP_RUNNER_TASK) starts.push(Date.now());
    });
  }
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await sql?.end();
  await database?.drop();
});

it('starts a step runner job at its run-at, though the idle slots poll only every ten minutes', async () => {
  const { orgId } = await createOrg(sql, { name: 'Due alarm' });
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > LATEST_INTO_MINUTE_MS) await sleep(60_000 - intoMinute + 1_000);
  const dueAt = new Date(Date.now() + DUE_IN_MS);
  await orgScopedTransaction(sql, orgId, (tx) => wakeRunnerAt(tx, orgId, [dueAt]));
  await until('the step runner job to start', () => starts[0], START_WITHIN_MS);
  // graphile-worker never starts a job before its run-at, by the database's clock: the same
  // machine's here, so the start is at or after the instant (a millisecond's rounding aside).
  expect(starts[0]! - dueAt.getTime()).toBeGreaterThanOrEqual(-5);
  console.log(`a step runner job due in ${DUE_IN_MS} ms started ${starts[0]! - dueAt.getTime()} ms after its run-at (slots poll every ${POLL_INTERVAL_MS} ms)`);
}, 120_000);
