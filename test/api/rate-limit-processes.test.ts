import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTLE_INTERVAL_MS } from '../../runtime/ratelimit/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runCadence, startCadence, type RunningCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

/**
 * Request rate limits shared by two real API processes (`cadence serve` children on 127.0.0.1,
 * one database): each counts in memory and settles with PostgreSQL once a second, so what one
 * admits the other learns within about a second, and a fresh process reads a holder's count
 * before deciding. The overshoot allowed is README's "Request rate limits": at most what the
 * other process admits for the holder in any span of 3 settle intervals plus a settle's time.
 */

const LIMIT = 40;
const S = DEFAULT_SETTLE_INTERVAL_MS;
/** Longer than two settle intervals and a settle: a process has surely settled, and the other will read afresh. */
const SETTLED = 2 * S + 500;

let api: TestApi;
const processes: RunningCadence[] = [];
let a: string;
let b: string;

/** `cadence serve` with a small pool (fewer connections than the load test's clients) and the limit of 40. */
async function serve(env: Record<string, string> = {}): Promise<{ process: RunningCadence; url: string }> {
  const process = startCadence(api.databaseUrl, ['serve'], {
    PORT: '0',
    HOST: '127.0.0.1',
    CADENCE_IN_PROCESS_WORKER: 'false',
    DATABASE_POOL_SIZE: '3',
    RATE_LIMIT_PER_HOUR: String(LIMIT),
    ...env,
  });
  processes.push(process);
  const line = await process.waitForLine(/"cadence is serving"/);
  return { process, url: JSON.parse(line).url as string };
}

beforeAll(async () => {
  api = await startTestApi();
  [a, b] = (await Promise.all([serve(), serve()])).map((s) => s.url) as [string, string];
}, 120_000);
afterAll(async () => {
  for (const p of processes) await p.stop();
  await api?.close();
});

interface Answer {
  status: number;
  limit: string | null;
  remaining: string | null;
  /** performance.now() when the answer came. */
  at: number;
}

async function get(base: string, token: string, path = '/api/v2/prospects?page[size]=1'): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return { status: response.status, limit: response.headers.get('x-ratelimit-limit'), remaining: response.headers.get('x-ratelimit-remaining'), at: performance.now() };
}

const newToken = (orgId = api.org.orgId) => api.newUserToken(orgId, ['prospects.read']);

async function settledCount(orgId: number, token: string): Promise<number> {
  const [row] = await api.sql<{ count: number }[]>`
    select coalesce(sum(c.count), 0)::int as count from cadence_system.request_counts c
      join cadence_system.access_tokens t on t.org_id = c.org_id and c.holder = 'user:' || t.user_id
     where c.org_id = ${orgId} and t.token_hash = encode(sha256(${token}::bytea), 'hex')`;
  return row!.count;
}

