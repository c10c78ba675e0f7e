import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../runtime/db/client.js';
import { MIGRATION_LOCK_KEY } from '../../runtime/db/migrate.js';
import { startCadence } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { untilWaitingOn } from '../helpers/worker-processes.js';

/**
 * An operator's SIGTERM (or a supervisor's, or a deploy's) can arrive while `cadence serve` or
 * `cadence worker` is still starting. It must stop the process gracefully, with status 0, once
 * started, as a SIGTERM a minute later would: not end it halfway through its start with 143.
 *
 * The test holds the migration lock that every start takes first, so the signal lands at a known
 * point of the start: while the process waits for that lock.
 */

let database: TestDatabase;
let lockHolder: ReturnType<typeof connectDatabase>;
beforeAll(async () => {
  database = await createTestDatabase();
  lockHolder = connectDatabase(database.url, { max: 1 });
}, 60_000);
afterAll(async () => {
  await lockHolder?.end();
  await database?.drop();
});

describe.each<{ command: string; env: Record<string, string>; started: RegExp }>([
  { command: 'worker', env: {}, started: /"msg":"worker started"/ },
  { command: 'serve', env: { HOST: '127.0.0.1', PORT: '0', CADENCE_IN_PROCESS_WORKER: 'false' }, started: /"msg":"cadence is serving"/ },
])('cadence $command sent SIGTERM while it starts', { timeout: 120_000 }, ({ command, env, started }) => {
  it('finishes starting, stops gracefully and exits 0', async () => {
    // One connection: the backend that takes the lock is the one the start waits on.
    const [{ pid }] = await lockHolder<[{ pid: number }]>`select pg_backend_pid() as pid, pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    const process = startCadence(database.url, [command], env);
    try {
      await untilWaitingOn(lockHolder, pid, 'the start to wait for the migration lock', { queryLike: '%pg_advisory_lock%', timeoutMs: 90_000 });
      const stopped = process.stop();
      await lockHolder`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      const result = await stopped;
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(started);
    } finally {
      process.kill();
    }
  });
});
