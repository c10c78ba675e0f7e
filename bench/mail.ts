// E-mail (issues #16, #26): MAILINGS scheduled mailings due at the same moment, sent by one real
// `cadence worker` child (default concurrency) through their mailbox's SMTP settings to an SMTP
// server in this process on 127.0.0.1 (smtp-sink.ts); messages/s from the due moment to the
// last delivery, and the lateness of each `deliveredAt` against its `scheduledAt`. The ceiling
// (mail-ceiling.ts): the same messages sent again to the same server by a bare pooled
// nodemailer transport in this process, as the bytes received (the target's) and, for reference,
// from their parts composed by nodemailer. Then the tracking pixel of those mailings under load
// against a bare route (mail-pixel.ts).
//
// How the mailings come to be due at once, through the API only: they are created `drafted`
// with POST /api/v2/imports/actions/bulkUpsert (their prospects, one per mailing, are a SQL
// fixture), then a second bulkUpsert updates each to `scheduled` with one `scheduledAt` ahead
// of now. Both go through the record writer like any PATCH, so the update's mailing afterWrite
// makes each send due itself (a mailing_sends row at scheduledAt, and the org's `send_mailings`
// job for that second): nothing in the queue is written by the benchmark. The same worker
// applies both upserts' chunks, so the instant is put far enough ahead for the second to be done
// well before it (1.5 times what the first took, plus LEAD_MARGIN_MS), and the run checks that
// it was and that every send is due at that instant. Drafted first, rather than created
// scheduled, so that the time needed is measured before the instant is chosen. The worker then
// finds the job at its next poll (graphile-worker polls every 2 s for jobs whose run-at has
// come) and is idle until then.
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';
import { createOrg, type CreatedOrg } from '../runtime/admin/index.js';
import { SEND_MAILINGS_TASK } from '../runtime/mail/index.js';
import { fetchBatchState, type ApiClient } from './batches.js';
import type { LoadOptions } from './load.js';
import { measureSmtpCeilings, type Ceilings } from './mail-ceiling.js';
import { runPixel, type PixelResult } from './mail-pixel.js';
import { cpuMilliseconds, sampleRss, startChildProcess, type ChildProcessHandle } from './processes.js';
import { mailTable } from './report-mail.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { packRequests } from './writes.js';

const MEDIA_TYPE = 'application/vnd.api+json';
const BULK_UPSERT = '/api/v2/imports/actions/bulkUpsert';
/** Mailings of the warm-up, in an org of its own, through the same steps. */
const WARM_UP_MAILINGS = 200;
/** Added to 1.5 times the create pass's time to put the common scheduledAt ahead of now. */
const LEAD_MARGIN_MS = 3_000;
const POLL_MS = 200;
/** A wait is given up on when its count has not moved for this long, or when the worker exits. */
const STALL_TIMEOUT_MS = 120_000;
const SMTP_LOGIN = { username: 'bench-rep', password: 'bench-smtp-password' };
const SUBJECT = 'Hello {{first_name}}';
const BODY_HTML = '<p>Hi {{first_name}},</p><p>Our <a href="https://cadence.example/pricing">pricing</a> has changed.</p><p>{{sender.email}}</p>';

export interface MailOptions {
  readonly apiUrl: string;
  /** cadence serve's process, whose CPU the pixel load reads. */
  readonly serverPid: number;
  /** Mailings due at the same moment, each to a prospect of its own. */
  readonly mailings: number;
  readonly rounds: number;
  readonly load: LoadOptions;
  /** A superuser connection: the fixture and the figures. */
  readonly sql: postgres.Sql;
  readonly workerEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly print: (line: string) => void;
}

export interface SendRun {
  readonly orgId: number;
  readonly mailings: number;
  /** The two bulk upserts: creates (drafted), then the updates to scheduled; POST to every batch finished. */
  readonly createSeconds: number;
  readonly scheduleSeconds: number;
  /** How long before the common scheduledAt the updates were all done (negative: after it). */
  readonly marginSeconds: number;
  /** The org's sends due at that instant, and its pending send_mailings jobs, before it came. */
  readonly sendsAtDue: number;
  readonly jobsAtDue: number;
  readonly delivered: number;
  /** Mailings of the org by state at the end. */
  readonly states: Readonly<Record<string, number>>;
  /** scheduledAt to the last deliveredAt (SQL, the worker's clock). */
  readonly seconds: number;
  readonly messagesPerSecond: number;
  /** deliveredAt - scheduledAt of the delivered mailings, in ms. */
  readonly lateness: { readonly p50Ms: number; readonly p99Ms: number; readonly maxMs: number; readonly minMs: number };
  /** What the SMTP server accepted, and the distinct Message-IDs among it. */
  readonly received: number;
  readonly distinctMessageIds: number;
  /** TCP connections the SMTP server saw during the timing. */
  readonly connections: number;
  readonly workerCpuSeconds: number;
  readonly workerRssMb: number;
}

