// The database an operator command works on: the one the server would use.
import type postgres from 'postgres';
import { connectDatabase } from './client.js';
import { resolveDatabase, type DatabaseEnv } from './database-url.js';
import { runMigrations } from './migrate.js';

export interface OperatorDatabaseOptions {
  /** Migrates the database first with these migrations; absent, it is used as it is (a backup reads it as found). */
  readonly migrationsFolder?: string;
  /** The pool's size: operator commands run a statement or two at a time. */
  readonly connections: number;
}

/**
 * Runs `work` on DATABASE_URL, or on the embedded server (reused when a server already runs it,
 * started here and stopped afterwards otherwise), and releases the connections and the server
 * whatever `work` does.
 */
export async function withOperatorDatabase<T>(env: DatabaseEnv, options: OperatorDatabaseOptions, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const database = await resolveDatabase(env);
  try {
    if (options.migrationsFolder) await runMigrations(database.url, options.migrationsFolder);
    const sql = connectDatabase(database.url, { max: options.connections });
    try {
      return await work(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  } finally {
    await database.stop();
  }
}
