// CSV import (issue #14): a prospects CSV of 10 columns through SPEC.md's five steps over HTTP
// (generateUploadLink, the PUT to its link, validateUpload, prospectsImport, then GET
// /api/v2/imports/<id>), processed by one real `cadence worker` child, timed from the
// prospectsImport POST until the import says `finished`, with the worker's RSS sampled meanwhile.
// The ceiling: the same rows by one COPY FROM STDIN into a fresh org of its own. In rounds, a
// COPY before the first import and one after each: each import is compared with the faster of
// the two COPYs beside it, and the ratio is the median round's.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';
import { createOrg, type CreatedOrg } from '../runtime/admin/index.js';
import type { ApiClient } from './batches.js';
import { cpuMilliseconds, sampleRss, startChildProcess, type ChildProcessHandle } from './processes.js';
import { medianRound } from './report.js';

const MEDIA_TYPE = 'application/vnd.api+json';
/** Rows of the warm-up import, in an org of its own, with the worker running. */
const WARM_UP_RECORDS = 200;
const POLL_MS = 200;
/** Imports measured, each between two COPYs (BENCH_IMPORT_ROUNDS). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_IMPORT_ROUNDS || 3));
/** The worker's RSS is read this often during the timed import. */
const RSS_SAMPLE_MS = 100;
/** The import is given up on after this long, or when the worker exits. */
const WAIT_LIMIT_MS = 900_000;
/** Bytes per write of the COPY's text: a stream of pieces, as a client sending a file would. */
const COPY_PIECE_BYTES = 1024 * 1024;

const HEADER = ['First Name', 'Last Name', 'Email', 'Title', 'Company', 'City', 'State', 'Country', 'Tags', 'Score'];
/** CSV header to prospect attribute (schema/prospect.json), the import's `mappings`. */
const MAPPINGS: Record<string, string> = {
  'First Name': 'firstName',
  'Last Name': 'lastName',
  Email: 'emails',
  Title: 'title',
  Company: 'company',
  City: 'addressCity',
  State: 'addressState',
  Country: 'addressCountry',
  Tags: 'tags',
  Score: 'score',
};

const FIRST = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'John', 'Radia'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Backus'];
// Some values hold commas and quotes, so that the CSV has quoted fields as exported files do.
const TITLES = ['CEO', 'CTO', 'VP, Sales', 'Head of Growth', 'Software Engineer', 'Director, Data Engineering', 'Product Manager', 'Recruiter'];
const COMPANIES = ['Analytical Engines', 'Acme, Inc.', 'Initech', 'Hooli', 'The "Bench" Company', 'Globex, Ltd.', 'Umbrella', 'Stark Industries', 'Wayne Enterprises'];
const PLACES = [
  ['London', 'England', 'United Kingdom'],
  ['Paris', 'Île-de-France', 'France'],
  ['Austin', 'TX', 'United States'],
  ['Washington, D.C.', 'DC', 'United States'],
  ['Berlin', 'Berlin', 'Germany'],
  ['Toronto', 'ON', 'Canada'],
  ['Sydney', 'NSW', 'Australia'],
];
const TAGS = ['lead', 'bench', 'q3', 'webinar', 'partner', 'vip', 'trial'];

interface ProspectRow {
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly title: string;
  readonly company: string;
  readonly city: string;
  readonly state: string;
  readonly country: string;
  readonly tags: readonly string[];
  readonly score: number;
}

