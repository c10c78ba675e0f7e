import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../../../runtime/admin/index.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import { orgScopedTransaction } from '../../../runtime/tenancy/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';
import { idleInTransaction } from '../../helpers/pool.js';

/**
 * A connection goes back to the pool only once its transaction has ended, whatever happened
 * inside it. A pool of one connection makes any leak show at once: the next transaction would
 * run inside the previous one, or wait for ever.
 */

let database: TestDatabase;
let sql: postgres.Sql;
let observer: postgres.Sql;
let orgId: number;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 1 });
  observer = connectDatabase(database.url, { max: 1 });
  orgId = (await createOrg(observer, { name: 'Tenancy' })).orgId;
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await observer?.end({ timeout: 5 });
  await database?.drop();
});

/** What the pool's connection is set to outside any org transaction. */
const connectionState = () =>
  sql<{ role: string; org: string | null; status: string }[]>`
    select current_user as role, nullif(current_setting('cadence.org_id', true), '') as org,
           (select state from pg_stat_activity where pid = pg_backend_pid()) as status`;

describe('orgScopedTransaction', () => {
  it('a read returns before COMMIT is answered, but its connection is reused only after it', async () => {
    for (let i = 0; i < 20; i++) {
      const [read] = await orgScopedTransaction(sql, orgId, (tx) => tx`select current_setting('cadence.org_id') as org`, { readOnly: true });
      expect(read!.org).toBe(String(orgId));
      const [after] = await connectionState();
      expect(after).toEqual({ role: 'postgres', org: null, status: 'active' });
    }
  });

  it('an error thrown by the work rolls back and frees the connection', async () => {
    for (let i = 0; i < 5; i++) {
      const failing = orgScopedTransaction(sql, orgId, async (tx) => {
        await tx`select 1`;
        throw new Error('the work failed');
      });
      await expect(failing).rejects.toThrow('the work failed');
    }
    expect((await connectionState())[0]).toMatchObject({ org: null });
    expect(await idleInTransaction(observer, 0)).toEqual([]);
  });

  it.each([
    ['an invalid Date', new Date('2026-12-31T23:59:60Z')],
    ['a leap second', '2026-12-31T23:59:60.5Z'],
    ['February 30', '2026-02-30T00:00:00Z'],
  ])('a timestamp parameter that cannot be represented (%s) fails its statement, rolls back and frees the connection', async (_, value) => {
    // Twice over the same statement: the second time postgres.js has it prepared.
    for (let i = 0; i < 3; i++) {
      const failing = orgScopedTransaction(sql, orgId, (tx) => tx`select ${value as string}::timestamptz as at`);
      await expect(failing).rejects.toMatchObject({ code: expect.stringMatching(/^22/) });
    }
    expect((await connectionState())[0]).toMatchObject({ org: null });
    expect(await idleInTransaction(observer, 0)).toEqual([]);
  });

  it('a statement PostgreSQL refuses rolls back the whole transaction', async () => {
    const failing = orgScopedTransaction(sql, orgId, async (tx) => {
      await tx`select set_config('cadence.marker', 'written', false)`;
      await tx`select 'not a date'::timestamptz`;
    });
    await expect(failing).rejects.toMatchObject({ code: '22007' });
    const [after] = await sql<{ marker: string | null }[]>`select nullif(current_setting('cadence.marker', true), '') as marker`;
    expect(after!.marker).toBeNull();
  });
});
