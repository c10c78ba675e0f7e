import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrg } from '../../runtime/admin/index.js';
import { DEFAULT_SETTLE_INTERVAL_MS } from '../../runtime/ratelimit/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';
import { newTally, orgMarker, runLoadClient } from '../helpers/mixed-load.js';
import { startPgBouncer, type RunningPgBouncer } from '../helpers/pgbouncer.js';
import { idleInTransaction } from '../helpers/pool.js';
import { until } from '../helpers/wait.js';
import { WorkerProcesses } from '../helpers/worker-processes.js';

/**
 * Two `cadence serve` processes through a real PgBouncer in transaction pooling mode
 * (DATABASE_POOL_URL, DATABASE_POOL_MODE=transaction), with fewer server connections than
 * clients, and one `cadence worker` connected directly (graphile-worker needs LISTEN). The
 * concurrency test's mixed load goes to both processes in turn, plus a bulk upsert per client,
 * which the worker writes. Under transaction pooling consecutive transactions of one client
 * connection run on different server connections: a named prepared statement or a session
 * setting that outlived its transaction would show as errors or as another org's rows.
 */

const CLIENTS = 12;
const STEPS = 15;
const LIMIT = 100_000;
/** Longer than two settle intervals and a settle: both processes have settled and read afresh. */
const SETTLED = 2 * DEFAULT_SETTLE_INTERVAL_MS + 500;

let api: TestApi;
let bouncer: RunningPgBouncer;
let orgs: CreatedOrg[];
const servers: RunningCadence[] = [];
const workers = new WorkerProcesses(() => api.databaseUrl);
let bases: string[];

async function serveThroughPgBouncer(): Promise<string> {
  const process = startCadence(api.databaseUrl, ['serve'], {
    PORT: '0',
    HOST: '127.0.0.1',
    CADENCE_IN_PROCESS_WORKER: 'false',
    DATABASE_POOL_URL: bouncer.url,
    DATABASE_POOL_MODE: 'transaction',
    DATABASE_POOL_SIZE: '6',
    RATE_LIMIT_PER_HOUR: String(LIMIT),
  });
  servers.push(process);
  const line = await process.waitForLine(/"cadence is serving"/);
  return JSON.parse(line).url as string;
}

/** The org's requests the rate limiter has settled in PostgreSQL, whichever process admitted them. */
async function settledCount(org: CreatedOrg): Promise<number> {
  const [row] = await api.sql<{ count: number }[]>`
    select coalesce(sum(c.count), 0)::int as count from cadence_system.request_counts c
      join cadence_system.access_tokens t on t.org_id = c.org_id and c.holder = 'user:' || t.user_id
     where c.org_id = ${org.orgId} and t.token_hash = encode(sha256(${org.token}::bytea), 'hex')`;
  return row!.count;
}

async function remainingAt(base: string, org: CreatedOrg): Promise<number> {
  const response = await fetch(`${base}/api/v2/prospects?page[size]=1`, { headers: { authorization: `Bearer ${org.token}` } });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return Number(response.headers.get('x-ratelimit-remaining'));
}

/** A bulk upsert of three prospects with the org's marker, through `base`; the batch's id. */
async function bulkUpsert(base: string, org: CreatedOrg, index: number): Promise<number> {
  const records = [1, 2, 3].map((n) => ({ data: { type: 'prospect', attributes: { firstName: orgMarker(org), lastName: `bulk ${index}.${n}` } } }));
  const response = await fetch(`${base}/api/v2/imports/actions/bulkUpsert`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { attributes: { records } } }),
  });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return Number(body.data.id);
}

beforeAll(async () => {
  api = await startTestApi();
  orgs = [api.org, await api.newOrg('Second org')];
  // Four server connections for the 12 the two processes may open: clients wait in PgBouncer.
  bouncer = await startPgBouncer(api.databaseUrl, { poolSize: 4 });
  bases = await Promise.all([serveThroughPgBouncer(), serveThroughPgBouncer()]);
  await workers.start();
}, 180_000);
afterAll(async () => {
  for (const server of servers) await server.stop();
  await workers.stopAll();
  await bouncer?.stop();
  await api?.close();
});

describe('behind PgBouncer in transaction pooling mode', () => {
  it(`${CLIENTS} clients' mixed load across two processes: no errors, no foreign rows, rate-limit counts shared, jobs processed`, { timeout: 180_000 }, async () => {
    const pooledBefore = await bouncer.stats();
    const tally = newTally();
    const batches = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => bulkUpsert(bases[i % 2]!, orgs[i % orgs.length]!, i)));
    await Promise.all(
      Array.from({ length: CLIENTS }, (_, index) =>
        runLoadClient({ index, org: orgs[index % orgs.length]!, base: (n) => bases[(index + n) % 2]!, more: (n) => n < STEPS }, tally),
      ),
    );
    const pooled = await bouncer.stats();
    console.log(
      `pgbouncer: ${tally.requests} requests by ${CLIENTS} clients over two processes (${[...tally.byBase.values()].join(' + ')}), ` +
        `${tally.errors.length} errors, ${tally.foreignRows} foreign rows; ${batches.length} bulk upserts; ` +
        `PgBouncer pooled ${pooled.transactions - pooledBefore.transactions} transactions on 4 server connections`,
    );
    expect(tally.errors.slice(0, 5)).toEqual([]);
    expect(tally.foreignRows).toBe(0);
    expect(tally.requests).toBe(CLIENTS * STEPS);
    expect([...tally.byBase.keys()].sort()).toEqual([...bases].sort());
    // Every request's transaction went through PgBouncer.
    expect(pooled.transactions - pooledBefore.transactions).toBeGreaterThan(tally.requests);

    // Jobs: the direct worker wrote every bulk upsert's prospects, each in its own org.
    await until(
      'every bulk upsert to finish',
      async () => {
        const rows = await api.sql<{ state: string }[]>`select state from batches where id = any(${batches}::bigint[])`;
        return rows.length === batches.length && rows.every((r) => r.state !== 'pending') ? rows : undefined;
      },
      60_000,
    ).then((rows) => expect(rows.map((r) => r.state)).toEqual(batches.map(() => 'finished')));
    const bulkRows = await api.sql<{ org_id: number; first_name: string }[]>`select org_id, first_name from prospects where last_name like 'bulk %'`;
    expect(bulkRows).toHaveLength(CLIENTS * 3);
    expect(bulkRows.filter((r) => r.first_name !== `org-${r.org_id}`)).toEqual([]);

    // Rate limits: both processes' admissions reach one count per holder, and each process
    // answers with the count the other settled.
    for (const org of orgs) {
      const admitted = tally.byOrg.get(org.orgId)! + batches.filter((_, i) => i % orgs.length === orgs.indexOf(org)).length;
      await until(`org ${org.orgId}'s ${admitted} requests to be settled`, async () => ((await settledCount(org)) === admitted ? true : undefined));
      await sleep(SETTLED);
      expect(await remainingAt(bases[0]!, org)).toBe(LIMIT - admitted - 1);
      await sleep(SETTLED);
      expect(await remainingAt(bases[1]!, org)).toBe(LIMIT - admitted - 2);
    }
    expect(await idleInTransaction(api.sql)).toEqual([]);
  });
});
