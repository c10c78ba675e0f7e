// Bulk actions (issue #13): POST /api/v2/batches/actions/<name>?actionParams[skipConfirmation]=true
// over every prospect of an org, processed by one real `cadence worker` child, timed from the
// request until GET /api/v2/batches/<id> says `finished`. prospectsBulkModify (a new title)
// without and with a webhook on prospect.* (deliveries in the same worker), against the bare
// UPDATE of the title per 1,000 ids, in rounds alternating which goes first; prospectsDestroyAll
// against the bare DELETE per 1,000 ids.
// Each org is new and seeded here, in SQL, with exactly the records an action selects.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';
import { createOrg, type CreatedOrg } from '../runtime/admin/index.js';
import { makeCertificate } from '../test/runtime/webhooks/certificates.js';
import { createWebhook, fetchBatchState, waitFor, webhookJobsWritten, type ApiClient, type BatchState } from './batches.js';
import { cpuMilliseconds, startChildProcess, type ChildProcessHandle } from './processes.js';
import { medianRound } from './report.js';
import { startReceiver, type Receiver } from './webhooks.js';

/**
 * Before each timed run every table is vacuumed and analyzed, not only prospects: the tables the
 * runs before it filled (events, batch items, import keys) would otherwise keep the statistics of
 * when they were empty, and the foreign-key checks of a DELETE then pick plans that read far more
 * than they need. 10,000 prospects destroyed took 63-80 s instead of 3.2 s, and the plain DELETE
 * ceiling 333 s instead of 0.7 s on PostgreSQL 15. Autovacuum gets there too, a minute or more
 * later; the benchmark measures the settled state, for Cadence and the ceiling alike.
 */
const SETTLE_STATISTICS = 'vacuum analyze';

const MEDIA_TYPE = 'application/vnd.api+json';
/** Ids per statement of the ceilings, as the chunk jobs take 1,000 items each. */
const CEILING_IDS_PER_STATEMENT = 1000;
/** Records of the warm-up actions (narrowed by attributes.ids), with the worker running. */
const WARM_UP_RECORDS = 200;
const POLL_MS = 200;
/**
 * Rounds of each modify measurement, each Cadence's run and the ceiling's back to back,
 * alternating which goes first: the UPDATE ceiling runs 22-40% faster after a bulk modify than
 * before one (the table's pages and indexes change under it), and one before-and-after pair
 * weighed that drift on one side. The ratio is the median round's.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ACTION_ROUNDS || 3));
/** After a run with the webhook, its deliveries are waited for (not timed) up to this long, so the next measurement does not share the worker with them. */
const DRAIN_LIMIT_MS = 300_000;
/** A batch is given up on when its `pending` has not moved for this long, or after the limit. */
const STALL_TIMEOUT_MS = 120_000;
const WAIT_LIMIT_MS = 900_000;
/** An action selects at most this many records (more: the batch fails without items). */
export const MAX_ACTION_RECORDS = 100_000;

export interface BulkActionsOptions {
  readonly apiUrl: string;
  /** The pid of `cadence serve`, whose CPU time is read. */
  readonly serverPid: number;
  /** Records each action selects (and each ceiling writes), at most MAX_ACTION_RECORDS. */
  readonly records: number;
  /** A superuser connection: the seed, the ceilings and the counts afterwards. */
  readonly sql: postgres.Sql;
  readonly workerEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly print: (line: string) => void;
}

export interface ActionRun {
  readonly action: string;
  readonly orgId: number;
  readonly records: number;
  readonly webhook: boolean;
  /** The POST's answer (selection and items written). */
  readonly answerMs: number;
  /** The POST sent to the batch seen finished (or the wait given up). */
  readonly seconds: number;
  readonly recordsPerSecond: number;
  readonly final: BatchState;
  /** Records of the org the action changed as asked (new title, or gone), counted in SQL. */
  readonly applied: number;
  readonly events: number;
  readonly webhookJobs: number;
  /** Deliveries the receiver got between the POST and the end of the timing. */
  readonly deliveries: number;
  readonly workerCpuSeconds: number;
  readonly serverCpuSeconds: number;
}

export interface CeilingRun {
  readonly orgId: number;
  readonly seconds: number;
  readonly recordsPerSecond: number;
  readonly statements: number;
}

