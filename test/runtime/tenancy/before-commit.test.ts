import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../../../runtime/admin/index.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import { enqueueJobs } from '../../../runtime/jobs/enqueue.js';
import { orgScopedTransaction, withoutDeferral } from '../../../runtime/tenancy/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

/**
 * Keyed jobs are added at the end of an org-scoped transaction (runtime/tenancy/before-commit.ts):
 * a job row is not locked from the middle of a set to its end. What a client of the queue sees
 * is the same as adding them where they arose: after COMMIT the keyed job is there, as the
 * last enqueue of its key left it, and a transaction that fails leaves none.
 */

let database: TestDatabase;
let sql: postgres.Sql;
let observer: postgres.Sql;
let orgId: number;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 2 });
  observer = connectDatabase(database.url, { max: 1 });
  orgId = (await createOrg(observer, { name: 'Before commit' })).orgId;
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await observer?.end({ timeout: 5 });
  await database?.drop();
});

const jobsKeyed = (key: string) => observer<{ payload: unknown; run_at: Date }[]>`select payload, run_at from graphile_worker._private_jobs where key = ${key}`;

describe('keyed jobs in an org-scoped transaction', () => {
  it('are added at its end, merged as one enqueue after another would leave them: another transaction adding the key meanwhile does not wait', async () => {
    const key = `test_batch:${orgId}`;
    const runAt = new Date(Date.now() + 3_600_000);
    await orgScopedTransaction(sql, orgId, async (tx) => {
      await enqueueJobs(tx, [{ task: 'test_batch', payload: [{ n: 1 }], jobKey: key, runAt }]);
      await enqueueJobs(tx, [
        { task: 'test_batch', payload: [{ n: 2 }], jobKey: key, runAt },
        { task: 'test_plain', payload: { n: 3 } },
      ]);
      // Had the key's row been added here, this would wait for the commit (and time out).
      await observer.begin(async (other) => {
        await other`set local lock_timeout = '2s'`;
        await other`select graphile_worker.add_job('test_batch', '[{"n":0}]'::json, run_at := ${runAt}, job_key := ${key})`;
      });
    });
    const [job] = await jobsKeyed(key);
    expect(job!.payload).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(job!.run_at.getTime()).toBe(runAt.getTime());
  });

  it('are not added when the transaction fails', async () => {
    const key = `test_failed:${orgId}`;
    await expect(
      orgScopedTransaction(sql, orgId, async (tx) => {
        await enqueueJobs(tx, [{ task: 'test_failed', payload: {}, jobKey: key }]);
        throw new Error('the set failed');
      }),
    ).rejects.toThrow('the set failed');
    expect(await jobsKeyed(key)).toEqual([]);
  });

  it('under a savepoint are added at once, so that rolling back to it takes them back', async () => {
    const key = `test_savepoint:${orgId}`;
    await orgScopedTransaction(sql, orgId, async (tx) => {
      await tx.unsafe('savepoint attempt');
      await withoutDeferral(tx, () => enqueueJobs(tx, [{ task: 'test_savepoint', payload: {}, jobKey: key }]));
      await tx.unsafe('rollback to savepoint attempt');
    });
    expect(await jobsKeyed(key)).toEqual([]);
  });

  it('outside an org-scoped transaction are added at once', async () => {
    const key = `test_direct:${orgId}`;
    await sql.begin(async (tx) => {
      await enqueueJobs(tx, [{ task: 'test_direct', payload: {}, jobKey: key }]);
      const [row] = await tx<{ n: number }[]>`select count(*)::int as n from graphile_worker._private_jobs where key = ${key}`;
      expect(row!.n).toBe(1);
    });
  });
});
