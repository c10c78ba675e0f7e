/**
 * npm run bench: seeds 1,000,000 prospects over 10 orgs, runs `cadence serve` in a child
 * process and a bare ceiling server (bench/ceiling-server.ts) in another, drives each with
 * autocannon on 127.0.0.1, and prints req/s and latency against the ceiling, the largest RSS of
 * the Cadence process, and which targets are met. It reports and always exits 0 once it has
 * run; only a failure to run at all exits non-zero.
 *
 * Besides prospects, it measures custom objects (1,000,000 `booking` records, each list request
 * compared with the same request on prospects) and webhook deliveries (one `cadence worker` to
 * an HTTPS receiver in this process), and writes (single creates against a ceiling, and bulk
 * upserts through one `cadence worker` against plain SQL upserts), in orgs the reads do not use,
 * and bulk actions (modify and destroy over 100,000 prospects of orgs of their own, through one
 * `cadence worker`, against plain UPDATE and DELETE statements), and a CSV import (100,000
 * prospects through the five import steps over HTTP and one `cadence worker`, against COPY), and
 * sequence steps (10,000 states whose step is due at the same moment, run by one `cadence worker`),
 * and e-mail (10,000 mailings due at the same moment sent by one `cadence worker` to an SMTP server
 * in this process, then their tracking pixel under load against a bare route).
 * And the request rate limit's cost: a list page on a `cadence serve` with it on against one with it off.
 * BENCH_ONLY=prospects,custom,rateLimit,webhooks,writes,bulkActions,imports,sequences,mail runs only some parts.
 *
 * BENCH_PROSPECTS_PER_ORG, BENCH_CUSTOM_RECORDS_PER_ORG, BENCH_SECONDS, BENCH_WEBHOOK_EVENTS,
 * BENCH_WEBHOOK_WRITES, BENCH_UPSERT_RECORDS, BENCH_ACTIONS_RECORDS, IMPORT_RECORDS,
 * BENCH_SEQUENCE_STATES and BENCH_MAILINGS shrink a run for trying the benchmark itself out.
 */
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { CreatedOrg } from '../runtime/admin/index.js';
import { connectDatabase } from '../runtime/db/client.js';
import type { CeilingConfig, Variant } from './ceiling-server.js';
import { buildCustomPairs, runCustomPairs } from './custom-scenarios.js';
import { BOOKING_NAME, seedBookings, type SeededBookings } from './custom-seed.js';
import { openBenchDatabase, type BenchDatabase } from './database.js';
import { measure, stopLoad, type LoadResult, type Target } from './load.js';
import { MAX_ACTION_RECORDS, runBulkActions } from './bulk-actions.js';
import { runImports } from './imports.js';
import { mailPart } from './mail.js';
import { runSequences } from './sequences.js';
import { BENCH_RATE_LIMIT_PER_HOUR, rateLimitTable, rateLimitTargetLine, runRateLimitBench } from './rate-limit.js';
import { benchParts } from './parts.js';
import { emptyQueue } from './queue.js';
import { killChildren, sampleRss, startChildServer, type ChildServer } from './processes.js';
import {
  customTable,
  customTargetLines,
  medianRound,
  resultsTable,
  rssLine,
  targetsLines,
  variantsTable,
  webhooksTable,
  singleCreateTable,
  singleCreateTargetLine,
  type ScenarioResult,
  type VariantRow,
} from './report.js';
import {
  bulkActionsTable,
  bulkActionsTargetLines,
  bulkUpsertTable,
  bulkUpsertTargetLine,
  importsTable,
  importsTargetLines,
  sequencesTable,
  sequencesTargetLines,
} from './report-writes.js';
import { buildScenarios, type Scenario } from './scenarios.js';
import { seedDatabase } from './seed.js';
import { runWebhookBench } from './webhooks.js';
import { runBulkUpsert, runSingleCreate, type BulkUpsertResult } from './writes.js';