/** One round of a modify measurement: Cadence's run and the UPDATE ceiling's, back to back. */
export interface ModifyRound {
  readonly round: number;
  readonly cadenceFirst: boolean;
  readonly run: ActionRun;
  readonly ceiling: CeilingRun;
  readonly ratio: number;
  /** Deliveries still queued when the round's measurements were over (with the webhook; waited for up to DRAIN_LIMIT_MS). */
  readonly deliveriesLeft: number;
}

/** prospectsBulkModify without or with the webhook, in rounds (each round that was measured). */
export interface ModifyMeasurement {
  readonly webhook: boolean;
  readonly rounds: readonly ModifyRound[];
  /** The median round's ratio; undefined when no round was measured. */
  readonly ratio: number | undefined;
}

export interface BulkActionsResult {
  readonly records: number;
  readonly concurrency: string;
  /** prospectsBulkModify without the webhook, then with it. */
  readonly modify: readonly ModifyMeasurement[];
  readonly destroy: ActionRun | undefined;
  readonly destroyCeiling: CeilingRun | undefined;
  /** What could not be measured, and why: a failing action does not stop the others. */
  readonly errors: readonly string[];
}

const FIRST = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'John', 'Radia'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Backus'];
const TITLES = ['CEO', 'CTO', 'VP of Sales', 'Head of Growth', 'Software Engineer', 'Data Engineer', 'Product Manager', 'Recruiter'];

// The org's prospects, a function of n alone: a few attributes, one email each.
const INSERT_PROSPECTS = `
  insert into prospects (org_id, first_name, last_name, name, title, emails, created_at, updated_at)
  select $1, f, l, f || ' ' || l, ($4::text[])[1 + g % cardinality($4::text[])],
         array[lower(f || '.' || l) || g || '@actions.example'], now() - interval '1 day', now() - interval '1 day'
    from generate_series(1, $2::int) g,
         lateral (select ($3::text[])[1 + g % cardinality($3::text[])] as f, ($5::text[])[1 + (g / 7) % cardinality($5::text[])] as l) names`;

async function seedOrg(sql: postgres.Sql, name: string, records: number): Promise<CreatedOrg> {
  const org = await createOrg(sql, { name });
  await sql.unsafe(INSERT_PROSPECTS, [org.orgId, records, FIRST, TITLES, LAST] as never[]);
  return org;
}

async function prospectIds(sql: postgres.Sql, orgId: number): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`select id from prospects where org_id = ${orgId} order by id`;
  return rows.map((r) => Number(r.id));
}

async function countOf(sql: postgres.Sql, text: string, params: unknown[]): Promise<number> {
  const [row] = await sql.unsafe<{ n: string }[]>(text, params as never[]);
  return Number(row!.n);
}

/** One plain statement per 1,000 ids, nothing else; `title` set: UPDATE, else DELETE. */
async function ceilingRun(sql: postgres.Sql, orgId: number, ids: readonly number[], title?: string): Promise<CeilingRun> {
  const started = performance.now();
  let statements = 0;
  for (let from = 0; from < ids.length; from += CEILING_IDS_PER_STATEMENT) {
    const slice = ids.slice(from, from + CEILING_IDS_PER_STATEMENT);
    if (title === undefined) await sql.unsafe('delete from prospects where org_id = $1 and id = any($2)', [orgId, slice] as never[], { prepare: true });
    else await sql.unsafe('update prospects set title = $1 where org_id = $2 and id = any($3)', [title, orgId, slice] as never[], { prepare: true });
    statements++;
  }
  const seconds = (performance.now() - started) / 1000;
  return { orgId, seconds, recordsPerSecond: ids.length / seconds, statements };
}