export interface MailResult {
  readonly concurrency: string;
  readonly send: SendRun | undefined;
  /** The bare nodemailer ceilings: raw (the target's) and composed (mail-ceiling.ts). */
  readonly ceilings: Ceilings | undefined;
  readonly pixel: PixelResult | undefined;
  readonly errors: readonly string[];
}

interface MailOrg {
  readonly org: CreatedOrg;
  readonly client: ApiClient;
  readonly mailbox: number;
  readonly prospects: readonly number[];
}

async function post(client: ApiClient, path: string, body: string): Promise<{ data: { id: string | number } }> {
  const response = await fetch(`${client.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': MEDIA_TYPE },
    body,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  if (response.status !== 200 && response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as { data: { id: string | number } };
}

/**
 * A new org with `count` prospects (one SQL statement: the fixture, not the measure) and,
 * through the API, a mailbox of its user whose SMTP server is the sink, named as 127.0.0.1.
 */
async function mailOrg(options: MailOptions, name: string, count: number, smtpPort: number): Promise<MailOrg> {
  const org = await createOrg(options.sql, { name });
  const rows = await options.sql<{ id: string }[]>`
    insert into prospects (org_id, first_name, last_name, emails)
    select ${org.orgId}, 'Prospect' || g, 'N', array['p' || g || '@org' || ${org.orgId} || '.mail.example'] from generate_series(1, ${count}) g
    returning id`;
  const client = { apiUrl: options.apiUrl, token: org.token };
  const mailbox = await post(
    client,
    '/api/v2/mailboxes',
    JSON.stringify({
      data: {
        type: 'mailbox',
        attributes: {
          email: `rep@org${org.orgId}.mail.example`,
          smtpHost: '127.0.0.1',
          smtpPort,
          smtpUsername: SMTP_LOGIN.username,
          smtpPassword: SMTP_LOGIN.password,
          smtpSsl: false,
        },
        relationships: { user: { data: { type: 'user', id: String(org.userId) } } },
      },
    }),
  );
  return { org, client, mailbox: Number(mailbox.data.id), prospects: rows.map((r) => Number(r.id)).sort((a, b) => a - b) };
}

/** Sends the records in bulkUpsert requests one after another and waits until every batch is finished; seconds taken. */
async function upsert(client: ApiClient, records: readonly string[], worker: ChildProcessHandle): Promise<number> {
  const started = performance.now();
  const ids: string[] = [];
  for (const { body } of packRequests(records)) ids.push(String((await post(client, BULK_UPSERT, body)).data.id));
  let moved = Date.now();
  let progress = '';
  for (;;) {
    const states = await Promise.all(ids.map((id) => fetchBatchState(client, id)));
    const bad = states.find((s) => s.state === 'failed' || s.failures > 0);
    if (bad) throw new Error(`a bulkUpsert batch ended ${JSON.stringify(bad)}`);
    if (states.every((s) => s.state === 'finished')) return (performance.now() - started) / 1000;
    const now = states.map((s) => s.pending).join(',');
    if (now !== progress) [progress, moved] = [now, Date.now()];
    if (worker.exited()) throw new Error('the worker exited during a bulkUpsert');
    if (Date.now() - moved > STALL_TIMEOUT_MS) throw new Error(`the bulkUpsert batches stalled: ${JSON.stringify(states)}`);
    await sleep(POLL_MS);
  }
}

function createRecords(target: MailOrg): string[] {
  const relationships = { mailbox: { data: { type: 'mailbox', id: String(target.mailbox) } } };
  return target.prospects.map((prospect) =>
    JSON.stringify({
      data: {
        type: 'mailing',
        attributes: { state: 'drafted', subject: SUBJECT, bodyHtml: BODY_HTML, trackOpens: true, trackLinks: true },
        relationships: { ...relationships, prospect: { data: { type: 'prospect', id: String(prospect) } } },
      },
    }),
  );
}

async function mailingIds(sql: postgres.Sql, orgId: number): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`select id from mailings where org_id = ${orgId} order by id`;
  return rows.map((r) => Number(r.id));
}

async function pendingSendsAt(sql: postgres.Sql, orgId: number, dueAt: Date): Promise<{ sends: number; jobs: number }> {
  const [row] = await sql<{ sends: number; jobs: number }[]>`
    select (select count(*)::int from mailing_sends where org_id = ${orgId} and due_at = ${dueAt.toISOString()}::timestamptz) as sends,
           (select count(*)::int from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
             where t.identifier = ${SEND_MAILINGS_TASK} and (j.payload->>'orgId')::bigint = ${orgId} and j.locked_at is null) as jobs`;
  return row!;
}

async function statesOf(sql: postgres.Sql, orgId: number): Promise<Record<string, number>> {
  const rows = await sql<{ state: string; n: number }[]>`select state, count(*)::int as n from mailings where org_id = ${orgId} group by state order by state`;
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/** Polls the org's mailings until none is scheduled or delivering; gives up when the count stalls or the worker exits. */
async function waitForSends(sql: postgres.Sql, orgId: number, worker: ChildProcessHandle): Promise<void> {
  let last = -1;
  let moved = Date.now();
  for (;;) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from mailings where org_id = ${orgId} and state in ('scheduled', 'delivering')`;
    if (row!.n === 0) return;
    if (row!.n !== last) [last, moved] = [row!.n, Date.now()];
    if (worker.exited()) throw new Error(`the worker exited with ${row!.n} mailings not sent`);
    if (Date.now() - moved > STALL_TIMEOUT_MS) return;
    await sleep(POLL_MS);
  }
}