const SEED = { orgs: 10, accountsPerOrg: 1_000, prospectsPerOrg: Number(process.env.BENCH_PROSPECTS_PER_ORG || 100_000) };
const LOAD = { connections: 50, seconds: Number(process.env.BENCH_SECONDS || 10), warmUpSeconds: 2 };
/**
 * Rounds of each prospects scenario; each round measures Cadence and the ceiling back to back,
 * alternating which goes first, and the scenario's ratio is the median round's.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 3));
const CUSTOM_RECORDS_PER_ORG = Number(process.env.BENCH_CUSTOM_RECORDS_PER_ORG || 100_000);
/** Rounds of each custom-object comparison; each round measures both sides once. */
const CUSTOM_ROUNDS = Number(process.env.BENCH_CUSTOM_ROUNDS || 2);
const WEBHOOKS = {
  events: Number(process.env.BENCH_WEBHOOK_EVENTS || 2000),
  enqueueConcurrency: 16,
  writes: Number(process.env.BENCH_WEBHOOK_WRITES || 1000),
  writeRate: process.env.BENCH_WEBHOOK_WRITE_RATE ? Number(process.env.BENCH_WEBHOOK_WRITE_RATE) : undefined,
  compareEvents: Number(process.env.BENCH_WEBHOOK_COMPARE_EVENTS ?? 1000),
};
/** Records of the bulk upsert, half creates and half updates of prospects of the org. */
const UPSERT_RECORDS = Number(process.env.BENCH_UPSERT_RECORDS || 100_000);
/** BENCH_UPSERT_WEBHOOK=0: no webhook on the bulk org (rows and events only: no jobs, no deliveries). */
const UPSERT_WEBHOOK = process.env.BENCH_UPSERT_WEBHOOK !== '0';
/** Prospects each bulk action selects (and each of its ceilings writes); at most 100,000, the actions' limit. */
const ACTIONS_RECORDS = Math.min(Number(process.env.BENCH_ACTIONS_RECORDS || MAX_ACTION_RECORDS), MAX_ACTION_RECORDS);
/** Rows of the CSV the imports part imports (and of each of its COPY ceilings). */
const IMPORT_RECORDS = Number(process.env.IMPORT_RECORDS || 100_000);
/** Sequence states whose step is due at the same moment, one prospect each. */
const SEQUENCE_STATES = Number(process.env.BENCH_SEQUENCE_STATES || 10_000);
/** Mailings due at the same moment, one prospect each. */
const MAILINGS = Number(process.env.BENCH_MAILINGS || 10_000);
/**
 * The orgs (indexes into the seeded ones) the writes part writes to, none of them the org the
 * reads use: single creates (both servers), the bulk upsert through Cadence, and the ceiling's
 * two bulk runs, one before Cadence's and one after.
 */
const WRITE_ORGS = { single: 9, bulk: 6, bulkCeiling: [7, 8] };
/** Which parts run: BENCH_ONLY=prospects,custom,rateLimit,webhooks,writes,bulkActions,imports,sequences,mail (any of them); all when unset. */
const PARTS = (() => {
  try {
    return benchParts(process.env.BENCH_ONLY);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
})();
/** The scenarios whose database work is broken down with the ceiling's variants. */
const BREAKDOWN = ['GET one prospect', 'list, page of 50'];
const BREAKDOWN_VARIANTS: { variant: Variant; label: string }[] = [
  { variant: 'tx', label: 'ceiling + BEGIN/COMMIT' },
  { variant: 'rls', label: 'ceiling + BEGIN, set_config, COMMIT' },
  { variant: 'auth', label: 'ceiling + token lookup, BEGIN, set_config, COMMIT (all of the DB work)' },
  { variant: 'pipelined', label: 'same, BEGIN+set_config+query+COMMIT in one round trip (a one-statement read cannot do better)' },
];
/** The whole run is stopped after this long, whatever it is doing (the bulk actions alone take about 8 minutes). */
const WATCHDOG_MS = 45 * 60_000;
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What has to be stopped or removed at the end, on a signal, or by the watchdog. */
interface RunState {
  database?: BenchDatabase;
  servers: ChildServer[];
  interrupted?: boolean;
}

const print = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/**
 * The environment of the servers: ours, with links left on each request's own origin, and a
 * request rate limit (on, as deployments run) that the benchmark's millions of requests never reach.
 */
function serverEnv(databaseUrl: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, RATE_LIMIT_PER_HOUR: BENCH_RATE_LIMIT_PER_HOUR, ...extra };
  delete env.PUBLIC_BASE_URL;
  return env;
}

