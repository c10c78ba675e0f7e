import { readFile } from 'node:fs/promises';
import type postgres from 'postgres';
import type { Config } from '../config.js';
import { withOperatorDatabase } from '../db/operator-database.js';
import { MIGRATIONS_DIR } from '../db/migrate.js';

/** What the operator commands share: their output, their database, their standard input. */

/** Operator commands print one JSON value, on one line, to standard output. */
export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** The version in the package.json beside runtime/ (the one release notes in CHANGELOG.md name). */
export async function cadenceVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

export async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs `work` against the configured database, migrated, and releases it afterwards. */
export function withDatabase<T>(config: Config, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  return withOperatorDatabase(databaseEnv(config), { migrationsFolder: MIGRATIONS_DIR, connections: 2 }, work);
}

/** Where the server's database is: DATABASE_URL, or the embedded one in the data folder. */
export function databaseEnv(config: Config): { DATABASE_URL: string | undefined; CADENCE_DATA_DIR: string } {
  return { DATABASE_URL: config.databaseUrl, CADENCE_DATA_DIR: config.dataDir };
}
