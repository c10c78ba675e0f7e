import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, MEDIA_TYPE, type ApiResponse, type TestApi } from '../helpers/api.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';

/**
 * The daily allowance of bulk items (SPEC.md "Limits"): a token bucket per org in PostgreSQL,
 * refilled continuously, shared by every API process. Here with small numbers: 100 items,
 * refilled at 86,400 a day (one a second) on the test clock.
 */

const ALLOWANCE = { capacity: 100, perDay: 86_400 };
let now = Date.parse('2026-11-21T12:00:00.000Z');
const clock = () => new Date(now);
const seconds = () => Math.floor(now / 1000);

let api: TestApi;
const processes: RunningCadence[] = [];

beforeAll(async () => {
  // The hourly request limit is on too, so an answer showing its headers instead of the allowance's is seen.
  api = await startTestApi({ clock, bulkAllowance: ALLOWANCE, rateLimit: { perHour: 10_000 } });
});
afterAll(async () => {
  for (const p of processes) p.kill();
  await api?.close();
});

const records = (n: number) => Array.from({ length: n }, (_, i) => ({ data: { type: 'account', attributes: { name: `Account ${i}` } } }));

function upsert(n: number, options: { token?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
  return api.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes: { records: records(n) } } }, ...options });
}

function limits(response: ApiResponse) {
  const h = response.headers;
  return {
    status: response.status,
    limit: h.get('x-ratelimit-limit'),
    remaining: h.get('x-ratelimit-remaining'),
    reset: h.get('x-ratelimit-reset'),
    retryAfter: h.get('retry-after'),
  };
}

async function batchCount(token = api.org.token): Promise<number> {
  const { body } = await api.request('GET', '/api/v2/batches?count=true&page[size]=1', { token });
  return body.meta.count;
}

describe('one org', () => {
  it('takes each request from the allowance; 429 with Retry-After and X-RateLimit-* when it would overrun; refills continuously', async () => {
    const first = await upsert(60);
    expect(limits(first)).toEqual({ status: 200, limit: '100', remaining: '40', reset: String(seconds() + 60), retryAfter: null });

    const batches = await batchCount();
    const refused = await upsert(50);
    expect(limits(refused)).toEqual({ status: 429, limit: '100', remaining: '40', reset: String(seconds() + 10), retryAfter: '10' });
    expect(refused.body.errors).toEqual([
      {
        id: 'bulkAllowanceExceeded',
        status: '429',
        title: 'Too Many Requests',
        detail: "This request has 50 items and the organisation's daily bulk allowance has 40 left; enough is back in 10 s",
      },
    ]);
    // A refused request leaves nothing behind.
    expect(await batchCount()).toBe(batches);

    now += 9_000;
    expect(limits(await upsert(50))).toMatchObject({ status: 429, remaining: '49', retryAfter: '1' });
    now += 1_000;
    expect(limits(await upsert(50))).toMatchObject({ status: 200, remaining: '0', reset: String(seconds() + 100) });

    // A day later the bucket is full again, and holds no more than its capacity.
    now += 86_400_000;
    expect(limits(await upsert(100))).toMatchObject({ status: 200, remaining: '0' });
    expect(limits(await upsert(1))).toMatchObject({ status: 429, retryAfter: '1' });
  });

  it('a request larger than the whole allowance gets a 429 without Retry-After: waiting would not help', async () => {
    now += 86_400_000;
    const response = await upsert(101);
    expect(limits(response)).toMatchObject({ status: 429, limit: '100', remaining: '100', retryAfter: null });
    expect(response.body.errors[0].detail).toContain('split it into smaller requests');
  });

  it('an idempotent replay takes nothing, and answers with the allowance’s X-RateLimit-* headers as the first answer did', async () => {
    now += 86_400_000;
    const headers = { 'Idempotency-Key': 'allowance-replay' };
    const first = await upsert(60, { headers });
    expect(limits(first)).toEqual({ status: 200, limit: '100', remaining: '40', reset: String(seconds() + 60), retryAfter: null });
    now += 5_000;
    const replay = await upsert(60, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    // Five seconds refilled five items; the replay took none.
    expect(limits(replay)).toEqual({ status: 200, limit: '100', remaining: '45', reset: String(seconds() + 55), retryAfter: null });
  });

  it('each org has its own allowance', async () => {
    const other = await api.newOrg();
    expect(limits(await upsert(100, { token: other.token }))).toMatchObject({ status: 200, remaining: '0' });
    now += 86_400_000;
    expect(limits(await upsert(100))).toMatchObject({ status: 200, remaining: '0' });
  });
});

describe('several API processes', () => {
  it('share one allowance exactly: of 30 concurrent requests of 10 items to two servers, 10 are granted', async () => {
    const env = { PORT: '0', CADENCE_IN_PROCESS_WORKER: 'false', BULK_ALLOWANCE_CAPACITY: '100', BULK_ALLOWANCE_PER_DAY: '1', LOG_LEVEL: 'warn' };
    const servers = [startCadence(api.databaseUrl, ['serve'], { ...env, LOG_LEVEL: 'info' }), startCadence(api.databaseUrl, ['serve'], { ...env, LOG_LEVEL: 'info' })];
    processes.push(...servers);
    const urls = await Promise.all(servers.map(async (s) => JSON.parse(await s.waitForLine(/cadence is serving/)).url as string));
    const org = await api.newOrg('Shared allowance');
    const body = JSON.stringify({ data: { attributes: { records: records(10) } } });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const response = await fetch(`${urls[i % 2]}/api/v2/imports/actions/bulkUpsert`, {
          method: 'POST',
          headers: { authorization: `Bearer ${org.token}`, 'content-type': MEDIA_TYPE },
          body,
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(await batchCount(org.token)).toBe(10);
    for (const server of servers) expect((await server.stop()).code).toBe(0);
  }, 120_000);
});
