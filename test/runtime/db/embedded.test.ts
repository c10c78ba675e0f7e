// Starts its own server in a temporary folder, whatever DATABASE_URL says: this tests
// the embedded server itself, not the database the other tests use.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase } from '../../../runtime/db/client.js';
import { startEmbeddedPostgres } from '../../../runtime/db/embedded.js';

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cadence-embedded-test-'));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function query<T extends object>(url: string, text: string): Promise<T[]> {
  const sql = connectDatabase(url, { max: 1 });
  try {
    return [...(await sql.unsafe<T[]>(text))];
  } finally {
    await sql.end();
  }
}

it('starts once per data folder and keeps data across restarts', async () => {
  const first = await startEmbeddedPostgres({ dataDir });
  try {
    expect(first.startedHere).toBe(true);
    expect(first.url).toMatch(/^postgres:\/\/postgres:cadence@127\.0\.0\.1:\d+\/cadence$/);
    expect(await query(first.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    await query(first.url, 'create table survives_restart (id int8 primary key)');
    await query(first.url, 'insert into survives_restart values (9007199254740991)');

    const second = await startEmbeddedPostgres({ dataDir });
    expect(second).toMatchObject({ startedHere: false, url: first.url });
    // Stopping a server this call did not start must leave it running.
    await second.stop();
    expect(await query(first.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  } finally {
    await first.stop();
  }

  const restarted = await startEmbeddedPostgres({ dataDir });
  try {
    expect(restarted.startedHere).toBe(true);
    expect(await query(restarted.url, 'select id from survives_restart')).toEqual([{ id: 9007199254740991 }]);
  } finally {
    await restarted.stop();
  }
});