describe('two API processes', () => {
  it("share a holder's count: B reads what A settled, refuses at the shared limit, and A then learns B's", async () => {
    const token = await newToken();
    for (let i = 1; i <= 25; i++) expect(await get(a, token)).toMatchObject({ status: 200, limit: '40', remaining: String(LIMIT - i) });
    // B has not seen the holder: it reads the count once A has settled it, however long that takes.
    await until("A's 25 to be settled", async () => ((await settledCount(api.org.orgId, token)) === 25 ? true : undefined));
    for (let i = 26; i <= LIMIT; i++) expect(await get(b, token)).toMatchObject({ status: 200, limit: '40', remaining: String(LIMIT - i) });
    expect(await get(b, token)).toMatchObject({ status: 429, limit: '40', remaining: '0' });
    await sleep(SETTLED);
    expect(await get(a, token)).toMatchObject({ status: 429, limit: '40', remaining: '0' });
    expect(await settledCount(api.org.orgId, token)).toBe(LIMIT);
  });

  it('admit, under concurrent load on both, at least the limit and at most the limit plus the stated overshoot', async () => {
    const org = await api.newOrg('Load');
    const limit = 600;
    expect((await runCadence(api.databaseUrl, ['org', 'set-rate-limit', '--org', String(org.orgId), '--per-hour', String(limit)])).code).toBe(0);
    const token = await newToken(org.orgId);
    // 8 clients per process (the pool has 3 connections), each pausing 100 ms between requests, for 9 s:
    // the limit is reached after a few seconds, when both processes have settled several times.
    const admitted = new Map<string, number[]>([
      [a, []],
      [b, []],
    ]);
    const deadline = performance.now() + 9000;
    let refused = 0;
    const client = async (base: string) => {
      while (performance.now() < deadline) {
        const answer = await get(base, token);
        if (answer.status === 200) admitted.get(base)!.push(answer.at);
        else if (answer.status === 429) refused += 1;
        else throw new Error(`unexpected ${answer.status}`);
        await sleep(100);
      }
    };
    await Promise.all([a, b].flatMap((base) => Array.from({ length: 8 }, () => client(base))));
    const total = admitted.get(a)!.length + admitted.get(b)!.length;
    // README: the overshoot is at most what the other process admitted in the 3 settle intervals and a
    // settle's time before the last admission of all, taken at the process that made it. Times
    // are when answers arrived here; 500 ms covers a settle and the requests' own time.
    const span = 3 * S + 500;
    const [last, other] = [admitted.get(a)!, admitted.get(b)!].sort((x, y) => Math.max(...y) - Math.max(...x)) as [number[], number[]];
    const end = Math.max(...last);
    const bound = other.filter((t) => t > end - span).length;
    if (process.env.RATE_LIMIT_TEST_REPORT) console.log({ limit, total, a: admitted.get(a)!.length, b: admitted.get(b)!.length, bound, refused });
    expect(refused).toBeGreaterThan(0);
    expect(total).toBeGreaterThanOrEqual(limit);
    expect(total).toBeLessThanOrEqual(limit + bound);
    // Every admission reaches PostgreSQL (the next settles of both processes).
    await until('every admission to be settled', async () => ((await settledCount(org.orgId, token)) >= total ? true : undefined));
    expect(await settledCount(org.orgId, token)).toBe(total);
  });

  it("use the deployment's limit unless the org has its own, set and unset with the CLI", async () => {
    const org = await api.newOrg('Own limit');
    const token = await newToken(org.orgId);
    expect(await get(a, token)).toMatchObject({ status: 200, limit: '40', remaining: '39' });
    const set = await runCadence(api.databaseUrl, ['org', 'set-rate-limit', '--org', String(org.orgId), '--per-hour', '3']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ orgId: org.orgId, requestLimitPerHour: 3 });
    await sleep(SETTLED);
    expect(await get(b, token)).toMatchObject({ status: 200, limit: '3', remaining: '1' });
    // A learns of B's request once B has settled it (asked earlier, A would admit one more: the overshoot).
    await sleep(SETTLED);
    expect(await get(a, token)).toMatchObject({ status: 200, limit: '3', remaining: '0' });
    expect(await get(a, token)).toMatchObject({ status: 429, limit: '3', remaining: '0' });
    const unset = await runCadence(api.databaseUrl, ['org', 'set-rate-limit', '--org', String(org.orgId), '--default']);
    expect(JSON.parse(unset.stdout)).toEqual({ orgId: org.orgId, requestLimitPerHour: null });
    await sleep(SETTLED);
    expect(await get(b, token)).toMatchObject({ status: 200, limit: '40', remaining: '36' });
    const usage = await runCadence(api.databaseUrl, ['org', 'set-rate-limit', '--org', String(org.orgId)]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('either --per-hour N or --default');
    // Three CLI processes and three settle waits: over 30 s on a loaded two-core machine (a CI rehearsal).
  }, 120_000);

  it('settle what they admitted when they shut down, before the next settle was due', async () => {
    const server = await serve();
    const token = await newToken();
    for (let i = 0; i < 5; i++) expect((await get(server.url, token)).status).toBe(200);
    const stopped = await server.process.stop();
    expect(stopped.code).toBe(0);
    expect(await settledCount(api.org.orgId, token)).toBe(5);
  });

  it('have no limit with RATE_LIMIT_PER_HOUR=0: no headers, nothing counted', async () => {
    const server = await serve({ RATE_LIMIT_PER_HOUR: '0' });
    const token = await newToken();
    const answer = await get(server.url, token);
    expect(answer).toMatchObject({ status: 200, limit: null, remaining: null });
    await server.process.stop();
    expect(await settledCount(api.org.orgId, token)).toBe(0);
  });
});
