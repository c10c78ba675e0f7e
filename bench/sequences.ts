// Sequence steps (issue #15, #26): STATES sequence states whose step is due at the same moment,
// run by one real `cadence worker` child (default concurrency), timed until every step has run;
// steps/s and the lateness of each step against its due time, from sequence_step_runs (ran_at -
// due_at, both by the worker's clock, the real one here).
//
// How the states come to be due at once: the org's sequence has two `auto_email` steps, the
// second one STEP_TWO_INTERVAL minutes after the first. The states are made the way a client
// makes them, by prospectsAddToSequence over the org's prospects, and their first steps run on
// the same worker as the chunks commit; each then has its second step due, a row of
// sequence_steps_due with a due time spread over the enrolment, and the step runner has a job
// per instant. Those rows' due_at are then set to one instant a few seconds ahead, and the
// runner's job for that instant is enqueued as scheduling would have (wakeRunnerAt), as if the
// states had all been enrolled at the same moment; the jobs for the old instants are dropped.
// What runs at that instant is what would have run STEP_TWO_INTERVAL minutes later, on an idle
// worker that finds the job at its next poll (graphile-worker polls for jobs whose run-at has
// come every 2 s; no notification announces them), as in production. The first steps' mailings
// are being sent meanwhile (the local transport): due steps go ahead of sends (priority), and the
// worker's reserved slots (WORKER_RESERVED_CONCURRENCY) run only them. That backlog of sends is
// what the timed run shares the worker with, on purpose, and its size at the due instant is
// shown; the warm-up's own jobs are drained before the timed org is enrolled, and the part starts
// from an empty queue (queue.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';
import { createOrg, type CreatedOrg } from '../runtime/admin/index.js';
import { STEP_RUNNER_TASK, wakeRunnerAt } from '../runtime/sequences/index.js';
import { fetchBatchState, type ApiClient } from './batches.js';
import { cpuMilliseconds, sampleRss, startChildProcess, type ChildProcessHandle } from './processes.js';

const MEDIA_TYPE = 'application/vnd.api+json';
/** States of the warm-up, in an org of its own, through the same steps. */
const WARM_UP_STATES = 200;
/** Minutes between the two steps: long enough that no second step comes due by itself during the run. */
const STEP_TWO_INTERVAL = 24 * 60;
/** How far ahead of the rewrite the common run-at is: the rewrite has committed well before it comes. */
const DUE_LEAD_MS = 5_000;
const POLL_MS = 100;
/** A wait is given up on when its count has not moved for this long, or when the worker exits. */
const STALL_TIMEOUT_MS = 120_000;

export interface SequencesOptions {
  readonly apiUrl: string;
  /** States due at the same moment: prospects of the org, each enrolled once. */
  readonly states: number;
  /** A superuser connection: the seed, the rewrite of the run-at and the figures afterwards. */
  readonly sql: postgres.Sql;
  readonly workerEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly print: (line: string) => void;
}

export interface Lateness {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly minMs: number;
}

export interface SequencesRun {
  readonly orgId: number;
  readonly states: number;
  /** prospectsAddToSequence: POST to the batch finished, and to every first step run. */
  readonly enrolmentSeconds: number;
  readonly firstStepsSeconds: number;
  /** Second steps run by the end of the timing (of `states`), and the distinct due_at among them (1: all due at once). */
  readonly ran: number;
  readonly distinctDueAt: number;
  /** The common run-at to every second step seen run (polled every POLL_MS). */
  readonly seconds: number;
  readonly stepsPerSecond: number;
  /** ran_at - due_at of the second steps, from sequence_step_runs. */
  readonly lateness: Lateness;
  /** The org's sends still to be made when the steps came due (its first steps'): the backlog the steps share the worker with. */
  readonly sendsQueuedAtDue: number;
  /** States finished, and the org's mailings (two per state), counted in SQL afterwards. */
  readonly finished: number;
  readonly mailings: number;
  readonly workerCpuSeconds: number;
  readonly workerRssMb: number;
}

