// The benchmark's own PostgreSQL database: a throw-away embedded server, or a fresh database
// on the server DATABASE_URL names. Either way it is migrated and removed at the end.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase } from '../runtime/db/client.js';
import { startEmbeddedPostgres } from '../runtime/db/embedded.js';
import { MIGRATIONS_DIR, runMigrations } from '../runtime/db/migrate.js';

export interface BenchDatabase {
  readonly url: string;
  /** What the database runs on, for the report. */
  readonly description: string;
  /** Drops the database or stops the embedded server; safe to call more than once. */
  close(): Promise<void>;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Refuses anything but loopback: the benchmark sends load only to this machine. */
function requireLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host)) {
    throw new Error(`DATABASE_URL must point at 127.0.0.1 (or localhost) for the benchmark, not ${host}`);
  }
}

async function onServer(serverUrl: string): Promise<BenchDatabase> {
  requireLoopback(serverUrl);
  const name = `cadence_bench_${randomBytes(4).toString('hex')}`;
  const admin = connectDatabase(serverUrl, { max: 1 });
  await admin`create database ${admin(name)}`;
  let closed = false;
  return {
    url: withDatabaseName(serverUrl, name),
    description: `database ${name} on DATABASE_URL's server`,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await admin`drop database if exists ${admin(name)} with (force)`;
      } finally {
        await admin.end({ timeout: 5 });
      }
    },
  };
}

async function embedded(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-bench-'));
  // Removed on exit too, not only by close(): an interrupted or failed run exits without closing.
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.once('exit', removeDataDir);
  const server = await startEmbeddedPostgres({ dataDir });
  let closed = false;
  return {
    url: server.url,
    description: `embedded PostgreSQL in ${dataDir}`,
    async close() {
      if (closed) return;
      closed = true;
      await server.stop();
      removeDataDir();
    },
  };
}

/** A migrated, empty database for one benchmark run. */
export async function openBenchDatabase(env: NodeJS.ProcessEnv): Promise<BenchDatabase> {
  const database = env.DATABASE_URL ? await onServer(env.DATABASE_URL) : await embedded();
  try {
    await runMigrations(database.url, MIGRATIONS_DIR);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