/**
 * Fetches a path from both servers: a 200 from each, with the same body, links' origin and
 * cursors aside (a cursor is sealed with a random IV, so no two are the same bytes)? Also the
 * size of Cadence's document, which grows with every attribute a resource has.
 */
async function compareBodies(path: string, cadence: Target, ceiling: Target): Promise<{ same: boolean; bytes: number }> {
  const text = async (target: Target) => {
    const response = await fetch(`${target.baseUrl}${path}`, { headers: target.headers, signal: AbortSignal.timeout(10_000) });
    const body = (await response.text()).replaceAll(target.baseUrl, 'ORIGIN').replace(/(page%5B(?:after|before)%5D=)[A-Za-z0-9_-]+/g, '$1CURSOR');
    return { status: response.status, body };
  };
  const ours = await text(cadence);
  const theirs = await text(ceiling);
  return { same: ours.status === 200 && theirs.status === 200 && ours.body === theirs.body, bytes: Buffer.byteLength(ours.body) };
}

/** Other work on the machine skews every figure; the load average tells how much there was. */
function machineLoad(): string {
  return `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
}

async function runScenario(scenario: Scenario, cadence: Target, ceiling: Target): Promise<ScenarioResult> {
  const { same, bytes } = await compareBodies(scenario.paths[0]!, cadence, ceiling);
  const rounds: { cadence: LoadResult; ceiling: LoadResult; ratio: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating the order spreads a slow stretch of the machine over both sides.
    const order = round % 2 === 0 ? [cadence, ceiling] : [ceiling, cadence];
    const measured = new Map<Target, LoadResult>();
    for (const target of order) measured.set(target, await measure({ ...target, paths: scenario.paths }, LOAD));
    const pair = { cadence: measured.get(cadence)!, ceiling: measured.get(ceiling)! };
    rounds.push({ ...pair, ratio: pair.cadence.requestsPerSecond / pair.ceiling.requestsPerSecond });
    print(
      `  ${scenario.name}, round ${round + 1}: ${Math.round(pair.cadence.requestsPerSecond)} req/s, ceiling ${Math.round(pair.ceiling.requestsPerSecond)} req/s${same ? '' : ' (bodies differ!)'}`,
    );
  }
  const median = medianRound(rounds)!;
  return { scenario, cadence: median.cadence, ceiling: median.ceiling, ratios: rounds.map((r) => r.ratio), sameBody: same, documentBytes: bytes };
}

async function breakdown(scenarios: Scenario[], results: ScenarioResult[], ceiling: Target, token: string): Promise<VariantRow[]> {
  const chosen = BREAKDOWN.map((name) => scenarios.find((s) => s.name === name)!);
  const pick = (f: (r: ScenarioResult) => LoadResult) => chosen.map((s) => f(results.find((r) => r.scenario === s)!));
  const rows: VariantRow[] = [{ label: 'ceiling (one statement)', results: pick((r) => r.ceiling) }];
  for (const { variant, label } of BREAKDOWN_VARIANTS) {
    const headers = { authorization: `Bearer ${token}`, 'x-bench-variant': variant };
    const measured: LoadResult[] = [];
    for (const scenario of chosen) measured.push(await measure({ ...ceiling, headers, paths: scenario.paths }, LOAD));
    print(`  ${label}: ${measured.map((r) => `${Math.round(r.requestsPerSecond)} req/s`).join(', ')}`);
    rows.push({ label, results: measured });
  }
  rows.push({ label: 'cadence serve', results: pick((r) => r.cadence) });
  return rows;
}

/**
 * The prospects scenarios against the ceiling, and where the time goes: prints as it goes.
 * Returns its report and its results (the writes part shows GET one next to its POST).
 */
async function prospectsPart(state: RunState, database: BenchDatabase, org: CreatedOrg, cadence: Target): Promise<{ report: () => void; results: ScenarioResult[] }> {
  const sql = connectDatabase(database.url, { max: 1 });
  const scenarios = await buildScenarios(sql, org.orgId, { url: cadence.baseUrl, token: org.token }).finally(() => sql.end({ timeout: 5 }));
  const ceilingConfig: CeilingConfig = {
    orgId: org.orgId,
    lists: scenarios.filter((s) => s.list).flatMap((s) => s.paths.map((p) => (p.includes('?') ? p.slice(p.indexOf('?') + 1) : ''))),
  };
  const ceilingServer = await startChildServer('ceiling server', {
    args: ['--import', 'tsx', 'bench/ceiling-server.ts'],
    env: serverEnv(database.url, { BENCH_CEILING: JSON.stringify(ceilingConfig) }),
    cwd: REPO_ROOT,
    ipc: true,
  });
  state.servers.push(ceilingServer);
  const ceiling: Target = { baseUrl: ceilingServer.url, pid: ceilingServer.pid, paths: [], headers: {} };
  print(
    `\nprospects: ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up + ${LOAD.seconds} s per scenario, server and round, ${ROUNDS} rounds, org ${org.orgId} (${SEED.prospectsPerOrg} prospects); ${machineLoad()}`,
  );
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) results.push(await runScenario(scenario, cadence, ceiling));

  print("\nwhere the time goes: the ceiling with Cadence's per-request database work added back");
  const variants = await breakdown(scenarios, results, ceiling, org.token);
  await ceilingServer.stop();
  const report = () => {
    print(`\n## Prospects (${SEED.orgs * SEED.prospectsPerOrg} prospects, ${LOAD.connections} connections, ${LOAD.seconds} s each)\n`);
    print(resultsTable(results));
    print('');
    print(variantsTable(BREAKDOWN, variants));
    print('\ntargets:');
    for (const line of targetsLines(results)) print(line);
  };
  return { report, results };
}