async function deliveryFigures(sql: postgres.Sql, orgId: number, dueAt: Date) {
  const [row] = await sql<{ n: number; p50: number; p99: number; max: number; min: number; last: number }[]>`
    select count(*)::int as n, percentile_cont(0.5) within group (order by l) as p50, percentile_cont(0.99) within group (order by l) as p99,
           max(l) as max, min(l) as min, extract(epoch from max(delivered_at) - ${dueAt.toISOString()}::timestamptz) as last
      from (select delivered_at, extract(epoch from delivered_at - scheduled_at) * 1000 as l from mailings
             where org_id = ${orgId} and delivered_at is not null) sent`;
  const lateness = { p50Ms: Number(row!.p50), p99Ms: Number(row!.p99), maxMs: Number(row!.max), minMs: Number(row!.min) };
  return { delivered: row!.n, seconds: Number(row!.last), lateness };
}

/** Creates the org's mailings drafted, schedules them all at one instant, and times their sending. */
async function timeSends(options: MailOptions, target: MailOrg, sink: SmtpSink, worker: ChildProcessHandle, label: string): Promise<SendRun> {
  const { sql, print } = options;
  const orgId = target.org.orgId;
  const createSeconds = await upsert(target.client, createRecords(target), worker);
  const ids = await mailingIds(sql, orgId);
  if (ids.length !== target.prospects.length) throw new Error(`${ids.length} mailings were created, not ${target.prospects.length}`);
  const dueAt = new Date(Date.now() + Math.round(createSeconds * 1500) + LEAD_MARGIN_MS);
  const scheduled = ids.map((id) => JSON.stringify({ data: { type: 'mailing', id: String(id), attributes: { state: 'scheduled', scheduledAt: dueAt.toISOString() } } }));
  const scheduleSeconds = await upsert(target.client, scheduled, worker);
  const marginSeconds = (dueAt.getTime() - Date.now()) / 1000;
  const pending = await pendingSendsAt(sql, orgId, dueAt);
  sink.reset();
  const workerCpu = cpuMilliseconds(worker.pid);
  const rss = sampleRss(worker.pid);
  try {
    await sleep(Math.max(0, dueAt.getTime() - Date.now()));
    await waitForSends(sql, orgId, worker);
  } finally {
    rss.stop();
  }
  const workerCpuSeconds = (cpuMilliseconds(worker.pid) - workerCpu) / 1000;
  const figures = await deliveryFigures(sql, orgId, dueAt);
  const run: SendRun = {
    orgId,
    mailings: ids.length,
    createSeconds,
    scheduleSeconds,
    marginSeconds,
    sendsAtDue: pending.sends,
    jobsAtDue: pending.jobs,
    ...figures,
    states: await statesOf(sql, orgId),
    messagesPerSecond: figures.delivered / figures.seconds,
    received: sink.received(),
    distinctMessageIds: sink.distinctMessageIds(),
    connections: sink.connections(),
    workerCpuSeconds,
    workerRssMb: rss.maxMb(),
  };
  const s = (ms: number) => (ms / 1000).toFixed(2);
  print(
    `  ${label}, org ${orgId}: ${ids.length} mailings created drafted in ${createSeconds.toFixed(1)} s, scheduled in ${scheduleSeconds.toFixed(1)} s (${marginSeconds.toFixed(1)} s before they were due, ${run.sendsAtDue} sends due at that instant, ${run.jobsAtDue} send_mailings jobs); ${run.delivered} delivered ${run.seconds.toFixed(1)} s after it (${Math.round(run.messagesPerSecond)} messages/s), lateness p50 ${s(run.lateness.p50Ms)} s, p99 ${s(run.lateness.p99Ms)} s, max ${s(run.lateness.maxMs)} s; the SMTP server received ${run.received} (${run.distinctMessageIds} distinct Message-IDs) over ${run.connections} connections`,
  );
  return run;
}

