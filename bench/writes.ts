// The write path. (b) single creates: POST /api/v2/prospects under autocannon, against the
// ceiling server's route that runs the same INSERT and event INSERT in one transaction. (a) bulk
// upsert: records through POST /api/v2/imports/actions/bulkUpsert, written by one real
// `cadence worker` child, timed from the first request until every batch is finished, against
// the same rows written straight into PostgreSQL by one INSERT ... SELECT FROM unnest(...)
// ON CONFLICT DO UPDATE per 1,000 rows. Each side writes into its own org of the seed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';
import { makeCertificate } from '../test/runtime/webhooks/certificates.js';
import { createWebhook, fetchBatchState, waitFor, webhookJobsWritten, type BatchState } from './batches.js';
import { measure, type LoadOptions, type LoadResult, type Target } from './load.js';
import { cpuMilliseconds, startChildProcess, type ChildProcessHandle } from './processes.js';
import { medianRound } from './report.js';
import { startReceiver, type Receiver } from './webhooks.js';

const MEDIA_TYPE = 'application/vnd.api+json';
const PROSPECTS = '/api/v2/prospects';
const BULK_UPSERT = '/api/v2/imports/actions/bulkUpsert';
/** The endpoint's limit on a request body: every request the benchmark sends is at most this. */
export const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
/** Rows per statement of the ceiling, as the chunk jobs write 1,000 records per job. */
const CEILING_ROWS_PER_STATEMENT = 1000;
/** Records of the warm-up batch, sent before the timing with the worker running. */
const WARM_UP_RECORDS = 200;
/** A batch is polled this often until it is finished. */
const POLL_MS = 200;
/** The bulk upsert gives up when no batch made progress for this long, or after the limit. */
const STALL_TIMEOUT_MS = 120_000;
const WAIT_LIMIT_MS = 600_000;

// ---- (b) single creates ----

export interface SingleCreateRound {
  readonly cadence: LoadResult;
  readonly ceiling: LoadResult;
  readonly ratio: number;
}

export interface SingleCreateResult {
  readonly rounds: readonly SingleCreateRound[];
  /** The round whose ratio is the median. */
  readonly median: SingleCreateRound;
  /** Sizes of one answer of each side (a 201 with the created record). */
  readonly cadenceBytes: number;
  readonly ceilingBytes: number;
  readonly body: string;
}

/** A create body: a few attributes and the account, the same for every request. */
export function singleCreateBody(accountId: number): string {
  return JSON.stringify({
    data: {
      type: 'prospect',
      attributes: { firstName: 'Ada', lastName: 'Lovelace', title: 'Head of Engineering', emails: ['ada.lovelace@analytical.example'], addressCity: 'London' },
      relationships: { account: { data: { type: 'account', id: accountId } } },
    },
  });
}

