import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { MEDIA_TYPE, startTestApi, type TestApi } from '../helpers/api.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

/**
 * A PostgreSQL connection that goes away in the middle of a transaction (a failover, an
 * operator's pg_terminate_backend, idle_in_transaction_session_timeout after a stall) makes
 * postgres.js 3.4 throw from a socket callback, outside any promise a request awaits; Node's
 * default would end the process and every tenant's requests with it (issue #25, defect 1's
 * crash), and left the connection unable to send anything again, so that a pool lost all its
 * connections after a few such events (patches/postgres+3.4.9.patch fixes both). The requests
 * on a lost connection are answered 503 with Retry-After, the pool opens new connections, and
 * the next requests are answered.
 */

let api: TestApi;
let serving: RunningCadence | undefined;

beforeAll(async () => {
  api = await startTestApi();
});
afterEach(() => serving?.kill());
afterAll(async () => {
  await api?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a connection terminated inside a transaction fails its request, not the process', async () => {
  serving = startCadence(api.databaseUrl, ['serve'], { PORT: '0', CADENCE_IN_PROCESS_WORKER: 'false', DATABASE_POOL_SIZE: '2', RATE_LIMIT_PER_HOUR: '0' });
  const url = JSON.parse(await serving.waitForLine(/"cadence is serving"/)).url as string;
  // What was answered other than 201 or 503, with its body: what went wrong, should any be.
  const unexpected: string[] = [];
  const headers = { authorization: `Bearer ${api.org.token}`, 'content-type': MEDIA_TYPE };
  const create = (n: number) =>
    fetch(`${url}/api/v2/prospects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { type: 'prospect', attributes: { lastName: `Lost${n}` } } }),
      signal: AbortSignal.timeout(60_000),
    })
      .then(async (response) => {
        const body = await response.text();
        if (response.status !== 201 && response.status !== 503) unexpected.push(`${response.status} ${body}`);
        return response.status;
      })
      .catch(() => 0);

  // A connection of its own, named so that it never terminates itself or the test server's.
  const killer = postgres(api.databaseUrl, { max: 1, connection: { application_name: 'connection-killer' }, onnotice: () => {} });
  const statuses: number[] = [];
  let writing = true;
  let n = 0;
  const clients = Array.from({ length: 6 }, async () => {
    while (writing) statuses.push(await create(n++));
  });
  let terminated = 0;
  try {
    // Bounded: 100 rounds, or until more connections than the pool holds were terminated.
    for (let round = 0; round < 100 && terminated < 4; round++) {
      const rows = await killer`
        select pg_terminate_backend(pid) as done from pg_stat_activity
         where datname = current_database() and application_name = 'cadence' and state in ('idle in transaction', 'active')
           and pid <> pg_backend_pid()`;
      terminated += rows.filter((r) => r.done).length;
      await sleep(50);
    }
  } finally {
    writing = false;
    await Promise.all(clients);
    await killer.end();
  }
  expect(terminated).toBeGreaterThan(0);
  // The process is still there, and answers again once the pool has new connections.
  const recovered = await until('serve to answer after the lost connections', async () => ((await create(n++)) === 201 ? true : undefined), 30_000);
  expect(recovered).toBe(true);
  expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
  // A request whose connection was lost is answered 503, which the client may retry, never 500.
  // A few may get no answer (0 here: the client gave up after 20 s): postgres.js can still lose a query
  // of a reserved connection that closes, which the patch does not cover (README, Isolation).
  const answered = statuses.filter((s) => s !== 0);
  expect(unexpected).toEqual([]);
  expect(answered.length).toBeGreaterThan(statuses.length / 2);
  const exited = await Promise.race([serving.exited().then(() => true), sleep(0).then(() => false)]);
  expect(exited).toBe(false);
}, 120_000);
