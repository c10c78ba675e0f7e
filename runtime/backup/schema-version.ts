// Which migrations a database has, named so that another copy of Cadence can rebuild the same schema.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { AdminError } from '../operator/index.js';
import { expectedMigrations } from '../db/migration-status.js';

/** A database's schema: the newest Cadence migration applied (its tag) and graphile-worker's migration number. */
export interface SchemaVersion {
  readonly cadence: string;
  readonly worker: number;
}

/**
 * The schema of the database `sql` reaches, by the tags of `migrationsFolder`'s journal (this
 * copy of Cadence). A database migrated by a newer Cadence has a migration this one cannot name.
 */
export async function schemaVersion(sql: postgres.Sql | postgres.TransactionSql, migrationsFolder: string): Promise<SchemaVersion> {
  const [tables] = await sql<{ drizzle: boolean; worker: boolean }[]>`
    select to_regclass('drizzle.__drizzle_migrations') is not null as drizzle,
           to_regclass('graphile_worker.migrations') is not null as worker`;
  if (!tables!.drizzle || !tables!.worker) throw new AdminError('the database has no Cadence schema (run cadence migrate, or name the right DATABASE_URL)');
  const [cadence] = await sql<{ newest: string }[]>`select max(created_at)::text as newest from drizzle.__drizzle_migrations`;
  const [worker] = await sql<{ newest: number }[]>`select max(id)::int as newest from graphile_worker.migrations`;
  const entry = expectedMigrations(migrationsFolder).cadence.find((m) => String(m.when) === cadence!.newest);
  if (!entry) throw new AdminError('the database was migrated by a newer Cadence than this one; use that version');
  return { cadence: entry.tag, worker: worker!.newest };
}

/**
 * Checks that this copy of Cadence can rebuild `wanted`: it ships that Cadence migration and
 * the same graphile-worker schema (whose tables a restore copies as they are).
 */
export function requireBuildable(wanted: SchemaVersion, migrationsFolder: string): void {
  const expected = expectedMigrations(migrationsFolder);
  if (!expected.cadence.some((m) => m.tag === wanted.cadence)) {
    throw new AdminError(`the file's schema (migration ${wanted.cadence}) is newer than this Cadence knows; use the Cadence that wrote it or a later one`);
  }
  if (wanted.worker !== expected.worker) {
    throw new AdminError(
      `the file's job queue schema is graphile-worker migration ${wanted.worker}, this Cadence's is ${expected.worker}; use the Cadence version that wrote it (its manifest names it)`,
    );
  }
}

/**
 * A copy of `migrationsFolder` whose journal ends at `tag`, so that drizzle applies the
 * migrations up to it and no further; removed by `dispose`.
 */
export async function migrationsUpTo(migrationsFolder: string, tag: string): Promise<{ folder: string; dispose: () => Promise<void> }> {
  const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  if (end < 0) throw new AdminError(`this Cadence has no migration ${tag}`);
  const folder = await mkdtemp(join(tmpdir(), 'cadence-migrations-'));
  const entries = journal.entries.slice(0, end + 1);
  await mkdir(join(folder, 'meta'));
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) await copyFile(join(migrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return { folder, dispose: () => rm(folder, { recursive: true, force: true }) };
}