/** Bookings (a custom object) against the same requests on prospects, on cadence serve. */
async function customPart(database: BenchDatabase, org: CreatedOrg, bookings: SeededBookings, cadence: Target): Promise<() => void> {
  const sql = connectDatabase(database.url, { max: 1 });
  const pairs = await buildCustomPairs(sql, org.orgId, bookings.definitionIds.get(org.orgId)!, bookings.slots).finally(() => sql.end({ timeout: 5 }));
  print(
    `\ncustom objects: ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up + ${LOAD.seconds} s per request and round, ${CUSTOM_ROUNDS} rounds alternating which goes first, org ${org.orgId}; ${machineLoad()}`,
  );
  const results = await runCustomPairs(pairs, cadence, LOAD, CUSTOM_ROUNDS, print);
  return () => {
    print(
      `\n## Custom objects (${bookings.records} booking records, slots ${Object.entries(bookings.slots)
        .map(([f, s]) => `${f}=${s}`)
        .join(' ')}; cadence serve, mean of ${CUSTOM_ROUNDS} rounds)\n`,
    );
    print(customTable(results));
    print('\ntargets:');
    for (const line of customTargetLines(results)) print(line);
  };
}

/** A list page on `cadence serve` with the request rate limit on, against one with it off. */
async function rateLimitPart(state: RunState, database: BenchDatabase, org: CreatedOrg): Promise<() => void> {
  print(
    `\nrate limit: ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up + ${LOAD.seconds} s per server and round, ${ROUNDS} rounds alternating which goes first, org ${org.orgId}; ${machineLoad()}`,
  );
  const result = await runRateLimitBench({
    token: org.token,
    rounds: ROUNDS,
    load: LOAD,
    serverEnv: (extra) => serverEnv(database.url, extra),
    cwd: REPO_ROOT,
    print,
    servers: state.servers,
  });
  return () => {
    print(`\n## Request rate limit (list, page of 50; cadence serve with it on against one with it off, median of ${ROUNDS} rounds)\n`);
    print(rateLimitTable(result));
    print('\ntargets:');
    print(rateLimitTargetLine(result));
  };
}

