// Brings a database up to date: Cadence's own migrations, then graphile-worker's.
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';
import { connectDatabase } from './client.js';

// Any fixed number works; this one spells "cadence" on a phone keypad (2233623).
const MIGRATION_LOCK_KEY = 2233623;

/**
 * Applies the drizzle-kit migrations in `migrationsFolder` (which holds meta/_journal.json)
 * and then graphile-worker's schema. Servers starting together wait for each other on an
 * advisory lock instead of racing to create the same tables.
 */
export async function runMigrations(url: string, migrationsFolder: string): Promise<void> {
  // A single connection: the session-level lock belongs to the connection that
  // took it, so drizzle's statements must run on that same connection.
  const sql = connectDatabase(url, { max: 1 });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder });
      // Tables a later migration added (a new resource) get row-level security here; the
      // function is idempotent and defined by migration 0001.
      await sql`select cadence_system.secure_tenant_tables()`;
      await runWorkerMigrations({ connectionString: url });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await sql.end();
  }
}
