// Which migrations a database still lacks, found with reads only: every start asks, and the
// answer is almost always "none", so asking must never wait for or block live writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// graphile-worker applies exactly these files in runMigrations and exports no other list of them.
import { migrations as workerMigrationFiles } from 'graphile-worker/dist/generated/sql.js';
import type postgres from 'postgres';

export interface ExpectedMigrations {
  /** Cadence's migrations from the folder's meta/_journal.json, oldest first. */
  readonly cadence: readonly { readonly tag: string; readonly when: number }[];
  /** The highest graphile-worker migration number the installed package brings. */
  readonly worker: number;
}

export interface MigrationStatus {
  /** Tags of Cadence migrations the database has not applied. */
  readonly pendingCadence: readonly string[];
  /** Whether graphile-worker's schema is at least at the installed package's version. */
  readonly workerCurrent: boolean;
}

/** Reads the journal drizzle-kit keeps next to the migrations in `migrationsFolder`. */
export function expectedMigrations(migrationsFolder: string): ExpectedMigrations {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return {
    cadence: journal.entries.map(({ tag, when }) => ({ tag, when })),
    worker: Math.max(...Object.keys(workerMigrationFiles).map((file) => parseInt(file, 10))),
  };
}

export async function migrationStatus(sql: postgres.Sql, expected: ExpectedMigrations): Promise<MigrationStatus> {
  const [tables] = await sql<{ drizzle: boolean; worker: boolean }[]>`
    select to_regclass('drizzle.__drizzle_migrations') is not null as drizzle,
           to_regclass('graphile_worker.migrations') is not null as worker`;
  // drizzle's own rule: a migration counts as applied when the newest recorded one is not older.
  const [cadence] = tables!.drizzle ? await sql<{ newest: number | null }[]>`select max(created_at) as newest from drizzle.__drizzle_migrations` : [{ newest: null }];
  const [worker] = tables!.worker ? await sql<{ newest: number | null }[]>`select max(id) as newest from graphile_worker.migrations` : [{ newest: null }];
  const newestCadence = cadence.newest ?? -Infinity;
  return {
    pendingCadence: expected.cadence.filter((m) => m.when > newestCadence).map((m) => m.tag),
    workerCurrent: (worker.newest ?? 0) >= expected.worker,
  };
}
