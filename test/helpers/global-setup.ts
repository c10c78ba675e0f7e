// Runs once per `vitest run`: a PostgreSQL server and a migrated template database that
// each test file clones (test/helpers/database.ts), so no test file migrates on its own.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../../runtime/db/client.js';
import { startEmbeddedPostgres } from '../../runtime/db/embedded.js';
import { runMigrations } from '../../runtime/db/migrate.js';
import { cloneDatabasePrefix, templateDatabaseName, withDatabase } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A url on the test server for creating and dropping databases. */
    databaseAdminUrl: string;
    /** The migrated database to clone: `cadence_tpl_<run>`. */
    templateDatabase: string;
  }
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface TestServer {
  adminUrl: string;
  stop(): Promise<void>;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer(process.env.DATABASE_URL);
  // A name per run, so that runs sharing a server (DATABASE_URL) never touch each other's databases.
  const templateDatabase = templateDatabaseName(randomBytes(4).toString('hex'));
  const admin = connectDatabase(server.adminUrl, { max: 1 });
  try {
    await admin`create database ${admin(templateDatabase)}`;
    const migrationsFolder = process.env.CADENCE_MIGRATIONS_DIR ?? join(REPO_ROOT, 'migrations');
    await runMigrations(withDatabase(server.adminUrl, templateDatabase), migrationsFolder);
    // CREATE DATABASE ... TEMPLATE fails while anyone is connected to the template, and
    // backends of closed clients can linger for a moment: shut the door, then clear the room.
    await admin`alter database ${admin(templateDatabase)} with allow_connections false`;
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${templateDatabase}`;
  } catch (error) {
    await dropRunDatabases(admin, templateDatabase).catch(() => {});
    await admin.end();
    await server.stop();
    throw error;
  }

  project.provide('databaseAdminUrl', server.adminUrl);
  project.provide('templateDatabase', templateDatabase);

  return async function teardown() {
    try {
      await dropRunDatabases(admin, templateDatabase);
    } finally {
      await admin.end();
      await server.stop();
    }
  };
}

/** The server named by DATABASE_URL, or an embedded one in a temporary folder. */
async function startTestServer(databaseUrl: string | undefined): Promise<TestServer> {
  if (databaseUrl) return { adminUrl: databaseUrl, stop: async () => {} };
  const dataDir = await mkdtemp(join(tmpdir(), 'cadence-test-'));
  try {
    const embedded = await startEmbeddedPostgres({ dataDir });
    return {
      adminUrl: embedded.url,
      stop: async () => {
        await embedded.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Drops the template and whatever clones of it the test files did not drop themselves. */
async function dropRunDatabases(admin: ReturnType<typeof connectDatabase>, templateDatabase: string): Promise<void> {
  const databases = await admin<{ datname: string }[]>`
    select datname from pg_database
    where datname = ${templateDatabase} or starts_with(datname, ${cloneDatabasePrefix(templateDatabase)})`;
  for (const { datname } of databases) {
    await admin`drop database if exists ${admin(datname)} with (force)`;
  }
}
