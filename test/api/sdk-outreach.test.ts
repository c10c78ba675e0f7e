import { HTTPError } from '@opensdks/runtime';
import { initOutreachSDK, type OutreachSDK } from '@opensdks/sdk-outreach';
import diagnostics from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import type { ResourceDescriptor, ToOneDescriptor } from '../../runtime/model/descriptor.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { createSampleRecord, sampleAttributes } from '../helpers/samples.js';

/**
 * @opensdks/sdk-outreach, a client generated from the real service's OpenAPI document and run
 * by openapi-fetch, calls every operation of the document it bundles against Cadence. It is
 * built as a user builds it, with only the base URL (and the token) changed, and keeps its
 * default headers: openapi-fetch sends `Content-Type: application/json` on every request, GETs
 * and DELETEs included, which once made all of its operations answer 415.
 *
 * The SDK imports @opensdks/runtime without declaring it (the package lists it only among its
 * devDependencies), so it is installed next to the SDK, as every user of the SDK has to.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Operation {
  readonly method: Method;
  /** The path template of the SDK's document, relative to its server URL (`/prospects/{id}`). */
  readonly path: string;
  readonly hasBody: boolean;
}
interface Outcome {
  readonly operation: Operation;
  readonly status: number;
  /** The error document of a non-2xx answer. */
  readonly error?: unknown;
}

/** The operations of the SDK's document that a Cadence server answers with 404, and why. */
const NOT_SERVED: readonly { readonly operations: readonly string[]; readonly reason: string }[] = [
  { operations: ['POST /customDuties'], reason: 'SPEC.md: "The resource `customDuty` has been removed" (schema change of 2026-06-08).' },
  {
    operations: ['GET /audits'],
    reason:
      'The older audit API, deprecated in favour of the audit log API (SPEC.md, Versioning 6), which Cadence serves at /auditLogs. ' +
      'SPEC.md lists no `audit` resource and the reference OpenAPI (/work/shared/reference) has no /audits either.',
  },
  {
    operations: ['POST /mailboxes/{id}/actions/linkEwsMasterAccount', 'POST /mailboxes/{id}/actions/unlinkEwsMasterAccount'],
    reason: 'Not built: Exchange (EWS) master accounts; mailboxes send over SMTP and sync over IMAP (runtime/mail).',
  },
];
const NOT_SERVED_OPERATIONS = new Set(NOT_SERVED.flatMap((entry) => entry.operations));

/**
 * Actions with a required actionParams value, which these calls do not send (they send a path id
 * and a body only): Cadence answers 400 naming the parameter, as the reference requires it.
 */
const REQUIRED_PARAMS_UNSENT = new Map([
  ['POST /tasks/{id}/actions/reassignOwner', 'actionParams[ownerId]'],
  ['POST /tasks/{id}/actions/reschedule', 'actionParams[dueAt]'],
  ['POST /tasks/{id}/actions/updateNote', 'actionParams[note]'],
  ['POST /tasks/{id}/actions/updateOpportunityAssociation', 'actionParams[opportunityAssociation]'],
]);

/** The package pins its document; "all 178 of its operations" is what the interop issue reported. */
const SDK_OPERATIONS = 178;
const REQUEST_TIMEOUT_MS = 20_000;
const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'DELETE'];

// Variants of sample attributes, so records made for different purposes do not collide on
// unique values (a user's email): the long-lived records, updates, creates, and records to delete.
const VARIANT = { record: 0, update: 1, create: 2, doomed: 3 } as const;

const sdkDocument = createRequire(import.meta.url)('@opensdks/sdk-outreach/outreach.oas.json') as {
  servers: { url: string }[];
  paths: Record<string, Partial<Record<Lowercase<Method>, { requestBody?: unknown }>>>;
};
const byCollection = new Map([...descriptors.values()].map((d) => [d.collection, d]));

let api: TestApi;
let outcomes: Outcome[];
/** The Content-Type of every request the SDK sent, as it went out on the wire. */
let sentContentTypes: { request: string; contentType: string | undefined }[];

function sdkOperations(): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(sdkDocument.paths)) {
    for (const method of METHODS) {
      const operation = item[method.toLowerCase() as Lowercase<Method>];
      if (operation) operations.push({ method, path, hasBody: operation.requestBody !== undefined });
    }
  }
  // Deletes last (each on a record of its own), so every other operation still finds the records it names.
  return [...operations.filter((o) => o.method !== 'DELETE'), ...operations.filter((o) => o.method === 'DELETE')];
}

