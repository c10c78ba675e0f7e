// A fresh, migrated database for one test file, cloned from the template that
// global-setup.ts prepared: copying files is much faster than running migrations.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { connectDatabase } from '../../runtime/db/client.js';

export interface TestDatabase {
  url: string;
  /** Disconnects everyone still connected and drops the database. */
  drop(): Promise<void>;
}

// The databases of one test run share its run id: the template `cadence_tpl_<run>` and
// its clones `cadence_test_<run>_<random>`, so teardown can find and drop exactly those.
const TEMPLATE_PREFIX = 'cadence_tpl_';

export function templateDatabaseName(run: string): string {
  return `${TEMPLATE_PREFIX}${run}`;
}

export function cloneDatabasePrefix(templateDatabase: string): string {
  return `cadence_test_${templateDatabase.slice(TEMPLATE_PREFIX.length)}_`;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const OBJECT_IN_USE = '55006';
const CLONE_ATTEMPTS = 10;

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('databaseAdminUrl');
  const template = inject('templateDatabase');
  const name = `${cloneDatabasePrefix(template)}${randomBytes(4).toString('hex')}`;
  await withAdminConnection(adminUrl, (admin) => cloneWithRetry(admin, name, template));
  return testDatabaseNamed(adminUrl, name);
}

function testDatabaseNamed(adminUrl: string, name: string): TestDatabase {
  return {
    url: withDatabase(adminUrl, name),
    drop: () =>
      withAdminConnection(adminUrl, async (admin) => {
        await admin`drop database if exists ${admin(name)} with (force)`;
      }),
  };
}

/** A database with nothing in it, not even the migrations (a restore's target), on the test server. */
export async function createEmptyTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('databaseAdminUrl');
  const name = `${cloneDatabasePrefix(inject('templateDatabase'))}${randomBytes(4).toString('hex')}`;
  await withAdminConnection(adminUrl, (admin) => admin`create database ${admin(name)} template template0`);
  return testDatabaseNamed(adminUrl, name);
}

type AdminConnection = ReturnType<typeof connectDatabase>;

async function withAdminConnection<T>(adminUrl: string, work: (admin: AdminConnection) => Promise<T>): Promise<T> {
  const admin = connectDatabase(adminUrl, { max: 1 });
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * PostgreSQL refuses to copy a database that has other sessions ("source database is
 * being accessed by other users"); a session that just closed can take a moment to go.
 */
async function cloneWithRetry(admin: AdminConnection, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin`create database ${admin(name)} template ${admin(template)}`;
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === OBJECT_IN_USE;
      if (!inUse || attempt === CLONE_ATTEMPTS) throw error;
      await sleep(100 * attempt);
    }
  }
}
