import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOrg } from '../../../../runtime/admin/index.js';
import { connectDatabase } from '../../../../runtime/db/client.js';
import { HitBuffer } from '../../../../runtime/mail/tracking/index.js';
import { createTestDatabase, type TestDatabase } from '../../../helpers/database.js';
import { until } from '../../../helpers/wait.js';

/**
 * The API's buffer of opens and clicks on real PostgreSQL: hits go out on the buffer's own
 * timer, also after a flush that outlasted it (the table held locked by another transaction).
 */

let database: TestDatabase;
let sql: postgres.Sql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 3 });
}, 60_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.drop();
});

const stored = async (orgId: number) => (await sql<{ n: number }[]>`select count(*)::int as n from tracking_hits where org_id = ${orgId}`)[0]!.n;

it('appends every hit on its timer, also those held while a slow flush was under way', async () => {
  const { orgId } = await createOrg(sql, { name: 'Buffer' });
  const buffer = new HitBuffer({ sql, log: pino({ level: 'silent' }), flushIntervalMs: 1 });
  const hit = (mailingId: number) => buffer.add({ orgId, mailingId, kind: 'open', at: new Date() });
  const blocker = await sql.reserve();
  try {
    await blocker`begin`;
    await blocker`lock table tracking_hits in access exclusive mode`;
    hit(1);
    await until('the first flush to wait for the lock', async () => {
      const waiting = await sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%append_tracking_hits%'`;
      return waiting.length > 0 ? true : undefined;
    });
    // Its timer fires while the first flush still waits; the flush under way takes it.
    hit(2);
    await sleep(50);
    await blocker`commit`;
  } finally {
    blocker.release();
  }
  await until('the first two hits to be appended', async () => ((await stored(orgId)) === 2 ? true : undefined));
  // A hit after that flush needs a timer of its own.
  hit(3);
  await until('the third hit to be appended, with no flush by hand', async () => ((await stored(orgId)) === 3 ? true : undefined));
  expect(buffer.holding()).toBe(0);
});
