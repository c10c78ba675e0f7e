import { expect, inject, it } from 'vitest';
import { connectDatabase } from '../../runtime/db/client.js';
import { createTestDatabase } from './database.js';

async function databaseExists(name: string): Promise<boolean> {
  const admin = connectDatabase(inject('databaseAdminUrl'), { max: 1 });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${name}`;
    return rows.length === 1;
  } finally {
    await admin.end();
  }
}

it('clones migrated databases side by side and drops them', async () => {
  const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  expect(first.url).not.toBe(second.url);
  const name = new URL(first.url).pathname.slice(1);
  expect(name).toMatch(/^cadence_test_[0-9a-f]+_[0-9a-f]+$/);

  const sql = connectDatabase(first.url, { max: 1 });
  try {
    const [migrated] = await sql`
      select to_regclass('drizzle.__drizzle_migrations') is not null as drizzle,
             to_regclass('graphile_worker.migrations') is not null as worker`;
    expect(migrated).toEqual({ drizzle: true, worker: true });
  } finally {
    await sql.end();
  }

  // drop() must also work while someone is still connected.
  const lingering = connectDatabase(second.url, { max: 1 });
  await lingering`select 1`;
  await Promise.all([first.drop(), second.drop()]);
  await lingering.end().catch(() => {});
  expect(await databaseExists(name)).toBe(false);
  expect(await databaseExists(new URL(second.url).pathname.slice(1))).toBe(false);
});