export async function runMail(options: MailOptions): Promise<MailResult> {
  const { print } = options;
  // The sink is on 127.0.0.1, which a mailbox may name only when the operator allows it.
  const env = options.workerEnv({ LOG_LEVEL: 'warn', MAIL_ALLOWED_HOSTS: '127.0.0.1' });
  const concurrency = env.WORKER_CONCURRENCY ? env.WORKER_CONCURRENCY : '4 (default)';
  const sink = await startSmtpSink(SMTP_LOGIN);
  const errors: string[] = [];
  let send: SendRun | undefined;
  let ceilings: Ceilings | undefined;
  let pixel: PixelResult | undefined;
  try {
    const warmUpOrg = await mailOrg(options, 'Bench mail: warm-up', WARM_UP_MAILINGS, sink.port);
    const target = await mailOrg(options, 'Bench mail', options.mailings, sink.port);
    await options.sql.unsafe('vacuum analyze prospects');
    const worker = startChildProcess('cadence worker', { args: ['bin/cadence.js', 'worker'], env, cwd: options.cwd });
    try {
      await timeSends(options, warmUpOrg, sink, worker, 'warm-up');
      print(`  warm-up: ${WARM_UP_MAILINGS} mailings through the same steps; WORKER_CONCURRENCY=${concurrency}`);
      send = await timeSends(options, target, sink, worker, 'timed');
    } finally {
      // The pixel load runs with no worker: cadence serve appends its hits, and runPixel starts a worker to fold them afterwards.
      await worker.stop();
    }
    const tokens = sink.pixelTokens();
    ceilings = await measureSmtpCeilings(sink, SMTP_LOGIN, sink.messages());
    const { raw, composed } = ceilings;
    print(
      `  ceiling (raw): the same ${raw.messages} messages, their bytes as received, from a bare pooled nodemailer transport in this process in ${raw.seconds.toFixed(1)} s (${Math.round(raw.messagesPerSecond)} messages/s) over ${raw.connections} connections`,
    );
    print(
      `  ceiling (composed, for reference): the same messages from their parts, composed by nodemailer, in ${composed.seconds.toFixed(1)} s (${Math.round(composed.messagesPerSecond)} messages/s) over ${composed.connections} connections`,
    );
    pixel = await runPixel({ ...options, tokens, orgId: target.org.orgId });
  } catch (error) {
    errors.push(`mail: ${error instanceof Error ? error.message : String(error)}`);
    print(`  ${errors[errors.length - 1]}`);
  } finally {
    await sink.close();
  }
  return { concurrency, send, ceilings, pixel, errors };
}

/** The part as bench/main.ts runs it: prints as it goes, and returns its report. */
export async function mailPart(options: MailOptions, interrupted: () => boolean): Promise<() => void> {
  options.print(`\nmail: ${options.mailings} mailings due at the same moment, in new orgs`);
  try {
    const result = await runMail(options);
    return () => options.print(mailTable(result, options));
  } catch (error) {
    if (interrupted()) throw error;
    const message = error instanceof Error ? error.message : String(error);
    options.print(`  mail not measured: ${message}`);
    return () => options.print(`\n## E-mail\n\nnot measured: ${message}`);
  }
}
