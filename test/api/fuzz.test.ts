import fc from 'fast-check';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { definitionOf } from '../../runtime/custom-objects/definitions.js';
import { customObjectDescriptor } from '../../runtime/custom-objects/descriptor.js';
import { connectDatabase } from '../../runtime/db/client.js';
import type { AttributeDescriptor, ResourceDescriptor } from '../../runtime/model/descriptor.js';
import { MEDIA_TYPE, startTestApi, type TestApi } from '../helpers/api.js';
import { assertJsonApiDocument } from '../helpers/jsonapi.js';
import { createSampleRecord, sampleValue } from '../helpers/samples.js';
import { credentialRequests, definitionRequests, resourceRequests, type FuzzRequest } from './fuzz/requests.js';

/**
 * The guard of "correct under hostile input and concurrency": random requests over every
 * operation of every resource (standard ones from the generated descriptors, and custom
 * objects), with hostile values in bodies, filters, sorts, pages, includes, fields, ids and
 * action parameters, sent by more clients at once than the server has connections. No answer may
 * be a 5xx, every 4xx must be a JSON:API error document, every other body a JSON:API document,
 * and afterwards no connection may be left inside a transaction.
 *
 * Requests are drawn with fast-check from a fixed seed (FUZZ_SEED) in a fixed order; how many
 * are sent depends on the machine, within a wall-clock budget (FUZZ_SECONDS). Findings are
 * grouped by cause (the server's log of each 500) with one request to reproduce each.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20260714);
const BUDGET_MS = Number(process.env.FUZZ_SECONDS ?? 75) * 1000;
const MAX_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 30_000);
/** More clients than connections, so a request that keeps its connection shows at once. */
const CLIENTS = 8;
const POOL_SIZE = 4;
/** A request unanswered this long is a finding (and a hung handler holds a connection). */
const REQUEST_TIMEOUT_MS = 15_000;
const CHUNK = 250;

let api: TestApi;
/** What the server logged for each failed request id: the cause of a 500. */
const serverErrors = new Map<string, string>();
let requestArbitrary: fc.Arbitrary<FuzzRequest>;

/** Collects the server's error log lines by request id. */
function errorLog(): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        const entry = JSON.parse(line) as { requestId?: string; err?: { message?: string; code?: string }; msg?: string };
        if (entry.requestId) serverErrors.set(entry.requestId, `${entry.err?.code ? `${entry.err.code} ` : ''}${entry.err?.message ?? entry.msg ?? ''}`);
      }
      done();
    },
  });
}

/** A custom object with a field of every type and relationships of every kind. */
const CUSTOM_OBJECTS = [
  { name: 'room', displayName: 'Room', displayField: 'label', fields: [{ name: 'label', type: 'string', required: true, filterable: true, sortable: true }] },
  {
    name: 'booking',
    displayName: 'Booking',
    displayField: 'title',
    fields: [
      { name: 'title', type: 'string', filterable: true, sortable: true },
      { name: 'seats', type: 'integer', filterable: true, sortable: true },
      { name: 'amount', type: 'number', filterable: true, sortable: true },
      { name: 'paid', type: 'boolean', filterable: true, sortable: true },
      { name: 'startsAt', type: 'date-time', filterable: true, sortable: true },
    ],
    relationships: [
      { name: 'prospect', target: 'prospect' },
      { name: 'room', target: 'room' },
    ],
  },
];

/** Values the schema of a standard resource accepts (formats and patterns included); none for custom objects. */
function samplesOf(type: string, attribute: AttributeDescriptor): unknown[] {
  if (!descriptors.has(type)) return [];
  return [0, 1, 2, 3].map((variant) => sampleValue(type, attribute, variant));
}

/** The org's custom objects as the engine describes them, read back from the database. */
async function customDescriptors(): Promise<ResourceDescriptor[]> {
  const rows = await api.sql`select * from cadence_system.custom_object_definitions_of(${api.org.orgId})`;
  const definitions = rows.map((row) => definitionOf(row as never));
  const displayFields = new Map(definitions.map((d) => [d.name, d.displayField]));
  return definitions.map((d) => customObjectDescriptor(d, displayFields));
}