async function postOnce(target: Target, body: string): Promise<number> {
  const response = await fetch(`${target.baseUrl}${PROSPECTS}`, { method: 'POST', headers: target.headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${PROSPECTS} on ${target.baseUrl} answered ${response.status}: ${text.slice(0, 300)}`);
  return Buffer.byteLength(text);
}

/**
 * Rounds of POST /api/v2/prospects on both servers back to back, alternating which goes first;
 * every request creates a prospect (with its event) in the org both servers write to.
 */
export async function runSingleCreate(
  cadence: Target,
  ceiling: Target,
  accountId: number,
  rounds: number,
  load: LoadOptions,
  print: (line: string) => void,
): Promise<SingleCreateResult> {
  const body = singleCreateBody(accountId);
  const post = (target: Target): Target => ({ ...target, method: 'POST', body, paths: [PROSPECTS], headers: { ...target.headers, 'content-type': MEDIA_TYPE } });
  const cadenceBytes = await postOnce(post(cadence), body);
  const ceilingBytes = await postOnce(post(ceiling), body);
  const measured: SingleCreateRound[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [cadence, ceiling] : [ceiling, cadence];
    const results = new Map<Target, LoadResult>();
    for (const target of order) results.set(target, await measure(post(target), load));
    const pair = { cadence: results.get(cadence)!, ceiling: results.get(ceiling)! };
    measured.push({ ...pair, ratio: pair.cadence.requestsPerSecond / pair.ceiling.requestsPerSecond });
    print(`  POST ${PROSPECTS}, round ${round + 1}: ${Math.round(pair.cadence.requestsPerSecond)} req/s, ceiling ${Math.round(pair.ceiling.requestsPerSecond)} req/s`);
  }
  const median = medianRound(measured)!;
  return { rounds: measured, median, cadenceBytes, ceilingBytes, body };
}

// ---- (a) bulk upsert ----

/** One record to upsert: a create (no id) or an update of an existing prospect. */
interface PlannedRecord {
  readonly n: number;
  readonly id: number | undefined;
  readonly accountId: number;
}

const FIRST = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'John', 'Radia', 'Tim', 'Hedy', 'Linus', 'Shafi'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Backus', 'Perlman', 'Lee', 'Lamarr', 'Torvalds'];
const TITLES = ['CEO', 'CTO', 'VP of Sales', 'Head of Growth', 'Software Engineer', 'Data Engineer', 'Product Manager', 'Recruiter', 'Office Manager'];
const CITIES = ['London', 'Lisbon', 'Berlin', 'Nairobi', 'Osaka', 'Toronto', 'Austin', 'Bogota', 'Sydney', 'Warsaw', 'Pune'];

/** The values of record n: the same on both sides, so both write rows of the same shape. */
function valuesOf(n: number) {
  const firstName = FIRST[n % FIRST.length]!;
  const lastName = LAST[(n * 7 + 3) % LAST.length]!;
  return {
    firstName,
    lastName,
    name: `${firstName} ${lastName}`,
    title: TITLES[(n * 5 + 1) % TITLES.length]!,
    email: `${firstName}.${lastName}.${n}@bulk.example`.toLowerCase(),
    addressCity: CITIES[(n * 3 + 2) % CITIES.length]!,
  };
}

/**
 * `records` records, every other one an update of one of `updateIds` while they last, the
 * others creates; each points at one of the org's accounts.
 */
function planRecords(records: number, updateIds: readonly number[], accountIds: readonly number[], offset = 0): PlannedRecord[] {
  const planned: PlannedRecord[] = [];
  let updates = 0;
  for (let i = 0; i < records; i++) {
    const id = i % 2 === 1 && updates < updateIds.length ? updateIds[updates++] : undefined;
    planned.push({ n: offset + i, id, accountId: accountIds[(offset + i) % accountIds.length]! });
  }
  return planned;
}

function recordJson(record: PlannedRecord): string {
  const v = valuesOf(record.n);
  return JSON.stringify({
    data: {
      type: 'prospect',
      ...(record.id !== undefined && { id: String(record.id) }),
      attributes: { firstName: v.firstName, lastName: v.lastName, title: v.title, emails: [v.email], addressCity: v.addressCity },
      relationships: { account: { data: { type: 'account', id: String(record.accountId) } } },
      meta: { sourceId: `bench-${record.n}` },
    },
  });
}

const ENVELOPE_HEAD = '{"data":{"attributes":{"dupeMethod":"overwrite","records":[';
const ENVELOPE_TAIL = ']}}}';

/** The records as request bodies, each as many records as fit in MAX_REQUEST_BYTES. */
export function packRequests(records: readonly string[], maxBytes = MAX_REQUEST_BYTES): { body: string; records: number }[] {
  const requests: { body: string; records: number }[] = [];
  const overhead = Buffer.byteLength(ENVELOPE_HEAD) + Buffer.byteLength(ENVELOPE_TAIL);
  let current: string[] = [];
  let size = overhead;
  const flush = () => {
    if (current.length) requests.push({ body: `${ENVELOPE_HEAD}${current.join(',')}${ENVELOPE_TAIL}`, records: current.length });
    current = [];
    size = overhead;
  };
  for (const record of records) {
    const bytes = Buffer.byteLength(record) + (current.length ? 1 : 0);
    if (overhead + Buffer.byteLength(record) > maxBytes) throw new Error('a record does not fit in a request');
    if (size + bytes > maxBytes) flush();
    size += Buffer.byteLength(record) + (current.length ? 1 : 0);
    current.push(record);
  }
  flush();
  return requests;
}

export interface BulkOrg {
  readonly orgId: number;
  readonly token: string;
  readonly userId: number;
}

export interface BulkUpsertOptions {
  readonly apiUrl: string;
  /** The pid of `cadence serve`, whose CPU time is read. */
  readonly serverPid: number;
  /** The org Cadence upserts into. */
  readonly cadenceOrg: BulkOrg;
  /** Orgs the ceiling writes into, one run each (before and after Cadence's). */
  readonly ceilingOrgs: readonly BulkOrg[];
  readonly records: number;
  /** Whether the org has a webhook on prospect events (false: rows and events only, no jobs). */
  readonly webhook: boolean;
  /** A superuser connection: the ceiling's writes and the counts afterwards. */
  readonly sql: postgres.Sql;
  readonly workerEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly print: (line: string) => void;
}

export interface CeilingRun {
  readonly orgId: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  readonly statements: number;
}

export interface BulkUpsertResult {
  readonly records: number;
  readonly creates: number;
  readonly updates: number;
  readonly requests: readonly { readonly records: number; readonly bytes: number; readonly ms: number }[];
  /** First request sent to the last batch seen finished. */
  readonly seconds: number;
  readonly sendSeconds: number;
  readonly rowsPerSecond: number;
  /** Batches that ended `failed`, or were still not finished when the wait ended. */
  readonly unfinished: number;
  /** Items that ended in `error` (the batches' `failures`). */
  readonly failures: number;
  /** Rows of the org after the run minus before: the creates that were written. */
  readonly rowsCreated: number;
  readonly events: number;
  readonly webhookJobs: number;
  /** Deliveries the receiver got between the first request and the end of the timing. */
  readonly deliveriesDuringTiming: number;
  readonly workerCpuSeconds: number;
  readonly serverCpuSeconds: number;
  readonly concurrency: string;
  readonly webhook: boolean;
  readonly ceiling: readonly CeilingRun[];
  /** Mean of the ceiling runs' rows/s. */
  readonly ceilingRowsPerSecond: number;
  readonly ratio: number;
}

async function idsOf(sql: postgres.Sql, table: 'accounts' | 'prospects', orgId: number, limit: number): Promise<number[]> {
  if (limit <= 0) return [];
  const rows = await sql.unsafe<{ id: string | number }[]>(`select id from ${table} where org_id = $1 order by md5(id::text) limit $2`, [orgId, limit]);
  return rows.map((r) => Number(r.id));
}

// The ceiling: the rows and nothing else. Creates take their id from the table's own sequence.
const CEILING_UPSERT = `
  insert into prospects (org_id, id, first_name, last_name, name, title, emails, address_city, account_id, creator_id, updater_id)
  overriding system value
  select $1, coalesce(u.id, nextval('prospects_id_seq')), u.first_name, u.last_name, u.name, u.title, array[u.email], u.city, u.account_id, $2, $2
    from unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[])
         as u(id, first_name, last_name, name, title, email, city, account_id)
  on conflict (org_id, id) do update
     set first_name = excluded.first_name, last_name = excluded.last_name, name = excluded.name, title = excluded.title,
         emails = excluded.emails, address_city = excluded.address_city, account_id = excluded.account_id,
         updater_id = excluded.updater_id, updated_at = now()`;

async function ceilingRun(sql: postgres.Sql, org: BulkOrg, records: readonly PlannedRecord[]): Promise<CeilingRun> {
  const started = performance.now();
  let statements = 0;
  for (let from = 0; from < records.length; from += CEILING_ROWS_PER_STATEMENT) {
    const slice = records.slice(from, from + CEILING_ROWS_PER_STATEMENT);
    const values = slice.map((r) => ({ ...valuesOf(r.n), id: r.id ?? null, accountId: r.accountId }));
    await sql.unsafe(
      CEILING_UPSERT,
      [
        org.orgId,
        org.userId,
        values.map((v) => v.id),
        values.map((v) => v.firstName),
        values.map((v) => v.lastName),
        values.map((v) => v.name),
        values.map((v) => v.title),
        values.map((v) => v.email),
        values.map((v) => v.addressCity),
        values.map((v) => v.accountId),
      ] as never[],
      { prepare: true },
    );
    statements++;
  }
  const seconds = (performance.now() - started) / 1000;
  return { orgId: org.orgId, seconds, rowsPerSecond: records.length / seconds, statements };
}

async function send(options: BulkUpsertOptions, body: string): Promise<{ id: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${options.apiUrl}${BULK_UPSERT}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.cadenceOrg.token}`, 'content-type': MEDIA_TYPE },
    body,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${BULK_UPSERT} answered ${response.status}: ${text.slice(0, 300)}`);
  return { id: String((JSON.parse(text) as { data: { id: string | number } }).data.id), ms: performance.now() - started };
}

const done = (state: BatchState) => state.state === 'finished' || state.state === 'failed';

/**
 * Polls every batch until each is finished or failed, no batch has moved for STALL_TIMEOUT_MS,
 * or WAIT_LIMIT_MS have passed, or the worker exited; returns the last state of each and when
 * the last one was seen done.
 */
async function waitForBatches(options: BulkUpsertOptions, ids: readonly string[], worker: ChildProcessHandle): Promise<{ states: Map<string, BatchState>; at: number }> {
  const states = new Map<string, BatchState>();
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let progress = '';
  let lastProgress = Date.now();
  let at = performance.now();
  for (;;) {
    for (const id of ids) {
      const known = states.get(id);
      if (known && done(known)) continue;
      const state = await fetchBatchState({ apiUrl: options.apiUrl, token: options.cadenceOrg.token }, id);
      states.set(id, state);
      if (done(state)) at = performance.now();
    }
    if (ids.every((id) => done(states.get(id)!))) return { states, at };
    const now = ids.map((id) => `${states.get(id)!.state}:${states.get(id)!.pending}`).join(',');
    if (now !== progress) {
      progress = now;
      lastProgress = Date.now();
    }
    if (worker.exited() || Date.now() > deadline || Date.now() - lastProgress > STALL_TIMEOUT_MS) return { states, at: performance.now() };
    await sleep(POLL_MS);
  }
}

/** Sends `bodies` one after another and waits for their batches; the timing of the run. */
async function upsertThroughApi(options: BulkUpsertOptions, bodies: readonly string[], worker: ChildProcessHandle) {
  const started = performance.now();
  const sent: { id: string; ms: number }[] = [];
  for (const body of bodies) sent.push(await send(options, body));
  const sendSeconds = (performance.now() - started) / 1000;
  const { states, at } = await waitForBatches(
    options,
    sent.map((s) => s.id),
    worker,
  );
  return { sent, sendSeconds, seconds: (at - started) / 1000, states: [...states.values()] };
}

async function countOf(sql: postgres.Sql, text: string, params: unknown[]): Promise<number> {
  const [row] = await sql.unsafe<{ n: number }[]>(text, params as never[]);
  return Number(row!.n);
}

export async function runBulkUpsert(options: BulkUpsertOptions): Promise<BulkUpsertResult> {
  const { sql, print } = options;
  const updatesWanted = Math.floor(options.records / 2);
  // The same plan on every side: record n has the same values, an update of a prospect of its own org.
  const planFor = async (org: BulkOrg) =>
    planRecords(options.records, await idsOf(sql, 'prospects', org.orgId, updatesWanted), await idsOf(sql, 'accounts', org.orgId, 1000));
  const cadencePlan = await planFor(options.cadenceOrg);
  const creates = cadencePlan.filter((r) => r.id === undefined).length;
  const requests = packRequests(cadencePlan.map(recordJson));
  print(
    `  ${options.records} records (${creates} creates, ${options.records - creates} updates, dupeMethod overwrite) in ${requests.length} requests of at most ${(MAX_REQUEST_BYTES / 1024 / 1024).toFixed(0)} MiB`,
  );

  const ceiling: CeilingRun[] = [];
  const ceilingOnce = async (org: BulkOrg) => {
    // Its own warm-up too, as Cadence's: the statement prepared and the org's pages read once.
    await ceilingRun(sql, org, planRecords(WARM_UP_RECORDS, [], await idsOf(sql, 'accounts', org.orgId, 1000), options.records));
    const run = await ceilingRun(sql, org, await planFor(org));
    ceiling.push(run);
    print(`  ceiling, org ${org.orgId}: ${run.statements} statements, ${run.seconds.toFixed(1)} s, ${Math.round(run.rowsPerSecond)} rows/s`);
  };
  const [before, after] = options.ceilingOrgs;

  const folder = await mkdtemp(join(tmpdir(), 'cadence-bench-writes-'));
  let receiver: Receiver | undefined;
  let worker: ChildProcessHandle | undefined;
  try {
    // A webhook on every prospect event, delivered by the worker to a receiver on 127.0.0.1.
    const certificate = await makeCertificate('127.0.0.1');
    const caFile = join(folder, 'receiver-cert.pem');
    await writeFile(caFile, certificate.cert);
    receiver = await startReceiver(certificate);
    const webhookId = options.webhook
      ? await createWebhook({ apiUrl: options.apiUrl, token: options.cadenceOrg.token }, `https://127.0.0.1:${receiver.port}/`)
      : undefined;
    const env = options.workerEnv({ LOG_LEVEL: 'warn', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: caFile });
    const concurrency = env.WORKER_CONCURRENCY ? env.WORKER_CONCURRENCY : '4 (default)';
    worker = startChildProcess('cadence worker', { args: ['bin/cadence.js', 'worker'], env, cwd: options.cwd });

    // A small batch first: the worker is up, its connections open and its code warm.
    const warmUpIds = await idsOf(sql, 'accounts', options.cadenceOrg.orgId, 1000);
    const warmUp = packRequests(planRecords(WARM_UP_RECORDS, [], warmUpIds, options.records).map(recordJson));
    const warm = await upsertThroughApi(
      options,
      warmUp.map((r) => r.body),
      worker,
    );
    if (warm.states.some((s) => s.state !== 'finished')) throw new Error(`the warm-up batch did not finish: ${JSON.stringify(warm.states)}`);
    print(
      `  warm-up: ${WARM_UP_RECORDS} creates finished in ${warm.seconds.toFixed(1)} s; ${webhookId === undefined ? 'no webhook' : `webhook ${webhookId} on prospect.* -> 127.0.0.1:${receiver.port}`}; WORKER_CONCURRENCY=${concurrency}`,
    );
    // Let the warm-up's deliveries drain, so that the timing starts with an empty queue.
    if (webhookId !== undefined) await waitFor(() => receiver!.deliveries.length >= WARM_UP_RECORDS, 60_000);
    // The first ceiling run here, with the worker idle: an endpoint that fails has failed by now.
    if (before) await ceilingOnce(before);

    const org = options.cadenceOrg.orgId;
    const [counts] = await sql.unsafe<{ events: string; prospects: string }[]>(
      `select (select coalesce(max(id), 0) from events where org_id = $1) as events, (select count(*) from prospects where org_id = $1) as prospects`,
      [org],
    );
    const eventsBefore = Number(counts!.events);
    const prospectsBefore = Number(counts!.prospects);
    const deliveriesBefore = receiver.deliveries.length;
    const workerCpu = cpuMilliseconds(worker.pid);
    const serverCpu = cpuMilliseconds(options.serverPid);
    const run = await upsertThroughApi(
      options,
      requests.map((r) => r.body),
      worker,
    );
    const workerCpuSeconds = (cpuMilliseconds(worker.pid) - workerCpu) / 1000;
    const serverCpuSeconds = (cpuMilliseconds(options.serverPid) - serverCpu) / 1000;
    const deliveriesDuringTiming = receiver.deliveries.length - deliveriesBefore;
    print(
      `  cadence, org ${org}: ${run.sent.length} requests sent in ${run.sendSeconds.toFixed(1)} s, every batch done ${run.seconds.toFixed(1)} s after the first (${Math.round(options.records / run.seconds)} rows/s)`,
    );
    // The deliveries still queued are not waited for: they are not part of the timing.
    await worker.stop();

    const events = await countOf(sql, `select count(*) as n from events where org_id = $1 and id > $2 and resource_type = 'prospect'`, [org, eventsBefore]);
    const rowsCreated = (await countOf(sql, `select count(*) as n from prospects where org_id = $1`, [org])) - prospectsBefore;
    const webhookJobs = webhookId === undefined ? 0 : await webhookJobsWritten(sql, org, webhookId, eventsBefore);

    if (after) await ceilingOnce(after);
    const ceilingRowsPerSecond = ceiling.reduce((sum, c) => sum + c.rowsPerSecond, 0) / Math.max(ceiling.length, 1);
    const rowsPerSecond = options.records / run.seconds;
    return {
      records: options.records,
      creates,
      updates: options.records - creates,
      requests: requests.map((r, i) => ({ records: r.records, bytes: Buffer.byteLength(r.body), ms: run.sent[i]!.ms })),
      seconds: run.seconds,
      sendSeconds: run.sendSeconds,
      rowsPerSecond,
      unfinished: run.states.filter((s) => s.state !== 'finished').length,
      failures: run.states.reduce((n, s) => n + s.failures, 0),
      rowsCreated,
      events,
      webhookJobs,
      deliveriesDuringTiming,
      workerCpuSeconds,
      serverCpuSeconds,
      concurrency,
      webhook: options.webhook,
      ceiling,
      ceilingRowsPerSecond,
      ratio: rowsPerSecond / ceilingRowsPerSecond,
    };
  } finally {
    await worker?.stop();
    await receiver?.close();
    await rm(folder, { recursive: true, force: true });
  }
}
