/**
 * npm run bench: seeds 1,000,000 prospects over 10 orgs, runs `cadence serve` in a child
 * process and a bare ceiling server (bench/ceiling-server.ts) in another, drives each with
 * autocannon on 127.0.0.1, and prints req/s and latency against the ceiling, the largest RSS of
 * the Cadence process, and which targets are met. It reports and always exits 0 once it has
 * run; only a failure to run at all exits non-zero.
 *
 * BENCH_PROSPECTS_PER_ORG and BENCH_SECONDS shrink a run for trying the benchmark itself out.
 */
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { connectDatabase } from '../runtime/db/client.js';
import type { CeilingConfig, Variant } from './ceiling-server.js';
import { openBenchDatabase, type BenchDatabase } from './database.js';
import { measure, stopLoad, type LoadResult, type Target } from './load.js';
import { killChildren, sampleRss, startChildServer, type ChildServer } from './processes.js';
import { resultsTable, targetsLines, variantsTable, type ScenarioResult, type VariantRow } from './report.js';
import { buildScenarios, type Scenario } from './scenarios.js';
import { seedDatabase } from './seed.js';

const SEED = { orgs: 10, accountsPerOrg: 1_000, prospectsPerOrg: Number(process.env.BENCH_PROSPECTS_PER_ORG || 100_000) };
const LOAD = { connections: 50, seconds: Number(process.env.BENCH_SECONDS || 10), warmUpSeconds: 2 };
/** The scenarios whose database work is broken down with the ceiling's variants. */
const BREAKDOWN = ['GET one prospect', 'list, page of 50'];
const BREAKDOWN_VARIANTS: { variant: Variant; label: string }[] = [
  { variant: 'tx', label: 'ceiling + BEGIN/COMMIT' },
  { variant: 'rls', label: 'ceiling + BEGIN, set_config, COMMIT' },
  { variant: 'auth', label: 'ceiling + token lookup, BEGIN, set_config, COMMIT (all of the DB work)' },
  { variant: 'pipelined', label: 'same, BEGIN+set_config+query+COMMIT pipelined (candidate fix)' },
];
/** The whole run is stopped after this long, whatever it is doing. */
const WATCHDOG_MS = 30 * 60_000;
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What has to be stopped or removed at the end, on a signal, or by the watchdog. */
interface RunState {
  database?: BenchDatabase;
  servers: ChildServer[];
  interrupted?: boolean;
}

const print = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** The environment of the servers: ours, with links left on each request's own origin. */
function serverEnv(databaseUrl: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, ...extra };
  delete env.PUBLIC_BASE_URL;
  return env;
}

/** Fetches a path from both servers: a 200 from each, with the same body, links' origin aside? */
async function sameBody(path: string, cadence: Target, ceiling: Target): Promise<boolean> {
  const text = async (target: Target) => {
    const response = await fetch(`${target.baseUrl}${path}`, { headers: target.headers, signal: AbortSignal.timeout(10_000) });
    return `${response.status} ${(await response.text()).replaceAll(target.baseUrl, 'ORIGIN')}`;
  };
  const cadenceText = await text(cadence);
  return cadenceText.startsWith('200 ') && cadenceText === (await text(ceiling));
}

/** Other work on the machine skews every figure; the load average tells how much there was. */
function machineLoad(): string {
  return `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
}

async function runScenario(scenario: Scenario, cadence: Target, ceiling: Target): Promise<ScenarioResult> {
  const same = await sameBody(scenario.paths[0]!, cadence, ceiling);
  const cadenceResult = await measure({ ...cadence, paths: scenario.paths }, LOAD);
  const ceilingResult = await measure({ ...ceiling, paths: scenario.paths }, LOAD);
  const result = { scenario, cadence: cadenceResult, ceiling: ceilingResult, sameBody: same };
  print(`  ${scenario.name}: ${Math.round(cadenceResult.requestsPerSecond)} req/s, ceiling ${Math.round(ceilingResult.requestsPerSecond)} req/s${same ? '' : ' (bodies differ!)'}`);
  return result;
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

async function run(state: RunState): Promise<void> {
  const started = performance.now();
  state.database = await openBenchDatabase(process.env);
  const database = state.database;
  print(`database: ${database.description}`);

  const seedStarted = performance.now();
  const seeded = await seedDatabase(database.url, SEED);
  print(`seeded ${SEED.orgs} orgs, ${SEED.orgs * SEED.accountsPerOrg} accounts, ${SEED.orgs * SEED.prospectsPerOrg} prospects (with VACUUM ANALYZE) in ${seconds(seedStarted)} s`);
  const org = seeded.orgs[Math.floor(seeded.orgs.length / 2)]!;

  const cadenceServer = await startChildServer('cadence serve', {
    args: ['bin/cadence.js', 'serve'],
    env: serverEnv(database.url, { CADENCE_IN_PROCESS_WORKER: 'false', LOG_LEVEL: 'warn' }),
    cwd: REPO_ROOT,
  });
  state.servers.push(cadenceServer);
  const rss = sampleRss(cadenceServer.pid);

  const sql = connectDatabase(database.url, { max: 1 });
  const scenarios = await buildScenarios(sql, org.orgId, { url: cadenceServer.url, token: org.token }).finally(() => sql.end({ timeout: 5 }));
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

  const cadence: Target = { baseUrl: cadenceServer.url, pid: cadenceServer.pid, paths: [], headers: { authorization: `Bearer ${org.token}` } };
  const ceiling: Target = { baseUrl: ceilingServer.url, pid: ceilingServer.pid, paths: [], headers: {} };
  print(`\nload: ${LOAD.connections} connections, ${LOAD.warmUpSeconds} s warm-up + ${LOAD.seconds} s per scenario and server, org ${org.orgId} (${SEED.prospectsPerOrg} prospects); ${machineLoad()}`);
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) results.push(await runScenario(scenario, cadence, ceiling));

  print('\nwhere the time goes: the ceiling with Cadence\'s per-request database work added back');
  const variants = await breakdown(scenarios, results, ceiling, org.token);
  rss.stop();

  print(`\n## Results (${SEED.orgs * SEED.prospectsPerOrg} prospects, ${LOAD.connections} connections, ${LOAD.seconds} s each)\n`);
  print(resultsTable(results));
  print(`\nmax RSS of cadence serve: ${rss.maxMb().toFixed(0)} MB (sampled every 500 ms)\n`);
  print(variantsTable(BREAKDOWN, variants));
  print('\ntargets:');
  for (const line of targetsLines(results, rss.maxMb())) print(line);
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