beforeAll(async () => {
  api = await startTestApi({ poolSize: POOL_SIZE, log: pino({ level: 'error' }, errorLog()) });
  for (const attributes of CUSTOM_OBJECTS) {
    const defined = await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes } } });
    expect(defined.status, JSON.stringify(defined.body)).toBe(201);
  }
  // A few records of each resource, so that plausible ids name something from the start.
  for (const d of descriptors.values()) {
    if (d.operations.create) for (const variant of [0, 1, 2]) await createSampleRecord(api, d.type, variant);
  }
  for (const label of ['Blue', 'Red']) await api.request('POST', '/api/v2/customObjects/room', { body: { data: { type: 'room', attributes: { label } } } });

  const custom = await customDescriptors();
  const all = new Map([...descriptors, ...custom.map((d) => [d.type, d] as const)]);
  const operations = [...all.values()].flatMap((d) => resourceRequests(d, (type) => all.get(type), samplesOf));
  const others = [...definitionRequests(), ...credentialRequests()].map((arbitrary) => ({ weight: 2, arbitrary }));
  requestArbitrary = fc.oneof(...operations, ...others);
});
afterAll(async () => {
  await api?.close();
});

interface Outcome {
  status: number | undefined;
  /** What is wrong with the answer; undefined when nothing is. */
  problem?: string;
  /** links.next of a list page, to follow with a cursor the server made. */
  next?: string;
}

function checkDocument(request: FuzzRequest, status: number, contentType: string | null, text: string): string | undefined {
  if (text === '') return status >= 400 && !request.bodiless ? `a ${status} without a body` : undefined;
  if (request.bodiless) return undefined;
  if (contentType !== MEDIA_TYPE) return `Content-Type ${contentType}`;
  let document: any;
  try {
    document = JSON.parse(text);
  } catch {
    return 'a body that is not JSON';
  }
  try {
    assertJsonApiDocument(document);
  } catch (error) {
    return `not a JSON:API document: ${(error as Error).message.split('\n')[1]?.trim()}`;
  }
  if (status >= 400) {
    if (!Array.isArray(document.errors) || document.errors.length === 0) return 'a 4xx without errors';
    if (document.errors.some((e: { status?: string }) => e.status !== String(status))) return 'an error whose status is not the response status';
  }
  return undefined;
}

async function send(request: FuzzRequest): Promise<Outcome> {
  const headers: Record<string, string> = { accept: MEDIA_TYPE, ...request.headers };
  headers.authorization ??= `Bearer ${api.org.token}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${api.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body !== undefined && { body: request.body }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: undefined, problem: `no answer: ${(error as Error).name} ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  }
  const { status } = response;
  if (status >= 500) {
    const requestId = response.headers.get('x-request-id') ?? '';
    return { status, problem: `${status}: ${serverErrors.get(requestId) ?? text.slice(0, 200)}` };
  }
  const problem = checkDocument(request, status, response.headers.get('content-type'), text);
  if (problem) return { status, problem };
  if (request.method === 'GET' && status === 200 && text.includes('"next"')) {
    const next = JSON.parse(text).links?.next;
    if (typeof next === 'string') return { status, next: next.slice(api.baseUrl.length) };
  }
  return { status };
}

interface Finding {
  readonly cause: string;
  count: number;
  readonly routes: Set<string>;
  readonly example: FuzzRequest;
}

interface FuzzRun {
  sent: number;
  byStatus: Map<string, number>;
  findings: Map<string, Finding>;
  seconds: number;
}

/** Numbers and quoted values vary between instances of one cause; the rest names it. */
const causeKey = (problem: string) =>
  problem
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 160);

