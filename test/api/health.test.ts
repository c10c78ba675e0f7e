import { inject, afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase } from '../../runtime/db/client.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * Load balancers ask /healthz whether the process is up and /readyz whether it can serve: the
 * database answers and every migration, Cadence's and graphile-worker's, is applied. Neither
 * needs a token, and neither says anything about any org.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

it('GET /healthz answers 200 without a token', async () => {
  const response = await api.request('GET', '/healthz', { token: null });
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ meta: { status: 'up' } });
  expect(response.headers.get('cache-control')).toBe('no-store');
  // Only the health answers: other routes keep their own caching.
  expect((await api.request('GET', '/api/v2/prospects')).headers.get('cache-control')).toBeNull();
});

it('GET /readyz answers 200 without a token when the database is migrated', async () => {
  const response = await api.request('GET', '/readyz', { token: null });
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ meta: { status: 'ready' } });
  expect(response.headers.get('cache-control')).toBe('no-store');
});

it('GET /readyz answers 503 naming a Cadence migration the database lacks', async () => {
  const [newest] = await api.sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations) returning *`;
  try {
    const response = await api.request('GET', '/readyz', { token: null });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      errors: [
        {
          id: 'notReady',
          status: '503',
          title: 'Service Unavailable',
          detail: expect.stringMatching(/^migrations not applied: \d{4}_[a-z_]+; run cadence migrate$/),
        },
      ],
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  } finally {
    await api.sql`insert into drizzle.__drizzle_migrations ${api.sql(newest!)}`;
  }
  expect((await api.request('GET', '/readyz', { token: null })).status).toBe(200);
});

it("GET /readyz answers 503 while graphile-worker's schema is behind", async () => {
  const [newest] = await api.sql`delete from graphile_worker.migrations where id = (select max(id) from graphile_worker.migrations) returning *`;
  try {
    const response = await api.request('GET', '/readyz', { token: null });
    expect(response.status).toBe(503);
    expect(response.body.errors[0].detail).toBe("migrations not applied: graphile-worker's; run cadence migrate");
  } finally {
    await api.sql`insert into graphile_worker.migrations ${api.sql(newest!)}`;
  }
});

it('GET /readyz answers 503 while the database refuses connections, and /healthz still 200', async () => {
  const name = new URL(api.databaseUrl).pathname.slice(1);
  const admin = connectDatabase(inject('databaseAdminUrl'), { max: 1 });
  try {
    await admin`alter database ${admin(name)} with allow_connections false`;
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
    const response = await api.request('GET', '/readyz', { token: null });
    expect(response.status).toBe(503);
    // Whatever the driver said stays in the server's log: it may name hosts and users.
    expect(response.body).toEqual({
      errors: [{ id: 'notReady', status: '503', title: 'Service Unavailable', detail: 'the database did not answer' }],
    });
    expect((await api.request('GET', '/healthz', { token: null })).status).toBe(200);
  } finally {
    await admin`alter database ${admin(name)} with allow_connections true`;
    await admin.end();
  }
  expect((await api.request('GET', '/readyz', { token: null })).status).toBe(200);
});