/** Row `n` of a run's file, a function of `n` and `run` alone: every e-mail distinct, nothing empty. */
function prospectRow(n: number, run: string): ProspectRow {
  const [city, state, country] = PLACES[n % PLACES.length]!;
  return {
    firstName: FIRST[n % FIRST.length]!,
    lastName: LAST[Math.floor(n / 7) % LAST.length]!,
    email: `p${n}@bench${run}.example`,
    title: TITLES[n % TITLES.length]!,
    company: COMPANIES[n % COMPANIES.length]!,
    city: city!,
    state: state!,
    country: country!,
    tags: [TAGS[n % TAGS.length]!, TAGS[(n + 3) % TAGS.length]!],
    score: (n % 1000) / 10,
  };
}

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The CSV file: the header and `records` rows, LF line ends; list fields joined by `;`, as the import splits them. */
export function prospectsCsv(records: number, run: string): Uint8Array<ArrayBuffer> {
  const lines = [HEADER.map(csvField).join(',')];
  for (let n = 1; n <= records; n++) {
    const r = prospectRow(n, run);
    const fields = [r.firstName, r.lastName, r.email, r.title, r.company, r.city, r.state, r.country, r.tags.join(';'), String(r.score)];
    lines.push(fields.map(csvField).join(','));
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

/** COPY's text format escapes backslash and the characters that end a field or a line. */
const copyField = (value: string) => value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
/** A text[] literal with every element quoted, so that commas, braces and spaces in one stay in it. */
const arrayLiteral = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

/** The same rows as prospectsCsv, in COPY's text format for copyCeiling's columns, in pieces of COPY_PIECE_BYTES. */
export function prospectsCopyText(orgId: number, records: number, run: string): Buffer[] {
  const lines: string[] = [];
  for (let n = 1; n <= records; n++) {
    const r = prospectRow(n, run);
    const fields = [
      String(orgId),
      r.firstName,
      r.lastName,
      arrayLiteral([r.email]),
      r.title,
      r.company,
      r.city,
      r.state,
      r.country,
      arrayLiteral(r.tags),
      String(r.score),
    ];
    lines.push(`${fields.map(copyField).join('\t')}\n`);
  }
  const text = Buffer.from(lines.join(''));
  const pieces: Buffer[] = [];
  for (let from = 0; from < text.byteLength; from += COPY_PIECE_BYTES) pieces.push(text.subarray(from, from + COPY_PIECE_BYTES));
  return pieces;
}

export interface ImportsOptions {
  readonly apiUrl: string;
  /** The pid of `cadence serve`, whose CPU time is read. */
  readonly serverPid: number;
  /** Rows of the CSV file (and of each COPY). */
  readonly records: number;
  /** A superuser connection: the orgs, the ceilings and the counts afterwards. */
  readonly sql: postgres.Sql;
  readonly workerEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly print: (line: string) => void;
}

export interface ImportState {
  readonly state: string;
  readonly total: number;
  readonly dupes: number;
  readonly failures: number;
  readonly errorReason: string | null;
}

export interface ImportRun {
  readonly orgId: number;
  readonly records: number;
  /** Steps 1 to 3, before the timing: the link, the PUT of the file, validateUpload. */
  readonly linkMs: number;
  readonly uploadMs: number;
  readonly validateMs: number;
  /** validateUpload's recordCount, a string in the answer. */
  readonly recordCount: number;
  /** The prospectsImport POST's answer. */
  readonly answerMs: number;
  /** The POST sent to the import seen finished (or the wait given up). */
  readonly seconds: number;
  readonly rowsPerSecond: number;
  readonly final: ImportState;
  /** Prospects of the org and its `prospect_created` events, counted in SQL afterwards. */
  readonly prospects: number;
  readonly events: number;
  /** The worker's RSS just before the POST, and the largest sample until the import ended. */
  readonly rssBaselineMb: number;
  readonly rssPeakMb: number;
  readonly workerCpuSeconds: number;
  readonly serverCpuSeconds: number;
}

export interface CopyRun {
  readonly label: string;
  readonly orgId: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
}

/** One import, and its ratio to the faster of the COPYs before and after it. */
export interface ImportRound {
  readonly round: number;
  readonly run: ImportRun;
  readonly ratio: number;
}

export interface ImportsResult {
  readonly records: number;
  readonly fileBytes: number;
  readonly concurrency: string;
  /** Each import measured (an import that fails ends the rounds). */
  readonly rounds: readonly ImportRound[];
  /** The median round's ratio; undefined when no import was measured. */
  readonly ratio: number | undefined;
  /** Every COPY, in the order they ran, each into an org of its own. */
  readonly ceiling: readonly CopyRun[];
  /** What could not be measured, and why. */
  readonly errors: readonly string[];
}

/** One request with the org's token, expecting `status`; the parsed JSON:API document. */
async function callApi(
  client: ApiClient,
  method: string,
  path: string,
  body?: unknown,
  status = 200,
): Promise<{ data: { id?: string; attributes: Record<string, unknown> } }> {
  const response = await fetch(`${client.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${client.token}`, ...(body === undefined ? {} : { 'content-type': MEDIA_TYPE }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  if (response.status !== status) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as { data: { id?: string; attributes: Record<string, unknown> } };
}

const reasonOf = (value: unknown) => (value == null ? null : typeof value === 'string' ? value : JSON.stringify(value));

function importStateOf(attributes: Record<string, unknown>): ImportState {
  return {
    state: String(attributes.state),
    total: Number(attributes.total ?? 0),
    dupes: Number(attributes.dupes ?? 0),
    failures: Number(attributes.failures ?? 0),
    errorReason: reasonOf(attributes.errorReason),
  };
}

const ended = (state: ImportState) => state.state === 'finished' || state.state === 'failed';

/** Polls the import until it ends, runs out of time, or the worker exits; when it was seen so. */
async function waitForImport(client: ApiClient, id: string, worker: ChildProcessHandle): Promise<{ state: ImportState; at: number }> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const state = importStateOf((await callApi(client, 'GET', `/api/v2/imports/${id}`)).data.attributes);
    if (ended(state) || worker.exited() || Date.now() > deadline) return { state, at: performance.now() };
    await sleep(POLL_MS);
  }
}

const since = (started: number) => performance.now() - started;

/** Steps 1 to 3: a link, the file PUT to it, and validateUpload; the storage key and the timings. */
async function uploadFile(client: ApiClient, file: Uint8Array<ArrayBuffer>) {
  let started = performance.now();
  const link = (await callApi(client, 'POST', '/api/v2/imports/actions/generateUploadLink')).data.attributes;
  const linkMs = since(started);
  const storageKey = String(link.storageKey);

  started = performance.now();
  // The link is the credential: no bearer token goes with the file.
  const put = await fetch(String(link.uploadUrl), {
    method: 'PUT',
    headers: link.uploadHeaders as Record<string, string>,
    body: file,
    signal: AbortSignal.timeout(300_000),
  });
  const answer = await put.text();
  if (put.status !== 200) throw new Error(`the PUT of the file answered ${put.status}: ${answer.slice(0, 500)}`);
  const uploadMs = since(started);

  started = performance.now();
  const hash = createHash('sha512').update(file).digest('hex');
  const validated = await callApi(client, 'POST', `/api/v2/imports/actions/validateUpload?actionParams[storageKey]=${storageKey}&actionParams[hash]=${hash}`);
  const validateMs = since(started);
  return { storageKey, recordCount: Number(validated.data.attributes.recordCount), linkMs, uploadMs, validateMs };
}

/** The POST that starts the import: its id and how long it took to answer. */
async function startImport(client: ApiClient, storageKey: string, recordCount: number): Promise<{ id: string; ms: number }> {
  const started = performance.now();
  const body = { data: { type: 'import', attributes: { storageKey, recordCount, mappings: MAPPINGS } } };
  const answer = await callApi(client, 'POST', '/api/v2/imports/actions/prospectsImport', body);
  if (answer.data.attributes.state === 'failed') throw new Error(`prospectsImport failed at once: ${JSON.stringify(answer.data.attributes)}`);
  return { id: String(answer.data.id), ms: since(started) };
}

async function countOf(sql: postgres.Sql, text: string, params: unknown[]): Promise<number> {
  const [row] = await sql.unsafe<{ n: string }[]>(text, params as never[]);
  return Number(row!.n);
}

/** A small import into an org of its own first: the worker's code and connections warm, the queue empty after. */
async function warmUp(options: ImportsOptions, worker: ChildProcessHandle): Promise<void> {
  const org = await createOrg(options.sql, { name: 'Bench imports: warm-up' });
  const client = { apiUrl: options.apiUrl, token: org.token };
  const upload = await uploadFile(client, prospectsCsv(WARM_UP_RECORDS, 'warmup'));
  const { id } = await startImport(client, upload.storageKey, upload.recordCount);
  const { state } = await waitForImport(client, id, worker);
  if (state.state !== 'finished' || state.failures) throw new Error(`the warm-up import ended ${JSON.stringify(state)}`);
}

/** Steps 1 to 5 for the org, the timing from the prospectsImport POST, and the counts afterwards. */
async function timeImport(options: ImportsOptions, org: CreatedOrg, file: Uint8Array<ArrayBuffer>, worker: ChildProcessHandle): Promise<ImportRun> {
  const { sql, print, records } = options;
  const client = { apiUrl: options.apiUrl, token: org.token };
  const upload = await uploadFile(client, file);
  print(
    `  upload, org ${org.orgId}: link ${upload.linkMs.toFixed(0)} ms, PUT of ${(file.byteLength / 1024 / 1024).toFixed(1)} MB ${(upload.uploadMs / 1000).toFixed(1)} s, validateUpload ${(upload.validateMs / 1000).toFixed(1)} s (recordCount ${upload.recordCount})`,
  );
  const workerCpu = cpuMilliseconds(worker.pid);
  const serverCpu = cpuMilliseconds(options.serverPid);
  const rss = sampleRss(worker.pid, RSS_SAMPLE_MS);
  const started = performance.now();
  let answerMs: number;
  let waited: { state: ImportState; at: number };
  try {
    const begun = await startImport(client, upload.storageKey, upload.recordCount);
    answerMs = begun.ms;
    waited = await waitForImport(client, begun.id, worker);
  } finally {
    rss.stop();
  }
  const { state } = waited;
  const seconds = (waited.at - started) / 1000;
  print(
    `  prospectsImport, org ${org.orgId}: answered in ${(answerMs / 1000).toFixed(1)} s, ${state.state} ${seconds.toFixed(1)} s after the POST (${Math.round(records / seconds)} rows/s; total ${state.total}, dupes ${state.dupes}, failures ${state.failures}); worker RSS ${rss.firstMb().toFixed(0)} -> ${rss.maxMb().toFixed(0)} MB`,
  );
  return {
    orgId: org.orgId,
    records,
    ...upload,
    answerMs,
    seconds,
    rowsPerSecond: records / seconds,
    final: state,
    prospects: await countOf(sql, 'select count(*) as n from prospects where org_id = $1', [org.orgId]),
    events: await countOf(sql, `select count(*) as n from events where org_id = $1 and name = 'prospect_created'`, [org.orgId]),
    rssBaselineMb: rss.firstMb(),
    rssPeakMb: rss.maxMb(),
    workerCpuSeconds: (cpuMilliseconds(worker.pid) - workerCpu) / 1000,
    serverCpuSeconds: (cpuMilliseconds(options.serverPid) - serverCpu) / 1000,
  };
}

/** The same rows by one COPY FROM STDIN into a new org; timed from the start of the COPY to its end. */
async function copyCeiling(options: ImportsOptions, run: string, label: string): Promise<CopyRun> {
  const { sql, records } = options;
  const org = await createOrg(sql, { name: `Bench imports: COPY ${label}` });
  // The text is made before the timing: the ceiling is PostgreSQL's, not this process's.
  const pieces = prospectsCopyText(org.orgId, records, run);
  const started = performance.now();
  const copy = await sql`
    copy prospects (org_id, first_name, last_name, emails, title, company, address_city, address_state, address_country, tags, score) from stdin`.writable();
  await pipeline(Readable.from(pieces), copy);
  const seconds = since(started) / 1000;
  const copied = await countOf(sql, 'select count(*) as n from prospects where org_id = $1', [org.orgId]);
  if (copied !== records) throw new Error(`the COPY ${label} left ${copied} prospects in org ${org.orgId}, not ${records}`);
  options.print(`  ceiling COPY ${label}, org ${org.orgId}: ${seconds.toFixed(1)} s, ${Math.round(records / seconds)} rows/s`);
  return { label, orgId: org.orgId, seconds, rowsPerSecond: records / seconds };
}

export async function runImports(options: ImportsOptions): Promise<ImportsResult> {
  const { sql, print, records } = options;
  // Distinct e-mails in every run, though each org is new anyway.
  const run = randomBytes(3).toString('hex');
  const file = prospectsCsv(records, run);
  const ceiling: CopyRun[] = [];
  const rounds: ImportRound[] = [];
  const errors: string[] = [];
  const env = options.workerEnv({ LOG_LEVEL: 'warn' });
  const concurrency = env.WORKER_CONCURRENCY ? env.WORKER_CONCURRENCY : '4 (default)';
  // Before each timed run, so that none starts with the dead rows or stale statistics of the one before.
  const settle = () => sql.unsafe('vacuum analyze prospects');
  await settle();
  // The worker starts after the first COPY, so that its start-up does not compete with it.
  ceiling.push(await copyCeiling(options, run, 'before round 1'));
  const worker = startChildProcess('cadence worker', { args: ['bin/cadence.js', 'worker'], env, cwd: options.cwd });
  try {
    await warmUp(options, worker);
    print(`  warm-up: an import of ${WARM_UP_RECORDS} rows finished; WORKER_CONCURRENCY=${concurrency}`);
    for (let round = 1; round <= ROUNDS; round++) {
      await settle();
      const measured = await timeImport(options, await createOrg(sql, { name: `Bench imports: CSV ${round}` }), file, worker);
      // The last COPY runs with the worker stopped, as the first ran before it started.
      if (round === ROUNDS) await worker.stop();
      await settle();
      const after = await copyCeiling(options, run, `after round ${round}`);
      ceiling.push(after);
      const faster = Math.max(ceiling[ceiling.length - 2]!.rowsPerSecond, after.rowsPerSecond);
      rounds.push({ round, run: measured, ratio: measured.rowsPerSecond / faster });
    }
  } catch (error) {
    // The COPY after a failed import still runs: the ceiling is reported whatever became of the import.
    errors.push(`CSV import: ${error instanceof Error ? error.message : String(error)}`);
    print(`  ${errors[errors.length - 1]}`);
    await worker.stop();
    // The failed round's COPY, unless it was the COPY that failed.
    if (ceiling.length === rounds.length + 1) {
      await settle();
      ceiling.push(await copyCeiling(options, run, `after round ${rounds.length + 1}`));
    }
  } finally {
    await worker.stop();
  }
  return { records, fileBytes: file.byteLength, concurrency, rounds, ratio: medianRound(rounds)?.ratio, ceiling, errors };
}