const nameOf = (o: Operation): string => `${o.method} ${o.path}`;
const collectionOf = (o: Operation): string => o.path.split('/')[1]!;
const hasId = (o: Operation): boolean => o.path.includes('{id}');

/**
 * A record of `d` in the org. The org's settings record exists from its creation, at the org's
 * id. Other types the API cannot create (mailAlias, taskPriority: README, "Read-only
 * attributes") are seeded in the database, as the real service's orgs have them, so their routes
 * are exercised against a record that exists.
 */
async function createRecord(d: ResourceDescriptor, variant: number): Promise<number> {
  if (d.operations.create) return createSampleRecord(api, d.type, variant);
  if (d.type === 'orgSetting') return api.org.orgId;
  const [row] = await api.sql<{ id: string }[]>`insert into ${api.sql(d.table)} (org_id) values (${api.org.orgId}) returning id`;
  return Number(row!.id);
}

/** The body of a create: sample attributes, and records of the org for its required to-ones. */
async function createBody(d: ResourceDescriptor, records: Map<string, number>): Promise<unknown> {
  const relationships: Record<string, unknown> = {};
  const required = d.relationships.filter((r): r is ToOneDescriptor => r.kind === 'toOne' && r.required && r.writableOnCreate);
  for (const rel of required) {
    const target = descriptors.get(rel.target)!;
    if (!records.has(target.collection)) records.set(target.collection, await createRecord(target, VARIANT.record));
    relationships[rel.name] = { data: { type: rel.target, id: records.get(target.collection) } };
  }
  return { data: { type: d.type, attributes: sampleAttributes(d, VARIANT.create), relationships } };
}

/** What each operation sends: its path id and, when it takes one, its body. */
interface Call {
  readonly operation: Operation;
  readonly id?: number;
  readonly body?: unknown;
}

/** Records every operation needs, made up front so only the SDK's own requests go out while it runs. */
async function prepareCalls(operations: readonly Operation[]): Promise<Call[]> {
  const records = new Map<string, number>();
  const calls: Call[] = [];
  for (const operation of operations) {
    const d = byCollection.get(collectionOf(operation));
    if (!d) {
      // A collection Cadence does not have (on NOT_SERVED): there is no record to name, and the
      // route answers before any body is read.
      calls.push({ operation, ...(hasId(operation) && { id: 1 }), ...(operation.hasBody && { body: { data: { attributes: {} } } }) });
      continue;
    }
    let id: number | undefined;
    if (operation.method === 'DELETE') id = await createRecord(d, VARIANT.doomed);
    else if (hasId(operation)) {
      if (!records.has(d.collection)) records.set(d.collection, await createRecord(d, VARIANT.record));
      id = records.get(d.collection);
    }
    let body: unknown;
    if (operation.hasBody && operation.method === 'POST') body = await createBody(d, records);
    if (operation.hasBody && operation.method === 'PATCH') body = { data: { type: d.type, id, attributes: sampleAttributes(d, VARIANT.update) } };
    calls.push({ operation, ...(id !== undefined && { id }), ...(body !== undefined && { body }) });
  }
  return calls;
}

type Send = (path: string, init: { params: { path?: { id: number } }; body?: unknown; signal: AbortSignal }) => Promise<{ response: Response }>;

