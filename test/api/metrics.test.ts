import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_TASK } from '../../runtime/bulk/batch-store.js';
import { loadTrackingSecret } from '../../runtime/db/settings.js';
import { createTrackingSigner } from '../../runtime/mail/tracking/index.js';
import { createMetricsRegistry, observeQueue } from '../../runtime/metrics/index.js';
import { MEDIA_TYPE, startTestApi, type TestApi } from '../helpers/api.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';
import { startPrometheus, type RunningPrometheus } from '../helpers/prometheus.js';
import { until } from '../helpers/wait.js';
import { FAST_LIVENESS } from '../helpers/worker-processes.js';

/**
 * Prometheus metrics (issue #29, README "Metrics"): GET /metrics on the API, and on a worker's
 * METRICS_PORT, in the Prometheus text format, behind METRICS_TOKEN. Requests are labelled with
 * their route template, never a path with ids or tokens in it. The last test has a real
 * Prometheus (Debian's, installed when missing) scrape a running `cadence serve` and the worker
 * it supervises, and asks Prometheus's HTTP API for counters that moved.
 */

const TOKEN = 'metrics-test-token';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ metrics: { token: TOKEN } });
});
afterAll(async () => {
  await api?.close();
});

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** The samples of a text-format exposition (comments skipped); label values unescaped. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(url = `${api.baseUrl}/metrics`): Promise<Sample[]> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string>): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('GET /metrics', () => {
  it('is refused without METRICS_TOKEN, or with another token, with a JSON:API 401', async () => {
    const missing = await fetch(`${api.baseUrl}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toBe(MEDIA_TYPE);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="cadence"');
    expect(await missing.json()).toEqual({
      errors: [{ id: 'unauthorized', status: '401', title: 'Unauthorized', detail: 'An Authorization: Bearer <METRICS_TOKEN> header is required' }],
    });
    // An API token is no METRICS_TOKEN either.
    for (const token of [`${TOKEN}x`, api.org.token, 'm']) {
      const wrong = await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ errors: [{ id: 'unauthorized', status: '401', title: 'Unauthorized', detail: 'The token is not the METRICS_TOKEN' }] });
    }
  });

  it('serves the Prometheus text format: event-loop delay, memory and the database pool', async () => {
    const response = await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parseExposition(await response.text());
    const names = new Set(samples.map((s) => s.name));
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) expect(names).toContain(name);
    // The test server's pool: 4 connections at most (test/helpers/api.ts), one or more opened
    // already (the test org was made through it), none waiting while nothing runs.
    expect(valueOf(samples, 'cadence_db_pool_max_connections', {})).toBe(4);
    expect(valueOf(samples, 'cadence_db_pool_waiting_queries', {})).toBe(0);
    const states = ['busy', 'reserved', 'idle', 'connecting'].map((state) => valueOf(samples, 'cadence_db_pool_connections', { state }) ?? -1);
    expect(Math.min(...states)).toBeGreaterThanOrEqual(0);
    expect(states.reduce((a, b) => a + b)).toBeGreaterThanOrEqual(1);
    expect(states.reduce((a, b) => a + b)).toBeLessThanOrEqual(4);
    expect(valueOf(samples, 'cadence_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(1);
  });

  it('counts requests by method, route template and status: no ids, tokens or org data in any label', async () => {
    const created = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 'Metered' } } } });
    expect(created.status).toBe(201);
    const id = String(created.body.data.id);
    expect((await api.request('GET', `/api/v2/prospects/${id}`)).status).toBe(200);
    expect((await api.request('GET', `/api/v2/prospects/${id}`, { token: null })).status).toBe(401);
    expect((await api.request('PURGE', `/api/v2/prospects/${id}`)).status).toBe(405);
    expect((await api.request('GET', `/nothing/here/${id}`)).status).toBe(404);
    const forged = await fetch(`${api.baseUrl}/t/o/notatoken${id}.gif`);
    expect(forged.status).toBe(404);
    await forged.text();
    // A valid open of a mailing that does not exist: answered, counted, and recorded nowhere.
    const token = createTrackingSigner(await loadTrackingSecret(api.sql)).sign({ kind: 'open', orgId: api.org.orgId, mailingId: Number(id) + 1000 });
    const pixel = await fetch(`${api.baseUrl}/t/o/${token}.gif`);
    expect(pixel.status).toBe(200);
    await pixel.arrayBuffer();

    const samples = await scrape();
    const requests = (labels: Record<string, string>) => valueOf(samples, 'cadence_http_requests_total', labels);
    const member = '/api/v2/prospects/:id{[0-9]+}';
    expect(requests({ method: 'POST', route: '/api/v2/prospects', status: '201' })).toBe(1);
    expect(requests({ method: 'GET', route: member, status: '200' })).toBe(1);
    // Refused by the bearer middleware: still labelled with the route asked for.
    expect(requests({ method: 'GET', route: member, status: '401' })).toBe(1);
    // A method no route knows is OTHER, so that clients cannot add label values at will.
    expect(requests({ method: 'OTHER', route: '/api/v2/:collection/:id{[0-9]+}', status: '405' })).toBe(1);
    expect(requests({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(requests({ method: 'GET', route: '/t/o/:file', status: '404' })).toBe(1);
    expect(requests({ method: 'GET', route: '/t/o/:file', status: '200' })).toBe(1);
    expect(valueOf(samples, 'cadence_tracking_hits_total', { kind: 'open' })).toBe(1);
    expect(valueOf(samples, 'cadence_http_request_duration_seconds_count', { method: 'GET', route: member, status: '200' })).toBe(1);

    const labelNames = new Set(samples.flatMap((s) => Object.keys(s.labels)));
    // Cadence's labels, and those of Node's default metrics (versions, heap spaces, GC kinds, resource types).
    const allowed = new Set(['method', 'route', 'status', 'state', 'le', 'outcome', 'kind', 'task', 'version', 'major', 'minor', 'patch', 'space', 'type']);
    expect([...labelNames].filter((name) => !allowed.has(name))).toEqual([]);
    const values = samples.flatMap((s) => Object.values(s.labels));
    expect(values.filter((v) => /\/[0-9]+(\/|$)/.test(v) || v.includes('notatoken') || v.includes(token) || v.includes(api.org.token) || v.includes('Test org'))).toEqual(
      [],
    );
    expect(new Set(samples.filter((s) => s.name === 'cadence_http_requests_total').map((s) => s.labels.route))).not.toContain(`/api/v2/prospects/${id}`);
  });
});

describe("the queue's gauges", () => {
  it('count the due jobs no worker holds, and how long the oldest has been due', async () => {
    const registry = createMetricsRegistry();
    observeQueue(registry, api.sql);
    const gauges = async () => {
      const samples = parseExposition(await registry.metrics());
      return { due: valueOf(samples, 'cadence_job_queue_due', {}), oldest: valueOf(samples, 'cadence_job_queue_oldest_due_age_seconds', {}) };
    };
    expect(await gauges()).toEqual({ due: 0, oldest: 0 });
    // No worker runs on this database: the jobs stay where they are put. One is not due yet.
    await api.sql`select graphile_worker.add_job('metrics_test_task', run_at => now() - interval '90 seconds', priority => 5, job_key => 'metrics-a')`;
    await api.sql`select graphile_worker.add_job('metrics_test_task', run_at => now() - interval '10 seconds', priority => 0, job_key => 'metrics-b')`;
    await api.sql`select graphile_worker.add_job('metrics_test_task', run_at => now() + interval '1 hour', job_key => 'metrics-c')`;
    const { due, oldest } = await gauges();
    expect(due).toBe(2);
    // The oldest is found at its own priority, behind a younger job of a lower number.
    expect(oldest).toBeGreaterThanOrEqual(90);
    expect(oldest).toBeLessThan(120);
    for (const key of ['metrics-a', 'metrics-b', 'metrics-c']) await api.sql`select graphile_worker.remove_job(${key})`;
    expect(await gauges()).toEqual({ due: 0, oldest: 0 });
  });
});

describe('a real Prometheus scraping `cadence serve` and its worker', () => {
  let serve: RunningCadence | undefined;
  let prometheus: RunningPrometheus | undefined;
  afterAll(async () => {
    await prometheus?.stop();
    await serve?.stop();
  });

  it('sees the request counter and the job counter move', { timeout: 240_000 }, async () => {
    // METRICS_PORT=0: the supervised worker listens on a free port and logs where.
    serve = startCadence(api.databaseUrl, ['serve'], { PORT: '0', METRICS_PORT: '0', METRICS_TOKEN: TOKEN, ...FAST_LIVENESS });
    const apiUrl = JSON.parse(await serve.waitForLine(/"cadence is serving"/)).url as string;
    const workerMetricsUrl = JSON.parse(await serve.waitForLine(/"serving metrics"/)).url as string;
    await serve.waitForLine(/looking for jobs/);
    // The worker's own /metrics is behind the token too.
    expect((await fetch(workerMetricsUrl)).status).toBe(401);

    prometheus = await startPrometheus([
      { job: 'cadence-api', address: new URL(apiUrl).host, token: TOKEN },
      { job: 'cadence-worker', address: new URL(workerMetricsUrl).host, token: TOKEN },
    ]);
    await prometheus.targetsUp();
    const upsertRequests = `sum(cadence_http_requests_total{job="cadence-api",method="POST",route="/api/v2/imports/actions/bulkUpsert",status="200"})`;
    const chunkJobs = `sum(cadence_jobs_total{job="cadence-worker",task="${CHUNK_TASK}",outcome="success"})`;
    const current = async (expression: string) => (await prometheus!.query(expression))[0]?.value ?? 0;
    const before = { requests: await current(upsertRequests), jobs: await current(chunkJobs) };

    // A bulk upsert: a request to the API, and a chunk job the worker runs.
    const body = JSON.stringify({ data: { attributes: { records: [{ data: { type: 'account', attributes: { name: 'Scraped' } } }] } } });
    const headers = { authorization: `Bearer ${api.org.token}`, 'content-type': MEDIA_TYPE };
    const response = await fetch(`${apiUrl}/api/v2/imports/actions/bulkUpsert`, { method: 'POST', headers, body });
    expect(response.status).toBe(200);
    const batchId = ((await response.json()) as { data: { id: string } }).data.id;
    await until('the batch to finish', async () => {
      const batch = (await (await fetch(`${apiUrl}/api/v2/batches/${batchId}`, { headers })).json()) as { data: { attributes: { state: string } } };
      return batch.data.attributes.state === 'pending' ? undefined : batch.data.attributes.state;
    });

    const after = await until(
      'Prometheus to see both counters move',
      async () => {
        const seen = { requests: await current(upsertRequests), jobs: await current(chunkJobs) };
        return seen.requests > before.requests && seen.jobs > before.jobs ? seen : undefined;
      },
      60_000,
    );
    expect(after.requests - before.requests).toBe(1);
    expect(after.jobs - before.jobs).toBe(1);
    // The worker's queue and pool gauges, and the API's pool, reached Prometheus too.
    expect(await prometheus.query('cadence_job_queue_due{job="cadence-worker"}')).toHaveLength(1);
    expect(await prometheus.query('cadence_db_pool_connections{job="cadence-worker"}')).toHaveLength(4);
    expect(await prometheus.query('sum(cadence_db_pool_connections{job="cadence-api"})')).toEqual([{ metric: {}, value: expect.any(Number) }]);
    // What the lead's closing note shows: the queries and Prometheus's answers.
    const shown = await Promise.all(
      [upsertRequests, chunkJobs, 'cadence_job_queue_due', 'cadence_db_pool_connections{job="cadence-api"}'].map(async (q) => ({
        query: q,
        result: await prometheus!.query(q),
      })),
    );
    console.log(JSON.stringify(shown));
  });
});