/** Deliveries per second of one worker, and event-to-delivery latency under writes. */
async function webhooksPart(database: BenchDatabase, org: CreatedOrg, cadence: Target): Promise<() => void> {
  print(`\nwebhooks: org ${org.orgId}; ${machineLoad()}`);
  const sql = connectDatabase(database.url, { max: 1 });
  try {
    const result = await runWebhookBench({
      apiUrl: cadence.baseUrl,
      token: org.token,
      orgId: org.orgId,
      events: WEBHOOKS.events,
      enqueueConcurrency: WEBHOOKS.enqueueConcurrency,
      writes: WEBHOOKS.writes,
      writeRate: WEBHOOKS.writeRate,
      compareEvents: WEBHOOKS.compareEvents,
      workerEnv: (extra) => serverEnv(database.url, extra),
      cwd: REPO_ROOT,
      sql,
      print,
    });
    return () => {
      print('\n## Webhook deliveries (HTTPS receiver on 127.0.0.1 in the benchmark process)\n');
      print(webhooksTable(result));
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Single creates against the ceiling's create, then the bulk upsert against plain SQL upserts,
 * each in orgs of its own (WRITE_ORGS). `getOne` is the prospects part's GET one, when it ran.
 */
async function writesPart(
  state: RunState,
  database: BenchDatabase,
  orgs: readonly CreatedOrg[],
  cadenceServer: ChildServer,
  getOne: ScenarioResult | undefined,
): Promise<() => void> {
  const single = orgs[WRITE_ORGS.single]!;
  const sql = connectDatabase(database.url, { max: 1 });
  try {
    const [account] = await sql<{ id: number }[]>`select id from accounts where org_id = ${single.orgId} order by id limit 1`;
    const ceilingConfig: CeilingConfig = { orgId: single.orgId, lists: [], userId: single.userId };
    const ceilingServer = await startChildServer('ceiling server', {
      args: ['--import', 'tsx', 'bench/ceiling-server.ts'],
      env: serverEnv(database.url, { BENCH_CEILING: JSON.stringify(ceilingConfig) }),
      cwd: REPO_ROOT,
      ipc: true,
    });
    state.servers.push(ceilingServer);
    print(
      `\nwrites (b): POST /api/v2/prospects, ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up + ${LOAD.seconds} s per server and round, ${ROUNDS} rounds, org ${single.orgId}; ${machineLoad()}`,
    );
    const cadence: Target = { baseUrl: cadenceServer.url, pid: cadenceServer.pid, paths: [], headers: { authorization: `Bearer ${single.token}` } };
    const ceiling: Target = { baseUrl: ceilingServer.url, pid: ceilingServer.pid, paths: [], headers: {} };
    const created = await runSingleCreate(cadence, ceiling, Number(account!.id), ROUNDS, LOAD, print);
    await ceilingServer.stop();

    const bulkOrg = orgs[WRITE_ORGS.bulk]!;
    print(`\nwrites (a): bulk upsert, org ${bulkOrg.orgId}, ceiling in orgs ${WRITE_ORGS.bulkCeiling.map((i) => orgs[i]!.orgId).join(' and ')}; ${machineLoad()}`);
    let bulk: BulkUpsertResult | undefined;
    let bulkError: string | undefined;
    try {
      bulk = await runBulkUpsert({
        apiUrl: cadenceServer.url,
        serverPid: cadenceServer.pid,
        cadenceOrg: bulkOrg,
        ceilingOrgs: WRITE_ORGS.bulkCeiling.map((i) => orgs[i]!),
        records: UPSERT_RECORDS,
        webhook: UPSERT_WEBHOOK,
        sql,
        workerEnv: (extra) => serverEnv(database.url, extra),
        cwd: REPO_ROOT,
        print,
      });
    } catch (error) {
      if (state.interrupted) throw error;
      bulkError = error instanceof Error ? error.message : String(error);
      print(`  bulk upsert not measured: ${bulkError}`);
    }
    return () => {
      print(`\n## Writes\n\n(b) single creates, ${LOAD.connections} connections, ${LOAD.seconds} s each, ${ROUNDS} rounds alternating which server goes first\n`);
      print(singleCreateTable(created, getOne));
      print(
        UPSERT_WEBHOOK
          ? `\n(a) bulk upsert (deliveries to a receiver on 127.0.0.1 run in the same worker as they come up in the queue, so those are part of the timing; the ones still queued when the last batch finishes are not waited for)\n`
          : `\n(a) bulk upsert, BENCH_UPSERT_WEBHOOK=0: no webhook, so no delivery jobs and no deliveries\n`,
      );
      if (bulk) print(bulkUpsertTable(bulk));
      else print(`not measured: ${bulkError}`);
      print('\ntargets:');
      print(singleCreateTargetLine(created, getOne));
      print(bulk ? bulkUpsertTargetLine(bulk) : `- bulk upsert >= 0.3x ceiling rows/s: NOT MET (not measured: ${bulkError})`);
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** prospectsBulkModify and prospectsDestroyAll through one worker, in orgs it seeds itself. */
async function bulkActionsPart(state: RunState, database: BenchDatabase, cadenceServer: ChildServer): Promise<() => void> {
  print(`\nbulk actions: ${ACTIONS_RECORDS} prospects per action, in new orgs; ${machineLoad()}`);
  const sql = connectDatabase(database.url, { max: 1 });
  try {
    const result = await runBulkActions({
      apiUrl: cadenceServer.url,
      serverPid: cadenceServer.pid,
      records: ACTIONS_RECORDS,
      sql,
      workerEnv: (extra) => serverEnv(database.url, extra),
      cwd: REPO_ROOT,
      print,
    });
    return () => {
      print(
        '\n## Bulk actions\n\nPOST /api/v2/batches/actions/<name>?actionParams[skipConfirmation]=true over every prospect of an org, timed until the batch is finished (deliveries run in the same worker as they come up in the queue; those still queued when the batch is finished are outside the timing, and are made before the next measurement). prospectsBulkModify and its UPDATE ceiling run in rounds, alternating which goes first; the ratio is that of the median round\n',
      );
      print(bulkActionsTable(result));
      print('\ntargets:');
      for (const line of bulkActionsTargetLines(result)) print(line);
    };
  } catch (error) {
    if (state.interrupted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    print(`  bulk actions not measured: ${message}`);
    return () => print(`\n## Bulk actions\n\nnot measured: ${message}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A CSV of prospects through the five import steps and one worker, against COPY, in new orgs. */
async function importsPart(state: RunState, database: BenchDatabase, cadenceServer: ChildServer): Promise<() => void> {
  print(`\nimports: a CSV of ${IMPORT_RECORDS} prospects, in new orgs; ${machineLoad()}`);
  const sql = connectDatabase(database.url, { max: 1 });
  try {
    const result = await runImports({
      apiUrl: cadenceServer.url,
      serverPid: cadenceServer.pid,
      records: IMPORT_RECORDS,
      sql,
      workerEnv: (extra) => serverEnv(database.url, extra),
      cwd: REPO_ROOT,
      print,
    });
    return () => {
      print(
        `\n## CSV import\n\ngenerateUploadLink, PUT, validateUpload, then POST /api/v2/imports/actions/prospectsImport timed until GET /api/v2/imports/<id> says \`finished\`; the worker's RSS sampled every 100 ms meanwhile. In rounds, each import between two COPYs and compared with the faster of them; the ratio is the median round's\n`,
      );
      print(importsTable(result));
      print('\ntargets:');
      for (const line of importsTargetLines(result)) print(line);
    };
  } catch (error) {
    if (state.interrupted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    print(`  imports not measured: ${message}`);
    return () => print(`\n## CSV import\n\nnot measured: ${message}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** STATES sequence steps due at the same moment through one worker, in new orgs. */
async function sequencesPart(state: RunState, database: BenchDatabase, cadenceServer: ChildServer): Promise<() => void> {
  print(`\nsequences: ${SEQUENCE_STATES} states whose step is due at the same moment, in new orgs; ${machineLoad()}`);
  const sql = connectDatabase(database.url, { max: 1 });
  try {
    const result = await runSequences({
      apiUrl: cadenceServer.url,
      states: SEQUENCE_STATES,
      sql,
      workerEnv: (extra) => serverEnv(database.url, extra),
      cwd: REPO_ROOT,
      print,
    });
    return () => {
      print(
        `\n## Sequence steps\n\n${SEQUENCE_STATES} states enrolled by prospectsAddToSequence, their second \`auto_email\` step made due at one instant, timed from that instant until every one has run (sequence_step_runs); lateness = ran_at - due_at of each step\n`,
      );
      print(sequencesTable(result));
      for (const line of sequencesTargetLines(result)) print(line);
    };
  } catch (error) {
    if (state.interrupted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    print(`  sequences not measured: ${message}`);
    return () => print(`\n## Sequence steps\n\nnot measured: ${message}\n${sequencesTargetLines({ concurrency: '', run: undefined, errors: [message] }).join('\n')}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Before a part that runs a worker: the job queue emptied of what earlier parts left (queue.ts), said as it goes. */
async function fromEmptyQueue(database: BenchDatabase, part: string): Promise<void> {
  const sql = connectDatabase(database.url, { max: 1 });
  try {
    print(`\n${part}: ${await emptyQueue(sql)}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function run(state: RunState): Promise<void> {
  const started = performance.now();
  print(`parts: ${[...PARTS].join(', ')}; ${machineLoad()}`);
  state.database = await openBenchDatabase(process.env);
  const database = state.database;
  print(`database: ${database.description}`);

  // Custom objects point at prospects and are compared with them: they need the prospects too.
  // Bulk upserts update prospects of their orgs: the writes part needs them too.
  const seedSize = PARTS.has('prospects') || PARTS.has('custom') || PARTS.has('rateLimit') || PARTS.has('writes') ? SEED : { ...SEED, prospectsPerOrg: 0 };
  const seedStarted = performance.now();
  const seeded = await seedDatabase(database.url, seedSize);
  print(
    `seeded ${seedSize.orgs} orgs, ${seedSize.orgs * seedSize.accountsPerOrg} accounts, ${seedSize.orgs * seedSize.prospectsPerOrg} prospects (with VACUUM ANALYZE) in ${seconds(seedStarted)} s`,
  );
  let bookings: SeededBookings | undefined;
  if (PARTS.has('custom')) {
    const customStarted = performance.now();
    bookings = await seedBookings(database.url, seeded.orgs, CUSTOM_RECORDS_PER_ORG);
    print(`seeded ${bookings.records} ${BOOKING_NAME} records (${CUSTOM_RECORDS_PER_ORG} per org, indexes rebuilt, VACUUM ANALYZE) in ${seconds(customStarted)} s`);
  }
  const org = seeded.orgs[Math.floor(seeded.orgs.length / 2)]!;

  const cadenceServer = await startChildServer('cadence serve', {
    args: ['bin/cadence.js', 'serve'],
    env: serverEnv(database.url, { CADENCE_IN_PROCESS_WORKER: 'false', LOG_LEVEL: 'warn' }),
    cwd: REPO_ROOT,
  });
  state.servers.push(cadenceServer);
  const rss = sampleRss(cadenceServer.pid);
  const cadence: Target = { baseUrl: cadenceServer.url, pid: cadenceServer.pid, paths: [], headers: { authorization: `Bearer ${org.token}` } };

  // Each part prints its progress as it runs, and its tables at the end, all together.
  const reports: (() => void)[] = [];
  let getOne: ScenarioResult | undefined;
  if (PARTS.has('prospects')) {
    const prospects = await prospectsPart(state, database, org, cadence);
    reports.push(prospects.report);
    getOne = prospects.results.find((r) => r.scenario.name === 'GET one prospect');
  }
  if (PARTS.has('custom')) reports.push(await customPart(database, org, bookings!, cadence));
  if (PARTS.has('rateLimit')) reports.push(await rateLimitPart(state, database, org));
  // Writes last: the webhook part adds accounts and events to the org the others read.
  if (PARTS.has('webhooks')) {
    await fromEmptyQueue(database, 'webhooks');
    reports.push(await webhooksPart(database, org, cadence));
  }
  // Writes in orgs of their own, after every read.
  // The RSS during the writes alone too: 2 MB bulk bodies and 50 POSTs at once are new to the process.
  const beforeWrites = rss.maxMb();
  const writesRss = PARTS.has('writes') ? sampleRss(cadenceServer.pid) : undefined;
  if (PARTS.has('writes')) {
    await fromEmptyQueue(database, 'writes');
    reports.push(await writesPart(state, database, seeded.orgs, cadenceServer, getOne));
  }
  writesRss?.stop();
  if (PARTS.has('bulkActions')) {
    await fromEmptyQueue(database, 'bulk actions');
    reports.push(await bulkActionsPart(state, database, cadenceServer));
  }
  if (PARTS.has('imports')) {
    await fromEmptyQueue(database, 'imports');
    reports.push(await importsPart(state, database, cadenceServer));
  }
  if (PARTS.has('sequences')) {
    await fromEmptyQueue(database, 'sequences');
    reports.push(await sequencesPart(state, database, cadenceServer));
  }
  if (PARTS.has('mail')) {
    await fromEmptyQueue(database, 'mail');
    const sql = connectDatabase(database.url, { max: 1 });
    const options = { apiUrl: cadenceServer.url, serverPid: cadenceServer.pid, mailings: MAILINGS, rounds: ROUNDS, load: LOAD, sql, cwd: REPO_ROOT, print };
    const workerEnv = (extra: Record<string, string>) => serverEnv(database.url, extra);
    reports.push(await mailPart({ ...options, workerEnv }, () => state.interrupted === true).finally(() => sql.end({ timeout: 5 })));
  }
  rss.stop();

  for (const report of reports) report();
  const split = writesRss ? `; before the writes part ${beforeWrites.toFixed(0)} MB, during it ${writesRss.maxMb().toFixed(0)} MB` : '';
  print(`\nmax RSS of cadence serve over the run: ${rss.maxMb().toFixed(0)} MB (sampled every 500 ms${split})`);
  print(rssLine(rss.maxMb()));
  print(`\nwhole run: ${seconds(started)} s; at the end, ${machineLoad()}`);
}

async function stopAll(state: RunState): Promise<void> {
  stopLoad();
  for (const server of state.servers.splice(0).reverse()) await server.stop().catch(() => {});
  await state.database?.close().catch((error) => print(`could not remove the benchmark database: ${error}`));
}

const state: RunState = { servers: [] };
const interrupt = (signal: string) => {
  print(`\n${signal}: stopping`);
  state.interrupted = true;
  killChildren();
  void stopAll(state).finally(() => process.exit(130));
};
process.once('SIGINT', () => interrupt('SIGINT'));
process.once('SIGTERM', () => interrupt('SIGTERM'));
const watchdog = setTimeout(() => interrupt(`still running after ${WATCHDOG_MS / 60_000} minutes`), WATCHDOG_MS);
watchdog.unref();

try {
  await run(state);
} catch (error) {
  // After an interrupt, the run fails on its stopped servers: that is no news.
  if (!state.interrupted) print(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await stopAll(state);
}
