// Migrating a database that is already up to date is what every `cadence` command and every
// server start does, under whatever traffic is flowing: it must not wait for, or block, writers.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { connectDatabase } from '../../../runtime/db/client.js';
import { MIGRATIONS_DIR, runMigrations } from '../../../runtime/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

let database: TestDatabase;
let sql: postgres.Sql;
let folder: string | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 4 });
});
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.drop();
});
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

/** Rejects when `work` takes longer than `ms`: a statement waiting for a lock waits forever. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `work` while another session holds EXCLUSIVE locks on every table Cadence, drizzle and
 * graphile-worker own. EXCLUSIVE lets plain reads through and nothing else, so `work` finishes
 * only if it takes no lock stronger than a read.
 */
async function whileOnlyReadsMayPass<T>(work: () => Promise<T>): Promise<T> {
  const tables = await sql<{ name: string }[]>`
    select format('%I.%I', n.nspname, c.relname) as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname in ('public', 'cadence_system', 'drizzle', 'graphile_worker')`;
  expect(tables.length).toBeGreaterThan(30);
  const holder = await sql.reserve();
  try {
    await holder`begin`;
    await holder.unsafe(`lock table ${tables.map((t) => t.name).join(', ')} in exclusive mode`);
    return await within(15_000, 'work beside the locks', work());
  } finally {
    await holder`rollback`;
    holder.release();
  }
}

it('an up-to-date database migrates taking no lock stronger than a read', async () => {
  await whileOnlyReadsMayPass(() => runMigrations(database.url, MIGRATIONS_DIR));
}, 30_000);

it('securing tenant tables that are already secure changes nothing and takes no lock', async () => {
  await whileOnlyReadsMayPass(() => sql`select cadence_system.secure_tenant_tables()`);
}, 30_000);

it('a migration that adds a tenant table gets it row-level security', async () => {
  // A resource added later arrives as a drizzle-kit migration that says nothing about security.
  folder = await mkdtemp(join(tmpdir(), 'cadence-migrations-'));
  await cp(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = join(folder, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8'));
  const last = journal.entries.at(-1);
  const tag = `${String(last.idx + 1).padStart(4, '0')}_gizmos`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  await writeFile(journalFile, JSON.stringify(journal));
  await writeFile(
    join(folder, `${tag}.sql`),
    'CREATE TABLE "gizmos" ("org_id" bigint NOT NULL, "id" bigint NOT NULL, CONSTRAINT "gizmos_pkey" PRIMARY KEY("org_id","id"));',
  );

  await runMigrations(database.url, folder);

  const [table] = await sql`
    select relrowsecurity, relforcerowsecurity,
           has_table_privilege('cadence_app', oid, 'SELECT') and has_table_privilege('cadence_app', oid, 'INSERT')
       and has_table_privilege('cadence_app', oid, 'UPDATE') and has_table_privilege('cadence_app', oid, 'DELETE') as granted
      from pg_class where oid = 'public.gizmos'::regclass`;
  expect(table).toEqual({ relrowsecurity: true, relforcerowsecurity: true, granted: true });
  const policies = await sql`select policyname from pg_policies where schemaname = 'public' and tablename = 'gizmos'`;
  expect(policies).toEqual([{ policyname: 'tenant_isolation' }]);
}, 60_000);