/** Sends one operation through the SDK's method for it, as openapi-fetch's typed call with the path template. */
async function send(sdk: OutreachSDK, call: Call): Promise<Outcome> {
  // The SDK types each method by its path templates; here the templates are data, read from its document.
  const method = sdk[call.operation.method] as unknown as Send;
  try {
    const { response } = await method(call.operation.path, {
      params: call.id === undefined ? {} : { path: { id: call.id } },
      ...(call.body !== undefined && { body: call.body }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { operation: call.operation, status: response.status };
  } catch (error) {
    // The SDK throws its HTTPError for every answer that is not 2xx; anything else (a timeout) ends the run.
    if (!(error instanceof HTTPError)) throw new Error(`${nameOf(call.operation)}: ${String(error)}`, { cause: error });
    return { operation: call.operation, status: error.response.status, error: error.error };
  }
}

/** A request header as undici (Node 20 and later) reports it: a flat list of names and values. */
function headerValue(headers: unknown, name: string): string | undefined {
  if (!Array.isArray(headers)) throw new Error(`undici reported request headers as ${typeof headers}, not a list`);
  for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
  return undefined;
}

/** Runs the calls one at a time while watching what undici puts on the wire for the server's origin. */
async function sendAll(sdk: OutreachSDK, calls: readonly Call[]): Promise<Outcome[]> {
  const origin = new URL(api.baseUrl).origin;
  const watch = (message: unknown): void => {
    const { request } = message as { request: { origin: string; method: string; path: string; headers: unknown } };
    if (request.origin === origin) sentContentTypes.push({ request: `${request.method} ${request.path}`, contentType: headerValue(request.headers, 'content-type') });
  };
  diagnostics.subscribe('undici:request:create', watch);
  try {
    const results: Outcome[] = [];
    for (const call of calls) results.push(await send(sdk, call));
    return results;
  } finally {
    diagnostics.unsubscribe('undici:request:create', watch);
  }
}

function summarise(): void {
  const byClass = new Map<string, number>();
  const byStatus = new Map<number, number>();
  for (const { status } of outcomes) {
    byClass.set(`${Math.floor(status / 100)}xx`, (byClass.get(`${Math.floor(status / 100)}xx`) ?? 0) + 1);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
  const sorted = <K>(m: Map<K, number>) => Object.fromEntries([...m].sort(([a], [b]) => String(a).localeCompare(String(b))));
  const notOk = outcomes.filter((o) => o.status >= 300).map((o) => `  ${o.status} ${nameOf(o.operation)} ${JSON.stringify(o.error).slice(0, 240)}`);
  console.log(
    [
      `@opensdks/sdk-outreach: ${outcomes.length} operations called, by class ${JSON.stringify(sorted(byClass))}, by status ${JSON.stringify(sorted(byStatus))}`,
      'Answers other than 2xx:',
      ...notOk,
    ].join('\n'),
  );
}

beforeAll(async () => {
  api = await startTestApi();
  const sdk = initOutreachSDK({
    // The document's server (https://api.outreach.io/api/v2) on the test server's origin.
    baseUrl: `${api.baseUrl}${new URL(sdkDocument.servers[0]!.url).pathname}`,
    headers: { authorization: `Bearer ${api.org.token}` },
  });
  const calls = await prepareCalls(sdkOperations());
  sentContentTypes = [];
  outcomes = await sendAll(sdk, calls);
  summarise();
}, 240_000);
afterAll(async () => {
  await api?.close();
});

describe('@opensdks/sdk-outreach against Cadence', () => {
  it('calls every operation of its bundled document', () => {
    expect(outcomes.length).toBe(SDK_OPERATIONS);
  });

  it('sent Content-Type application/json on every request, bodyless ones included', () => {
    expect(sentContentTypes.length).toBe(SDK_OPERATIONS);
    expect(sentContentTypes.filter((s) => s.contentType !== 'application/json')).toEqual([]);
  });

  it('gets no 415 and no 5xx from any operation', () => {
    expect(outcomes.filter((o) => o.status === 415 || o.status >= 500).map((o) => `${o.status} ${nameOf(o.operation)} ${JSON.stringify(o.error)}`)).toEqual([]);
  });

  it('gets 2xx, or 422 for a body or state the server refuses, from every operation Cadence serves', () => {
    const expected = (o: Outcome) => NOT_SERVED_OPERATIONS.has(nameOf(o.operation)) || REQUIRED_PARAMS_UNSENT.has(nameOf(o.operation));
    const unexpected = outcomes.filter((o) => !expected(o) && !(o.status < 300 || o.status === 422));
    expect(unexpected.map((o) => `${o.status} ${nameOf(o.operation)} ${JSON.stringify(o.error)}`)).toEqual([]);
  });

  it('gets 400 naming the parameter from each action whose required actionParams value was not sent', () => {
    const answered = outcomes.filter((o) => REQUIRED_PARAMS_UNSENT.has(nameOf(o.operation)));
    expect(answered.map((o) => [nameOf(o.operation), o.status, (o.error as { errors?: { source?: unknown }[] })?.errors?.[0]?.source]).sort()).toEqual(
      [...REQUIRED_PARAMS_UNSENT].map(([name, parameter]) => [name, 400, { parameter }]).sort(),
    );
  });

  it('gets 404 for exactly the operations on the list of those Cadence does not serve', () => {
    // An entry that no longer answers 404 (issue #15 landed) or names no operation of the document comes off the list.
    const listed = outcomes.filter((o) => NOT_SERVED_OPERATIONS.has(nameOf(o.operation)));
    expect(listed.map((o) => nameOf(o.operation)).sort()).toEqual([...NOT_SERVED_OPERATIONS].sort());
    expect(listed.filter((o) => o.status !== 404).map((o) => `${o.status} ${nameOf(o.operation)}`)).toEqual([]);
  });
});