/** Starts an action with skipConfirmation over the org's prospects (all, or `attributes.ids`). */
async function startAction(client: ApiClient, action: string, attributes: Record<string, unknown>): Promise<{ id: string; ms: number }> {
  const started = performance.now();
  const path = `/api/v2/batches/actions/${action}?actionParams[skipConfirmation]=true`;
  const response = await fetch(`${client.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type: 'batch', attributes } }),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  const batch = (JSON.parse(text) as { data: { id: string; attributes: { state: string; summary?: unknown } } }).data;
  if (batch.attributes.state === 'failed') throw new Error(`POST ${path}: the batch failed at once: ${JSON.stringify(batch.attributes.summary)}`);
  return { id: String(batch.id), ms: performance.now() - started };
}

const ended = (state: BatchState) => state.state === 'finished' || state.state === 'failed' || state.state === 'canceled';

/** Polls the batch until it ends, stalls, runs out of time, or the worker exits; when it was seen ended. */
async function waitForBatch(client: ApiClient, id: string, worker: ChildProcessHandle): Promise<{ state: BatchState; at: number }> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let pending = Number.NaN;
  let moved = Date.now();
  for (;;) {
    const state = await fetchBatchState(client, id);
    if (ended(state)) return { state, at: performance.now() };
    if (state.pending !== pending) {
      pending = state.pending;
      moved = Date.now();
    }
    if (worker.exited() || Date.now() > deadline || Date.now() - moved > STALL_TIMEOUT_MS) return { state, at: performance.now() };
    await sleep(POLL_MS);
  }
}

/** A small action first, narrowed by ids: the worker's code and connections warm, the queue empty after. */
async function warmUp(client: ApiClient, action: string, attributes: Record<string, unknown>, ids: readonly number[], worker: ChildProcessHandle) {
  const started = await startAction(client, action, { ...attributes, ids: ids.slice(0, WARM_UP_RECORDS) });
  const { state } = await waitForBatch(client, started.id, worker);
  if (state.state !== 'finished' || state.failures) throw new Error(`the warm-up ${action} ended ${JSON.stringify(state)}`);
}

interface TimedAction {
  readonly org: CreatedOrg;
  readonly action: string;
  readonly attributes: Record<string, unknown>;
  readonly records: number;
  /** The SQL count of the records the action changed as asked, once it ended. */
  readonly applied: (sql: postgres.Sql) => Promise<number>;
  readonly webhookId: number | undefined;
}

async function timeAction(options: BulkActionsOptions, timed: TimedAction, worker: ChildProcessHandle, receiver: Receiver): Promise<ActionRun> {
  const { sql, print } = options;
  const client = { apiUrl: options.apiUrl, token: timed.org.token };
  const orgId = timed.org.orgId;
  const eventsBefore = await countOf(sql, 'select coalesce(max(id), 0) as n from events where org_id = $1', [orgId]);
  const deliveriesBefore = receiver.deliveries.length;
  const workerCpu = cpuMilliseconds(worker.pid);
  const serverCpu = cpuMilliseconds(options.serverPid);
  const started = performance.now();
  const batch = await startAction(client, timed.action, timed.attributes);
  const { state, at } = await waitForBatch(client, batch.id, worker);
  const seconds = (at - started) / 1000;
  const workerCpuSeconds = (cpuMilliseconds(worker.pid) - workerCpu) / 1000;
  const serverCpuSeconds = (cpuMilliseconds(options.serverPid) - serverCpu) / 1000;
  const deliveries = receiver.deliveries.length - deliveriesBefore;
  print(
    `  ${timed.action}${timed.webhookId === undefined ? '' : ' (webhook)'}, org ${orgId}: answered in ${(batch.ms / 1000).toFixed(1)} s, ${state.state} ${seconds.toFixed(1)} s after the POST (${Math.round(timed.records / seconds)} records/s; pending ${state.pending}, failures ${state.failures})`,
  );
  const events = await countOf(sql, `select count(*) as n from events where org_id = $1 and id > $2 and resource_type = 'prospect'`, [orgId, eventsBefore]);
  return {
    action: timed.action,
    orgId,
    records: timed.records,
    webhook: timed.webhookId !== undefined,
    answerMs: batch.ms,
    seconds,
    recordsPerSecond: timed.records / seconds,
    final: state,
    applied: await timed.applied(sql),
    events,
    webhookJobs: timed.webhookId === undefined ? 0 : await webhookJobsWritten(sql, orgId, timed.webhookId, eventsBefore),
    deliveries,
    workerCpuSeconds,
    serverCpuSeconds,
  };
}

/** Jobs of `task` in the queue, waiting, running or failed. */
async function queuedJobs(sql: postgres.Sql, task: string): Promise<number> {
  return countOf(sql, 'select count(*) as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = $1', [
    task,
  ]);
}

/** Waits until no delivery job is queued, or DRAIN_LIMIT_MS has passed; the delivery jobs left. */
async function deliveriesDrained(sql: postgres.Sql): Promise<number> {
  const deadline = Date.now() + DRAIN_LIMIT_MS;
  for (;;) {
    const left = await queuedJobs(sql, 'deliver_webhook');
    if (left === 0 || Date.now() > deadline) return left;
    await sleep(500);
  }
}

/** Prospects of `orgId` whose title is `title`. */
const titled = (orgId: number, title: string) => (sql: postgres.Sql) =>
  countOf(sql, 'select count(*) as n from prospects where org_id = $1 and title = $2', [orgId, title]);

export async function runBulkActions(options: BulkActionsOptions): Promise<BulkActionsResult> {
  const { sql, print } = options;
  const records = Math.min(options.records, MAX_ACTION_RECORDS);
  // The modify org holds exactly what the actions select; the destroy orgs also the warm-up's records.
  const seedStarted = performance.now();
  const modifyOrg = await seedOrg(sql, 'Bench bulk actions: modify', records);
  const destroyOrg = await seedOrg(sql, 'Bench bulk actions: destroy', records + WARM_UP_RECORDS);
  const destroyCeilingOrg = await seedOrg(sql, 'Bench bulk actions: destroy ceiling', records + WARM_UP_RECORDS);
  await sql.unsafe(SETTLE_STATISTICS);
  print(
    `  seeded orgs ${modifyOrg.orgId} (modify), ${destroyOrg.orgId} (destroy) and ${destroyCeilingOrg.orgId} (destroy ceiling), ${records} prospects each, in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  const modifyIds = await prospectIds(sql, modifyOrg.orgId);

  const modifyCeilingRun = async (title: string) => {
    // Its own warm-up too: the statement prepared and the org's pages read once.
    await ceilingRun(sql, modifyOrg.orgId, modifyIds.slice(0, WARM_UP_RECORDS), `${title} (warm-up)`);
    const run = await ceilingRun(sql, modifyOrg.orgId, modifyIds, title);
    print(`  ceiling UPDATE (${title}), org ${run.orgId}: ${run.statements} statements, ${run.seconds.toFixed(1)} s, ${Math.round(run.recordsPerSecond)} records/s`);
    return run;
  };

  const folder = await mkdtemp(join(tmpdir(), 'cadence-bench-actions-'));
  let receiver: Receiver | undefined;
  let worker: ChildProcessHandle | undefined;
  const modify: ModifyMeasurement[] = [];
  const errors: string[] = [];
  const attempt = async <T>(label: string, measure: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await measure();
    } catch (error) {
      errors.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      print(`  ${errors[errors.length - 1]}`);
      return undefined;
    }
  };
  try {
    const certificate = await makeCertificate('127.0.0.1');
    const caFile = join(folder, 'receiver-cert.pem');
    await writeFile(caFile, certificate.cert);
    receiver = await startReceiver(certificate);
    const env = options.workerEnv({ LOG_LEVEL: 'warn', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: caFile });
    const concurrency = env.WORKER_CONCURRENCY ? env.WORKER_CONCURRENCY : '4 (default)';
    const running = startChildProcess('cadence worker', { args: ['bin/cadence.js', 'worker'], env, cwd: options.cwd });
    worker = running;
    const listening = receiver;
    const modifyClient = { apiUrl: options.apiUrl, token: modifyOrg.token };
    const modifyRun = (title: string, webhookId: number | undefined): TimedAction => ({
      org: modifyOrg,
      action: 'prospectsBulkModify',
      attributes: { title },
      records,
      applied: titled(modifyOrg.orgId, title),
      webhookId,
    });
    /**
     * ROUNDS rounds of Cadence's modify and the ceiling's UPDATE, alternating which goes first,
     * each after a VACUUM ANALYZE, each with a title of its own (so every record changes). With
     * the webhook, each of Cadence's runs is followed by its deliveries (not timed), so that the
     * worker is idle again for whatever comes next.
     */
    const modifyRounds = async (webhookId: number | undefined, rounds: ModifyRound[]) => {
      const label = webhookId === undefined ? '' : ', webhook';
      for (let round = 1; round <= ROUNDS; round++) {
        const cadenceFirst = round % 2 === 0;
        let run: ActionRun | undefined;
        let ceiling: CeilingRun | undefined;
        let deliveriesLeft = 0;
        for (const side of cadenceFirst ? (['cadence', 'ceiling'] as const) : (['ceiling', 'cadence'] as const)) {
          await sql.unsafe(SETTLE_STATISTICS);
          if (side === 'ceiling') {
            ceiling = await modifyCeilingRun(`Ceiling${label} ${round}`);
            continue;
          }
          run = await timeAction(options, modifyRun(`Bulk modified${label} ${round}`, webhookId), running, listening);
          if (webhookId !== undefined) {
            deliveriesLeft = await deliveriesDrained(sql);
            print(
              `  deliveries of round ${round}: ${deliveriesLeft === 0 ? 'all made' : `${deliveriesLeft} delivery jobs still queued after ${DRAIN_LIMIT_MS / 1000} s`}`,
            );
          }
        }
        rounds.push({ round, cadenceFirst, run: run!, ceiling: ceiling!, ratio: run!.recordsPerSecond / ceiling!.recordsPerSecond, deliveriesLeft });
      }
    };
    const measureModify = async (webhook: boolean, prepare: () => Promise<number | undefined>) => {
      const rounds: ModifyRound[] = [];
      await attempt(`prospectsBulkModify${webhook ? ' with the webhook' : ''}`, async () => modifyRounds(await prepare(), rounds));
      modify.push({ webhook, rounds, ratio: medianRound(rounds)?.ratio });
    };

    await measureModify(false, async () => {
      await warmUp(modifyClient, 'prospectsBulkModify', { title: 'Warm-up' }, modifyIds, running);
      print(`  warm-up: prospectsBulkModify of ${WARM_UP_RECORDS} records finished; WORKER_CONCURRENCY=${concurrency}`);
      return undefined;
    });

    // DestroyAll before the webhook exists: no deliveries are left over from the modify runs.
    await sql.unsafe(SETTLE_STATISTICS);
    const destroyCeilingIds = await prospectIds(sql, destroyCeilingOrg.orgId);
    await ceilingRun(sql, destroyCeilingOrg.orgId, destroyCeilingIds.slice(0, WARM_UP_RECORDS));
    const destroyCeiling = await ceilingRun(sql, destroyCeilingOrg.orgId, destroyCeilingIds.slice(WARM_UP_RECORDS));
    print(
      `  ceiling DELETE, org ${destroyCeiling.orgId}: ${destroyCeiling.statements} statements, ${destroyCeiling.seconds.toFixed(1)} s, ${Math.round(destroyCeiling.recordsPerSecond)} records/s`,
    );
    const destroy = await attempt('prospectsDestroyAll', async () => {
      const destroyClient = { apiUrl: options.apiUrl, token: destroyOrg.token };
      await warmUp(destroyClient, 'prospectsDestroyAll', {}, await prospectIds(sql, destroyOrg.orgId), running);
      const remaining = (sql: postgres.Sql) => countOf(sql, 'select count(*) as n from prospects where org_id = $1', [destroyOrg.orgId]);
      const destroyed = async (sql: postgres.Sql) => records - (await remaining(sql));
      return timeAction(
        options,
        { org: destroyOrg, action: 'prospectsDestroyAll', attributes: {}, records, applied: destroyed, webhookId: undefined },
        running,
        listening,
      );
    });

    // Last, the webhook on prospect.*: its deliveries run in the same worker as the chunks.
    await measureModify(true, async () => {
      await sql.unsafe(SETTLE_STATISTICS);
      const webhookId = await createWebhook(modifyClient, `https://127.0.0.1:${listening.port}/`);
      const deliveriesBefore = listening.deliveries.length;
      await warmUp(modifyClient, 'prospectsBulkModify', { title: 'Warm-up again' }, modifyIds, running);
      await waitFor(() => listening.deliveries.length - deliveriesBefore >= WARM_UP_RECORDS, 60_000);
      return webhookId;
    });
    await running.stop();

    return { records, concurrency, modify, destroy, destroyCeiling, errors };
  } finally {
    await worker?.stop();
    await receiver?.close();
    await rm(folder, { recursive: true, force: true });
  }
}
