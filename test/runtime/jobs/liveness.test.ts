import { pino } from 'pino';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../../runtime/db/client.js';
import { releaseJobsOfDeadWorkers, startLiveness } from '../../../runtime/jobs/liveness.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';
import { until } from '../../helpers/wait.js';

/**
 * The sweep that releases the jobs of dead workers, on real graphile-worker tables: which
 * locks it releases and which it must leave alone. Locks and heartbeats are written directly,
 * with times relative to the database's clock, which is the one the sweep reads.
 */

const STALE_AFTER_MS = 30_000;

let database: TestDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 2 });
});
afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

/** A job locked by `lockedBy` (null: not locked) `lockedSecondsAgo` seconds ago; returns its id. */
async function job(key: string, lockedBy: string | null, lockedSecondsAgo = 0): Promise<number> {
  const [added] = await sql<{ id: number }[]>`select id from graphile_worker.add_job('deliver_webhook', '{}'::json, job_key => ${key})`;
  if (lockedBy) {
    await sql`update graphile_worker._private_jobs set attempts = 1, locked_by = ${lockedBy},
                     locked_at = now() - ${lockedSecondsAgo}::int * interval '1 second' where id = ${added!.id}`;
  }
  return added!.id;
}

async function heartbeat(workerId: string, secondsAgo: number): Promise<void> {
  await sql`insert into cadence_system.worker_heartbeats (worker_id, hostname, pid, seen_at)
            values (${workerId}, 'test', 1, now() - ${secondsAgo}::int * interval '1 second')`;
}

describe('releaseJobsOfDeadWorkers', () => {
  it('releases the locks of workers without a fresh heartbeat, and no others', async () => {
    await heartbeat('pool-alive', 5);
    await heartbeat('pool-dead', 60);
    const cases = [
      { key: 'alive, running for an hour', lockedBy: 'pool-alive', ago: 3600, released: false },
      { key: 'heartbeat a minute old', lockedBy: 'pool-dead', ago: 60, released: true },
      { key: 'never heartbeated, locked a minute ago', lockedBy: 'pool-old', ago: 60, released: true },
      { key: 'no heartbeat yet, locked just now', lockedBy: 'pool-new', ago: 1, released: false },
      { key: 'not locked', lockedBy: null, ago: 0, released: false },
    ];
    const ids = new Map<string, number>();
    for (const c of cases) ids.set(c.key, await job(c.key, c.lockedBy, c.ago));

    const released = await releaseJobsOfDeadWorkers(sql, STALE_AFTER_MS);

    expect(released.sort()).toEqual(['pool-dead', 'pool-old']);
    const jobs = await sql<{ key: string; locked_by: string | null; locked_at: Date | null }[]>`select key, locked_by, locked_at from graphile_worker.jobs`;
    const state = Object.fromEntries(jobs.map((j) => [j.key, j.locked_by]));
    expect(state).toEqual(Object.fromEntries(cases.map((c) => [c.key, c.released ? null : c.lockedBy])));
    expect(jobs.filter((j) => j.locked_by === null).every((j) => j.locked_at === null)).toBe(true);
    // The dead worker is forgotten; the live one stays.
    const workers = await sql`select worker_id from cadence_system.worker_heartbeats order by worker_id`;
    expect(workers.map((w) => w.worker_id)).toEqual(['pool-alive']);
    // Nothing left to release: a second sweep changes nothing.
    expect(await releaseJobsOfDeadWorkers(sql, STALE_AFTER_MS)).toEqual([]);
  });
});

describe('startLiveness', () => {
  it('records a heartbeat for each pool of the process at once and then every interval; stopping removes the rows', async () => {
    const seen = async () => sql<{ worker_id: string; seen_at: Date; pid: number }[]>`
      select worker_id, seen_at, pid from cadence_system.worker_heartbeats where worker_id in ('pool-beating', 'pool-reserved') order by worker_id`;
    const liveness = startLiveness(sql, ['pool-beating', 'pool-reserved'], { heartbeatMs: 100, staleAfterMs: 1000 }, pino({ level: 'silent' }));
    const first = await until('the first heartbeats', async () => ((await seen()).length === 2 ? seen() : undefined));
    expect(first.map((r) => [r.worker_id, r.pid])).toEqual([
      ['pool-beating', process.pid],
      ['pool-reserved', process.pid],
    ]);
    await until('later heartbeats', async () => ((await seen()).every((r, i) => r.seen_at > first[i]!.seen_at) ? true : undefined));
    await liveness.stop();
    expect(await seen()).toEqual([]);
  });
});