async function fuzz(): Promise<FuzzRun> {
  const started = Date.now();
  const run: FuzzRun = { sent: 0, byStatus: new Map(), findings: new Map(), seconds: 0 };
  const pending: FuzzRequest[] = [];
  const followUps: FuzzRequest[] = [];
  let chunk = 0;
  let drawn = 0;
  const nextRequest = (): FuzzRequest | undefined => {
    if (Date.now() - started > BUDGET_MS) return undefined;
    const followUp = followUps.shift();
    if (followUp) return followUp;
    if (pending.length === 0 && drawn < MAX_REQUESTS) {
      // Drawn in seeded chunks, so a run's requests are the same whatever its length.
      pending.push(...fc.sample(requestArbitrary, { seed: (SEED * 7919 + chunk++) | 0, numRuns: CHUNK }));
      drawn += CHUNK;
    }
    return pending.shift();
  };
  const client = async () => {
    for (let request = nextRequest(); request; request = nextRequest()) {
      const outcome = await send(request);
      run.sent++;
      const statusClass = outcome.status === undefined ? 'no answer' : `${String(outcome.status)[0]}xx`;
      run.byStatus.set(statusClass, (run.byStatus.get(statusClass) ?? 0) + 1);
      if (outcome.next && followUps.length < CLIENTS)
        followUps.push({ method: 'GET', path: outcome.next, route: `${request.route.replace(/ links\.next$/, '')} links.next` });
      if (!outcome.problem) continue;
      const key = causeKey(outcome.problem);
      const finding = run.findings.get(key) ?? { cause: outcome.problem, count: 0, routes: new Set(), example: request };
      finding.count++;
      finding.routes.add(request.route);
      run.findings.set(key, finding);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  run.seconds = (Date.now() - started) / 1000;
  return run;
}

const shortened = (text: string | undefined, length = 400) => (text && text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text);

function report(run: FuzzRun): string[] {
  const statuses = [...run.byStatus]
    .sort()
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const fivexx = [...run.byStatus].filter(([s]) => s === '5xx').reduce((sum, [, n]) => sum + n, 0);
  const lines = [
    `fuzz: seed ${SEED}, ${CLIENTS} clients, pool ${POOL_SIZE}: ${run.sent} requests in ${run.seconds.toFixed(1)} s (${statuses}); ${fivexx} 5xx; ${run.findings.size} kinds of finding`,
  ];
  for (const f of [...run.findings.values()].sort((a, b) => b.count - a.count)) {
    lines.push(
      `  ${f.count} × ${shortened(f.cause, 200)}\n    on ${[...f.routes].slice(0, 6).join('; ')}${f.routes.size > 6 ? ` and ${f.routes.size - 6} more` : ''}\n` +
        `    e.g. ${f.example.method} ${shortened(f.example.path, 300)}${f.example.body !== undefined ? `\n    body ${shortened(f.example.body)}` : ''}`,
    );
  }
  return lines;
}

describe('fuzz', () => {
  it(
    'no request gets a 5xx; every 4xx is a JSON:API error document',
    async () => {
      const run = await fuzz();
      const lines = report(run);
      console.log(lines.join('\n'));
      expect(run.sent).toBeGreaterThan(0);
      expect(lines.slice(1), lines[0]).toEqual([]);
    },
    BUDGET_MS + REQUEST_TIMEOUT_MS + 30_000,
  );

  it('afterwards no connection is left in a transaction, and the API still answers', async () => {
    const observer = connectDatabase(api.databaseUrl, { max: 1 });
    try {
      let stuck: { state: string; query: string }[] = [];
      // A read's COMMIT may still be on its way for a moment after its answer.
      for (let attempt = 0; attempt < 20; attempt++) {
        stuck = await observer<{ state: string; query: string }[]>`
          select state, query from pg_stat_activity
           where datname = current_database() and application_name = 'cadence' and pid <> pg_backend_pid()
             and state like 'idle in transaction%'`;
        if (stuck.length === 0) break;
        await sleep(250);
      }
      expect(stuck).toEqual([]);
    } finally {
      await observer.end();
    }
    const list = await send({ method: 'GET', path: '/api/v2/prospects?page[size]=1', route: 'GET /prospects' });
    expect([list.status, list.problem]).toEqual([200, undefined]);
    const body = JSON.stringify({ data: { type: 'prospect', attributes: { firstName: 'After' } } });
    const created = await send({ method: 'POST', path: '/api/v2/prospects', body, headers: { 'content-type': MEDIA_TYPE }, route: 'POST /prospects' });
    expect(created).toEqual({ status: 201 });
  });
});
