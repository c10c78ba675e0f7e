// Brings a database up to date: Cadence's own migrations, then graphile-worker's.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';
import { connectDatabase } from './client.js';
import { expectedMigrations, migrationStatus } from './migration-status.js';

/** The migrations this copy of Cadence ships: drizzle-kit's SQL files and their journal. */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');

// Any fixed number works; this one spells "cadence" on a phone keypad (2233623).
export const MIGRATION_LOCK_KEY = 2233623;

/**
 * Applies the drizzle-kit migrations in `migrationsFolder` (which holds meta/_journal.json)
 * and then graphile-worker's schema. Servers starting together wait for each other on an
 * advisory lock instead of racing to create the same tables.
 *
 * Every server start and CLI command comes through here, under whatever traffic is flowing, and
 * almost always with nothing to do: then it only reads. DDL, even DDL that changes nothing,
 * takes locks that wait for live writes and can deadlock with them.
 */
export async function runMigrations(url: string, migrationsFolder: string): Promise<void> {
  const expected = expectedMigrations(migrationsFolder);
  // A single connection: the session-level lock belongs to the connection that
  // took it, so drizzle's statements must run on that same connection.
  const sql = connectDatabase(url, { max: 1 });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      const status = await migrationStatus(sql, expected);
      if (status.pendingCadence.length > 0) {
        await migrate(drizzle(sql), { migrationsFolder });
        // A table a migration just added (a new resource) gets row-level security here; the
        // function leaves tables that already have it alone (migrations 0001 and 0010).
        await sql`select cadence_system.secure_tenant_tables()`;
      }
      if (!status.workerCurrent) await runWorkerMigrations({ connectionString: url });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await sql.end();
  }
}