export interface SequencesResult {
  readonly concurrency: string;
  readonly run: SequencesRun | undefined;
  readonly errors: readonly string[];
}

interface SequenceOrg {
  readonly org: CreatedOrg;
  readonly client: ApiClient;
  readonly sequence: number;
  readonly mailbox: number;
  readonly steps: readonly [number, number];
}

/** POSTs a resource with the org's token; its id. */
async function create(
  client: ApiClient,
  path: string,
  type: string,
  attributes: Record<string, unknown>,
  relationships: Record<string, { type: string; id: number }> = {},
) {
  const links = Object.fromEntries(Object.entries(relationships).map(([name, data]) => [name, { data: { type: data.type, id: String(data.id) } }]));
  const response = await fetch(`${client.apiUrl}/api/v2/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type, attributes, relationships: links } }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST /api/v2/${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return Number((JSON.parse(text) as { data: { id: string } }).data.id);
}

/**
 * A new org with `prospects` prospects (one SQL statement: they are the fixture, not the
 * measure) and, through the API, a template, an interval sequence of two `auto_email` steps
 * using it, and a mailbox of the org's user.
 */
async function sequenceOrg(options: SequencesOptions, name: string, prospects: number): Promise<SequenceOrg> {
  const org = await createOrg(options.sql, { name });
  await options.sql`
    insert into prospects (org_id, first_name, last_name, emails)
    select ${org.orgId}, 'Prospect', 'n' || g, array['p' || g || '@org' || ${org.orgId} || '.sequences.example'] from generate_series(1, ${prospects}) g`;
  const client = { apiUrl: options.apiUrl, token: org.token };
  const template = await create(client, 'templates', 'template', { name: 'Bench', subject: 'Hello', bodyHtml: '<p>Hello</p>' });
  const sequence = await create(client, 'sequences', 'sequence', { name: 'Bench sequence', sequenceType: 'interval' });
  const steps: number[] = [];
  for (const [index, interval] of [0, STEP_TWO_INTERVAL].entries()) {
    const step = await create(
      client,
      'sequenceSteps',
      'sequenceStep',
      { stepType: 'auto_email', interval, order: index + 1 },
      { sequence: { type: 'sequence', id: sequence } },
    );
    await create(client, 'sequenceTemplates', 'sequenceTemplate', {}, { sequenceStep: { type: 'sequenceStep', id: step }, template: { type: 'template', id: template } });
    steps.push(step);
  }
  const mailbox = await create(client, 'mailboxes', 'mailbox', { email: `rep@org${org.orgId}.sequences.example` }, { user: { type: 'user', id: org.userId } });
  return { org, client, sequence, mailbox, steps: [steps[0]!, steps[1]!] };
}

async function countOf(sql: postgres.Sql, text: string, params: unknown[]): Promise<number> {
  const [row] = await sql.unsafe<{ n: string }[]>(text, params as never[]);
  return Number(row!.n);
}

const runsOf = (sql: postgres.Sql, orgId: number, stepId: number) =>
  countOf(sql, 'select count(*) as n from sequence_step_runs where org_id = $1 and sequence_step_id = $2', [orgId, stepId]);

/** Polls `count` until it reaches `target`; gives up when it stalls or the worker exits. When it was seen there, and the count then. */
async function waitForCount(what: string, count: () => Promise<number>, target: number, worker: ChildProcessHandle): Promise<{ n: number; at: number }> {
  let last = -1;
  let moved = Date.now();
  for (;;) {
    const n = await count();
    if (n >= target) return { n, at: performance.now() };
    if (n !== last) {
      last = n;
      moved = Date.now();
    }
    if (worker.exited()) throw new Error(`the worker exited while waiting for ${what} (${n} of ${target})`);
    if (Date.now() - moved > STALL_TIMEOUT_MS) return { n, at: performance.now() };
    await sleep(POLL_MS);
  }
}

/** Every prospect of the org into the sequence by prospectsAddToSequence; waits for the batch and for every first step to have run. */
async function enrolAll(
  options: SequencesOptions,
  target: SequenceOrg,
  states: number,
  worker: ChildProcessHandle,
): Promise<{ batchSeconds: number; firstStepsSeconds: number }> {
  const started = performance.now();
  const path = '/api/v2/batches/actions/prospectsAddToSequence?actionParams[skipConfirmation]=true';
  const response = await fetch(`${target.client.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.client.token}`, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type: 'batch', attributes: { sequenceId: target.sequence, mailboxId: target.mailbox } } }),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  const batchId = String((JSON.parse(text) as { data: { id: string } }).data.id);
  const batch = await waitForCount(
    'the enrolment batch',
    async () => {
      const state = await fetchBatchState(target.client, batchId);
      if (state.state === 'failed' || state.state === 'canceled' || state.failures) throw new Error(`the enrolment batch ended ${JSON.stringify(state)}`);
      return state.state === 'finished' ? states : state.total - state.pending;
    },
    states,
    worker,
  );
  const first = await waitForCount('the first steps', () => runsOf(options.sql, target.org.orgId, target.steps[0]), states, worker);
  if (first.n !== states) throw new Error(`${first.n} of ${states} first steps ran`);
  return { batchSeconds: (batch.at - started) / 1000, firstStepsSeconds: (first.at - started) / 1000 };
}

/**
 * The org's second steps, due at `dueAt`: their due rows moved to that instant and the step
 * runner's job for it enqueued, the org's runner jobs for other instants dropped. Returns how
 * many steps were moved.
 */
async function dueAtOnce(sql: postgres.Sql, target: SequenceOrg, dueAt: Date): Promise<number> {
  const orgId = target.org.orgId;
  return sql.begin(async (tx) => {
    const moved = await tx`
      update sequence_steps_due set due_at = ${dueAt.toISOString()}::timestamptz
       where org_id = ${orgId} and sequence_step_id = ${target.steps[1]}`;
    await tx`
      delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
       where t.id = j.task_id and t.identifier = ${STEP_RUNNER_TASK} and j.locked_at is null and (j.payload->>'orgId')::bigint = ${orgId}`;
    await wakeRunnerAt(tx, orgId, [dueAt]);
    return moved.count;
  });
}

async function latenessOf(sql: postgres.Sql, target: SequenceOrg): Promise<Lateness & { distinctDueAt: number }> {
  const [row] = await sql<{ p50: number; p99: number; max: number; min: number; due: number }[]>`
    select percentile_cont(0.5) within group (order by l) as p50, percentile_cont(0.99) within group (order by l) as p99,
           max(l) as max, min(l) as min, count(distinct due_at)::int as due
      from (select due_at, extract(epoch from ran_at - due_at) * 1000 as l from sequence_step_runs
             where org_id = ${target.org.orgId} and sequence_step_id = ${target.steps[1]}) runs`;
  return { p50Ms: Number(row!.p50), p99Ms: Number(row!.p99), maxMs: Number(row!.max), minMs: Number(row!.min), distinctDueAt: row!.due };
}

/** Jobs in the queue whose run-at has come, running or not. */
const dueJobs = (sql: postgres.Sql) => countOf(sql, 'select count(*) as n from graphile_worker._private_jobs where run_at <= now()', []);

/** Enrols, makes every second step due at one instant, and times them until every one has run. */
async function timeSteps(options: SequencesOptions, target: SequenceOrg, states: number, worker: ChildProcessHandle, label: string): Promise<SequencesRun> {
  const { sql, print } = options;
  const enrolment = await enrolAll(options, target, states, worker);
  const dueAt = new Date(Date.now() + DUE_LEAD_MS);
  const changed = await dueAtOnce(sql, target, dueAt);
  if (changed !== states) throw new Error(`${changed} second steps were due, not ${states}`);
  const workerCpu = cpuMilliseconds(worker.pid);
  const rss = sampleRss(worker.pid);
  let done: { n: number; at: number };
  let sendsQueuedAtDue = 0;
  try {
    await sleep(Math.max(0, dueAt.getTime() - Date.now()));
    const due = performance.now();
    sendsQueuedAtDue = await countOf(sql, 'select count(*) as n from mailing_sends where org_id = $1', [target.org.orgId]);
    done = await waitForCount('the second steps', () => runsOf(sql, target.org.orgId, target.steps[1]), states, worker);
    done = { ...done, at: done.at - due };
  } finally {
    rss.stop();
  }
  const seconds = done.at / 1000;
  const workerCpuSeconds = (cpuMilliseconds(worker.pid) - workerCpu) / 1000;
  const { distinctDueAt, ...lateness } = await latenessOf(sql, target);
  const orgId = target.org.orgId;
  print(
    `  ${label}, org ${orgId}: ${states} states enrolled in ${enrolment.batchSeconds.toFixed(1)} s, first steps run ${enrolment.firstStepsSeconds.toFixed(1)} s after the POST; ${done.n} second steps due at once ran in ${seconds.toFixed(1)} s (${Math.round(done.n / seconds)} steps/s) beside ${sendsQueuedAtDue} queued sends, lateness p50 ${(lateness.p50Ms / 1000).toFixed(2)} s, p99 ${(lateness.p99Ms / 1000).toFixed(2)} s, max ${(lateness.maxMs / 1000).toFixed(2)} s`,
  );
  return {
    orgId,
    states,
    enrolmentSeconds: enrolment.batchSeconds,
    firstStepsSeconds: enrolment.firstStepsSeconds,
    ran: done.n,
    distinctDueAt,
    seconds,
    stepsPerSecond: done.n / seconds,
    lateness,
    sendsQueuedAtDue,
    finished: await countOf(sql, `select count(*) as n from sequence_states where org_id = $1 and state = 'finished'`, [orgId]),
    mailings: await countOf(sql, 'select count(*) as n from mailings where org_id = $1', [orgId]),
    workerCpuSeconds,
    workerRssMb: rss.maxMb(),
  };
}

export async function runSequences(options: SequencesOptions): Promise<SequencesResult> {
  const { print } = options;
  const env = options.workerEnv({ LOG_LEVEL: 'warn' });
  const reserved = env.WORKER_RESERVED_CONCURRENCY ? env.WORKER_RESERVED_CONCURRENCY : '2 (default)';
  const concurrency = `${env.WORKER_CONCURRENCY ? env.WORKER_CONCURRENCY : '4 (default)'}, WORKER_RESERVED_CONCURRENCY=${reserved}`;
  const warmUpOrg = await sequenceOrg(options, 'Bench sequences: warm-up', WARM_UP_STATES);
  const target = await sequenceOrg(options, 'Bench sequences', options.states);
  await options.sql.unsafe('vacuum analyze prospects');
  const worker = startChildProcess('cadence worker', { args: ['bin/cadence.js', 'worker'], env, cwd: options.cwd });
  const errors: string[] = [];
  let run: SequencesRun | undefined;
  try {
    await timeSteps(options, warmUpOrg, WARM_UP_STATES, worker, 'warm-up');
    await waitForCount("the warm-up's due jobs to drain", async () => ((await dueJobs(options.sql)) === 0 ? 1 : 0), 1, worker);
    print(`  warm-up: ${WARM_UP_STATES} states through both steps; WORKER_CONCURRENCY=${concurrency}`);
    run = await timeSteps(options, target, options.states, worker, 'timed');
  } catch (error) {
    errors.push(`sequence steps: ${error instanceof Error ? error.message : String(error)}`);
    print(`  ${errors[errors.length - 1]}`);
  } finally {
    await worker.stop();
  }
  return { concurrency, run, errors };
}
