import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { MEDIA_TYPE, startTestApi, type ApiResponse, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * Bulk upsert over HTTP (SPEC.md "Bulk upsert"), with a real graphile-worker writing the
 * chunks and a real HTTPS receiver for the webhooks the records' writes fire. Everything is
 * asserted as a client sees it: the batch, its items, the records, the deliveries.
 */

const HOOK_HOST = 'hooks.example.test';
const start = Date.parse('2026-11-21T12:00:00.000Z');
let now = start;
const clock = () => new Date(now);

let api: TestApi;
let worker: StartedWorker | undefined;
let certificate: TestCertificate;
let receiver: Receiver;

async function startTestWorker(): Promise<StartedWorker> {
  return startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    clock,
    delivery: { allowedHosts: new Set([HOOK_HOST]), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
  });
}

beforeAll(async () => {
  certificate = await makeCertificate('*.example.test');
  receiver = await startReceiver(certificate, (_request, response) => response.end('ok'));
  api = await startTestApi({ clock });
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await receiver?.close();
});

type Rec = { data: Record<string, unknown> };

function upsert(records: Rec[], options: { dupeMethod?: string; path?: string; token?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
  const attributes = { ...(options.dupeMethod && { dupeMethod: options.dupeMethod }), records };
  return api.request('POST', `/api/v2/imports/actions/${options.path ?? 'bulkUpsert'}`, {
    body: { data: { attributes } },
    ...(options.token && { token: options.token }),
    ...(options.headers && { headers: options.headers }),
  });
}

/** The batch once it is no longer pending. */
async function settled(batchId: number) {
  return until(
    `batch ${batchId} to settle`,
    async () => {
      const { body } = await api.request('GET', `/api/v2/batches/${batchId}`);
      return body.data.attributes.state === 'pending' ? undefined : body.data;
    },
    60_000,
  );
}

async function itemsOf(batchId: number, query = '') {
  const { status, body } = await api.request('GET', `/api/v2/batchItems?filter[batch][id]=${batchId}&sort=id&page[size]=1000${query}`);
  expect(status).toBe(200);
  return body.data as { id: number; attributes: Record<string, any> }[];
}

async function prospect(attributes: Record<string, unknown>): Promise<number> {
  const created = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes } } });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

async function prospectAttributes(id: number) {
  return (await api.request('GET', `/api/v2/prospects/${id}`)).body.data.attributes;
}

const epochSeconds = (ms: number) => String(Math.floor(ms / 1000));

describe('the answer and the batch', () => {
  it('answers 200 with the pending batch, then writes every record; items carry the data as sent and the new ids', async () => {
    const records = [
      { data: { type: 'prospect', attributes: { firstName: 'Grace', lastName: 'Hopper' }, meta: { sourceId: 'crm-1' } } },
      { data: { type: 'prospect', id: null, attributes: { firstName: 'Alan' }, meta: { sourceId: 'crm-2' } } },
    ];
    const response = await upsert(records);
    expect(response.status).toBe(200);
    const batch = response.body.data;
    expect(batch.type).toBe('batch');
    expect(batch.attributes).toMatchObject({
      action: 'bulkUpsert',
      resourceType: 'prospect',
      dupeMethod: 'skip',
      state: 'pending',
      total: 2,
      pending: 2,
      failures: 0,
      summary: null,
      startedAt: null,
      finishedAt: null,
      createdAt: epochSeconds(now),
      updatedAt: epochSeconds(now),
    });
    expect(batch.attributes.actor).toBeUndefined();
    expect(batch.relationships.batchItems.links.related).toContain(`/api/v2/batchItems?filter%5Bbatch%5D%5Bid%5D=${batch.id}`);

    const done = await settled(batch.id);
    expect(done.attributes).toMatchObject({ state: 'finished', total: 2, pending: 0, failures: 0, summary: null });
    expect(done.attributes.startedAt).toBe(clock().toISOString());
    expect(done.attributes.finishedAt).toBe(clock().toISOString());

    const items = await itemsOf(batch.id);
    expect(items.map((i) => [i.attributes.state, i.attributes.batchId, JSON.parse(i.attributes.data)])).toEqual([
      ['success', batch.id, records[0]],
      ['success', batch.id, records[1]],
    ]);
    // itemId correlates the source id in meta with the service's id.
    const first = await prospectAttributes(items[0]!.attributes.itemId);
    expect(first).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
    expect((await prospectAttributes(items[1]!.attributes.itemId)).firstName).toBe('Alan');
  });

  it('GET /batchItems: filter[batchId], filter[state]=error and fields[batchItem]=itemId,data', async () => {
    const existing = await prospect({ firstName: 'Kept' });
    const response = await upsert([
      { data: { type: 'prospect', attributes: { firstName: 'Fine' } } },
      { data: { type: 'prospect', attributes: { firstName: 42 } } },
      { data: { type: 'prospect', id: existing, attributes: { firstName: 'Ignored' } } },
    ]);
    const batchId = response.body.data.id;
    await settled(batchId);
    const byBatchId = await api.request('GET', `/api/v2/batchItems?filter[batchId]=${batchId}&sort=id`);
    expect(byBatchId.body.data.map((i: any) => i.attributes.state)).toEqual(['success', 'error', 'skipped']);
    const errors = await api.request('GET', `/api/v2/batchItems?filter[batch][id]=${batchId}&filter[state]=error`);
    expect(errors.body.data).toHaveLength(1);
    expect(errors.body.data[0].attributes.errors).toEqual([
      { id: 'validationError', status: '422', title: 'Validation Error', detail: expect.any(String), source: { pointer: '/data/attributes/firstName' } },
    ]);
    expect(errors.body.data[0].attributes.failed).toBe(true);
    const sparse = await api.request('GET', `/api/v2/batchItems?filter[batchId]=${batchId}&sort=id&fields[batchItem]=itemId,data`);
    expect(sparse.body.data.map((i: any) => Object.keys(i.attributes).sort())).toEqual([
      ['data', 'itemId'],
      ['data', 'itemId'],
      ['data', 'itemId'],
    ]);
    expect(sparse.body.data[2].attributes.itemId).toBe(existing);
  });

  it('item errors do not fail the batch: it finishes, counting them, with a summary', async () => {
    const response = await upsert([
      { data: { type: 'prospect', attributes: { firstName: 'Good' } } },
      { data: { type: 'prospect', attributes: { noSuchField: 1 } } },
      { data: { type: 'prospect', id: 999_999_999, attributes: { firstName: 'Nobody' } } },
      { data: { type: 'prospect', id: 'abc', attributes: {} } },
    ]);
    // A bad body is known at once; an unknown id only once the chunk has looked.
    expect(response.body.data.attributes).toMatchObject({ total: 4, pending: 2, failures: 2 });
    const done = await settled(response.body.data.id);
    expect(done.attributes).toMatchObject({
      state: 'finished',
      pending: 0,
      failures: 3,
      summary: { failures: 3, errors: { validationError: 2, resourceNotFound: 1 } },
    });
    const items = await itemsOf(done.id);
    expect(items.map((i) => i.attributes.state)).toEqual(['success', 'error', 'error', 'error']);
    expect(items[1]!.attributes.errors[0].source).toEqual({ pointer: '/data/attributes/noSuchField' });
    expect(items[2]!.attributes.errors).toEqual([
      { id: 'resourceNotFound', status: '404', title: 'Resource Not Found', detail: 'No prospect with id 999999999 exists', source: { pointer: '/data/id' } },
    ]);
    expect(items[3]!.attributes.errors[0].source).toEqual({ pointer: '/data/id' });
  });

  it('createdAt and updatedAt of batches render as epoch seconds in GET too', async () => {
    const response = await upsert([{ data: { type: 'prospect', attributes: { firstName: 'Epoch' } } }]);
    const listed = await api.request('GET', '/api/v2/batches?filter[resourceType]=prospect&page[size]=100');
    const one = await api.request('GET', `/api/v2/batches/${response.body.data.id}`);
    expect(one.body.data.attributes).toMatchObject({ createdAt: epochSeconds(now), updatedAt: epochSeconds(now) });
    const inList = listed.body.data.find((b: { id: number }) => b.id === response.body.data.id);
    expect(inList.attributes.createdAt).toBe(epochSeconds(now));
    await settled(response.body.data.id);
  });
});

describe('dupeMethod', () => {
  it('skip (the default): a record with the id of an existing one stores nothing; one without id is created', async () => {
    const id = await prospect({ firstName: 'Ada', title: null });
    const response = await upsert([
      { data: { type: 'prospect', id, attributes: { firstName: 'Changed', title: 'CTO' } } },
      { data: { type: 'prospect', attributes: { firstName: 'New' } } },
    ]);
    const items = await itemsOf((await settled(response.body.data.id)).id);
    expect(items.map((i) => i.attributes.state)).toEqual(['skipped', 'success']);
    expect(items[0]!.attributes.itemId).toBe(id);
    expect(await prospectAttributes(id)).toMatchObject({ firstName: 'Ada', title: null });
    expect((await prospectAttributes(items[1]!.attributes.itemId)).firstName).toBe('New');
  });

  it('missing: fills only the empty fields of the existing record', async () => {
    const id = await prospect({ firstName: 'Ada', title: null });
    const response = await upsert([{ data: { type: 'prospect', id: String(id), attributes: { firstName: 'Changed', title: 'CTO' } } }], { dupeMethod: 'missing' });
    expect(response.body.data.attributes.dupeMethod).toBe('missing');
    const items = await itemsOf((await settled(response.body.data.id)).id);
    expect(items.map((i) => [i.attributes.state, i.attributes.itemId])).toEqual([['success', id]]);
    expect(await prospectAttributes(id)).toMatchObject({ firstName: 'Ada', title: 'CTO' });
  });

  it('overwrite: updates every given field of the existing record and creates records without id', async () => {
    const id = await prospect({ firstName: 'Ada', lastName: 'Lovelace', title: null });
    const response = await upsert(
      [{ data: { type: 'prospect', id, attributes: { firstName: 'Augusta', title: 'Countess' } } }, { data: { type: 'prospect', attributes: { firstName: 'Created' } } }],
      { dupeMethod: 'overwrite' },
    );
    const items = await itemsOf((await settled(response.body.data.id)).id);
    expect(items.map((i) => i.attributes.state)).toEqual(['success', 'success']);
    expect(await prospectAttributes(id)).toMatchObject({ firstName: 'Augusta', lastName: 'Lovelace', title: 'Countess' });
    expect((await prospectAttributes(items[1]!.attributes.itemId)).firstName).toBe('Created');
  });

  it('overwriteNoCreate: updates existing records and creates nothing', async () => {
    const id = await prospect({ firstName: 'Ada' });
    const before = await api.sql`select count(*)::int as n from prospects`;
    const response = await upsert(
      [{ data: { type: 'prospect', id, attributes: { firstName: 'Updated' } } }, { data: { type: 'prospect', attributes: { firstName: 'Never' } } }],
      { dupeMethod: 'overwriteNoCreate' },
    );
    const items = await itemsOf((await settled(response.body.data.id)).id);
    expect(items.map((i) => [i.attributes.state, i.attributes.itemId])).toEqual([
      ['success', id],
      ['skipped', null],
    ]);
    expect((await prospectAttributes(id)).firstName).toBe('Updated');
    const after = await api.sql`select count(*)::int as n from prospects`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});

describe('events and webhooks', () => {
  it('fire per record exactly as for single writes', async () => {
    const url = `https://${HOOK_HOST}:${receiver.port}/bulk`;
    const hook = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource: 'account' } } } });
    expect(hook.status).toBe(201);
    const existing = (await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Old' } } } })).body.data.id;
    const response = await upsert(
      [
        { data: { type: 'account', attributes: { name: 'One' } } },
        { data: { type: 'account', attributes: { name: 'Two' } } },
        { data: { type: 'account', id: existing, attributes: { name: 'Renamed' } } },
      ],
      { dupeMethod: 'overwrite' },
    );
    const items = await itemsOf((await settled(response.body.data.id)).id);
    const names = (request: { body: Buffer }) => JSON.parse(request.body.toString());
    const deliveries = await until('four deliveries', () => {
      const got = receiver.requests.filter((r) => r.path === '/bulk').map(names);
      return got.length >= 4 ? got : undefined;
    });
    const seen = deliveries.map((d) => [d.meta.eventName, d.data.id, d.data.attributes.name]).sort((a, b) => String(a).localeCompare(String(b)));
    expect(seen).toEqual(
      [
        ['account.created', existing, 'Old'],
        ['account.created', items[0]!.attributes.itemId, 'One'],
        ['account.created', items[1]!.attributes.itemId, 'Two'],
        ['account.updated', existing, 'Renamed'],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
    const events = await api.request('GET', `/api/v2/events?filter[name]=account_created,account_updated&page[size]=100`);
    expect(events.status).toBe(200);
  });
});

describe('custom objects', () => {
  it('customObjectBulkUpsert writes an org custom object; each action refuses the other kind of type', async () => {
    const definition = {
      name: 'room',
      displayName: 'Room',
      displayField: 'label',
      fields: [
        { name: 'label', type: 'string', required: true, filterable: true, sortable: true },
        { name: 'seats', type: 'integer', filterable: true, sortable: true },
      ],
    };
    const defined = await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: definition } } });
    expect(defined.status).toBe(201);
    const existing = (await api.request('POST', '/api/v2/customObjects/room', { body: { data: { type: 'room', attributes: { label: 'Blue', seats: 8 } } } })).body.data
      .id;
    const response = await upsert(
      [
        { data: { type: 'room', attributes: { label: 'Red', seats: 4 } } },
        { data: { type: 'room', id: existing, attributes: { seats: 10 } } },
        { data: { type: 'room', attributes: { seats: 2 } } },
      ],
      { path: 'customObjectBulkUpsert', dupeMethod: 'overwrite' },
    );
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ action: 'customObjectBulkUpsert', resourceType: 'room', failures: 1 });
    const items = await itemsOf((await settled(response.body.data.id)).id);
    expect(items.map((i) => i.attributes.state)).toEqual(['success', 'success', 'error']);
    expect(items[2]!.attributes.errors[0].source.pointer).toBe('/data/attributes/label');
    const red = await api.request('GET', `/api/v2/customObjects/room/${items[0]!.attributes.itemId}`);
    expect(red.body.data.attributes).toMatchObject({ label: 'Red', seats: 4 });
    expect((await api.request('GET', `/api/v2/customObjects/room/${existing}`)).body.data.attributes).toMatchObject({ label: 'Blue', seats: 10 });

    const wrongAction = await upsert([{ data: { type: 'room', attributes: { label: 'X' } } }]);
    expect(wrongAction.status).toBe(422);
    expect(wrongAction.body.errors[0].source).toEqual({ pointer: '/data/attributes/records/0/data/type' });
    const standard = await upsert([{ data: { type: 'prospect', attributes: {} } }], { path: 'customObjectBulkUpsert' });
    expect(standard.status).toBe(422);
  });
});

describe('requests refused as a whole', () => {
  const refused = async (attributes: unknown, pointer: string) => {
    const response = await api.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes } } });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ id: 'validationError', status: '422', title: 'Validation Error', source: { pointer } });
    expect(response.body.errors[0].detail).toEqual(expect.any(String));
  };

  it('422 for records of more than one type, no records, an unknown dupeMethod, an unknown attribute, a malformed record', async () => {
    await refused(
      {
        records: [{ data: { type: 'prospect', attributes: {} } }, { data: { type: 'account', attributes: {} } }],
      },
      '/data/attributes/records/1/data/type',
    );
    await refused({ records: [] }, '/data/attributes/records');
    await refused({}, '/data/attributes/records');
    await refused({ dupeMethod: 'merge', records: [{ data: { type: 'prospect' } }] }, '/data/attributes/dupeMethod');
    await refused({ records: [{ data: { type: 'prospect' } }], other: 1 }, '/data/attributes/other');
    await refused({ records: [{ data: { type: 'prospect' } }, 'text'] }, '/data/attributes/records/1/data');
    await refused({ records: [{ data: { attributes: {} } }] }, '/data/attributes/records/0/data/type');
  });

  it('422 for a type that is unknown or lacks create or update', async () => {
    await refused({ records: [{ data: { type: 'unicorn' } }] }, '/data/attributes/records/0/data/type');
    await refused({ records: [{ data: { type: 'batch' } }] }, '/data/attributes/records/0/data/type');
    await refused({ records: [{ data: { type: 'event' } }] }, '/data/attributes/records/0/data/type');
  });

  it('400 for malformed JSON, 415 for another media type, 400 for an unknown query parameter', async () => {
    const malformed = await api.request('POST', '/api/v2/imports/actions/bulkUpsert', { rawBody: '{"data":' });
    expect(malformed.status).toBe(400);
    const wrongType = await api.request('POST', '/api/v2/imports/actions/bulkUpsert', { rawBody: '{}', headers: { 'content-type': 'text/csv' } });
    expect(wrongType.status).toBe(415);
    const query = await api.request('POST', '/api/v2/imports/actions/bulkUpsert?x=1', { body: { data: { attributes: { records: [{ data: { type: 'prospect' } }] } } } });
    expect(query.status).toBe(400);
  });

  it('403 without each of imports.write, imports.read and batches.read', async () => {
    const all = ['imports.write', 'imports.read', 'batches.read', 'prospects.write'];
    for (const missing of ['imports.write', 'imports.read', 'batches.read']) {
      const token = await api.newUserToken(
        api.org.orgId,
        all.filter((s) => s !== missing),
      );
      const response = await upsert([{ data: { type: 'prospect', attributes: {} } }], { token });
      expect(response.status, missing).toBe(403);
      expect(response.body.errors[0]).toMatchObject({ id: 'insufficientScope', detail: expect.stringContaining(missing) });
    }
    const enough = await api.newUserToken(api.org.orgId, ['imports.write', 'imports.read', 'batches.read']);
    const ok = await upsert([{ data: { type: 'prospect', attributes: {} } }], { token: enough });
    expect(ok.status).toBe(200);
    // batches.read reads the batch and its items.
    expect((await api.request('GET', `/api/v2/batches/${ok.body.data.id}`, { token: enough })).status).toBe(200);
    expect((await api.request('GET', `/api/v2/batchItems?filter[batchId]=${ok.body.data.id}`, { token: enough })).status).toBe(200);
    await settled(ok.body.data.id);
  });
});

describe('the 2 MB body limit', () => {
  /** A request body of about `bytes` bytes of prospects. */
  function bodyOf(bytes: number): string {
    const record = { data: { type: 'prospect', attributes: { firstName: 'x'.repeat(1000) } } };
    const count = Math.ceil(bytes / (JSON.stringify(record).length + 1));
    return JSON.stringify({ data: { attributes: { records: Array.from({ length: count }, () => record) } } });
  }

  async function post(body: string | ReadableStream<Uint8Array>) {
    const response = await fetch(`${api.baseUrl}/api/v2/imports/actions/bulkUpsert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.org.token}`, 'content-type': MEDIA_TYPE },
      body,
      ...(typeof body !== 'string' && { duplex: 'half' }),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  function chunked(text: string): ReadableStream<Uint8Array> {
    const bytes = new TextEncoder().encode(text);
    let offset = 0;
    return new ReadableStream({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
        offset += 64 * 1024;
      },
    });
  }

  it('accepts 1.9 MB (more than other requests may carry), refuses 2.1 MB with a JSON:API 413, sent whole or chunked', async () => {
    const under = await post(bodyOf(1.9 * 1024 * 1024));
    expect(under.status).toBe(200);
    expect(under.body.data.attributes.total).toBeGreaterThan(1800);

    const over = bodyOf(2.1 * 1024 * 1024);
    for (const response of [await post(over), await post(chunked(over))]) {
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toBe(MEDIA_TYPE);
      expect(response.body.errors).toEqual([
        { id: 'requestTooLarge', status: '413', title: 'Payload Too Large', detail: `The request body is larger than ${2 * 1024 * 1024} bytes` },
      ]);
    }
    const chunkedUnder = await post(chunked(bodyOf(1.5 * 1024 * 1024)));
    expect(chunkedUnder.status).toBe(200);
    await settled(under.body.data.id);
    await settled(chunkedUnder.body.data.id);
  }, 120_000);

  it('accepts a body of exactly 2 MiB, whole or chunked, and refuses one byte more', async () => {
    const limit = 2 * 1024 * 1024;
    const body = bodyOf(limit - 16 * 1024);
    const exact = body + ' '.repeat(limit - Buffer.byteLength(body));
    const accepted = [await post(exact), await post(chunked(exact))];
    for (const response of accepted) {
      expect(response.status).toBe(200);
      expect(response.body.data.attributes.total).toBe(JSON.parse(body).data.attributes.records.length);
    }
    for (const response of [await post(`${exact} `), await post(chunked(`${exact} `))]) {
      expect(response.status).toBe(413);
      expect(response.body.errors[0]).toMatchObject({ id: 'requestTooLarge', status: '413' });
    }
    for (const response of accepted) await settled(response.body.data.id);
  }, 120_000);
});

describe('Idempotency-Key', () => {
  const records = [{ data: { type: 'prospect', attributes: { firstName: 'Once' } } }];

  it('the same key and body within 24 h returns the same batch; another body is a 422; after 24 h the key is new', async () => {
    const headers = { 'Idempotency-Key': 'order-7781' };
    const first = await upsert(records, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    await settled(first.body.data.id);
    now += 23 * 3600 * 1000;
    const again = await upsert(records, { headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(again.body.data.attributes.state).toBe('finished');
    expect(await itemsOf(first.body.data.id)).toHaveLength(1);

    const different = await upsert([{ data: { type: 'prospect', attributes: { firstName: 'Twice' } } }], { headers });
    expect(different.status).toBe(422);
    expect(different.body.errors[0]).toMatchObject({ id: 'idempotencyKeyReused', status: '422' });
    const otherAction = await upsert(records, { headers, path: 'customObjectBulkUpsert' });
    expect(otherAction.status).toBe(422);

    now += 2 * 3600 * 1000;
    const later = await upsert(records, { headers });
    expect(later.status).toBe(200);
    expect(later.body.data.id).not.toBe(first.body.data.id);
    await settled(later.body.data.id);
  });

  it('concurrent requests with one key make one batch', async () => {
    const headers = { 'Idempotency-Key': `race-${now}` };
    const responses = await Promise.all(Array.from({ length: 6 }, () => upsert(records, { headers })));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    await settled(responses[0]!.body.data.id);
  });

  it('keys are per org, and a malformed key is a 400', async () => {
    const other = await api.newOrg();
    const headers = { 'Idempotency-Key': 'shared-key' };
    const mine = await upsert(records, { headers });
    const theirs = await upsert(records, { headers, token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    const bad = await upsert(records, { headers: { 'Idempotency-Key': 'x'.repeat(256) } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].id).toBe('invalidIdempotencyKey');
    await settled(mine.body.data.id);
  });
});

describe('a fatal error', () => {
  it('fails the batch when its custom object is gone before the chunk runs; every item ends in error', async () => {
    const definition = { name: 'desk', displayName: 'Desk', displayField: 'label', fields: [{ name: 'label', type: 'string', filterable: true, sortable: true }] };
    const defined = await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: definition } } });
    expect(defined.status).toBe(201);
    // No worker while the definition goes: the chunk finds the type gone.
    await worker!.stop();
    worker = undefined;
    const response = await upsert([{ data: { type: 'desk', attributes: { label: 'A' } } }, { data: { type: 'desk', attributes: { label: 7 } } }], {
      path: 'customObjectBulkUpsert',
    });
    expect(response.status).toBe(200);
    expect((await api.request('DELETE', `/api/v2/customObjectDefinitions/${defined.body.data.id}`)).status).toBe(204);
    worker = await startTestWorker();
    const failed = await settled(response.body.data.id);
    expect(failed.attributes).toMatchObject({
      state: 'failed',
      pending: 0,
      failures: 2,
      summary: { failures: 2, errors: { validationError: 1, batchFailed: 1 }, fatal: 'This organisation has no custom object named "desk"' },
    });
    expect(failed.attributes.finishedAt).toBe(clock().toISOString());
    const items = await itemsOf(failed.id);
    expect(items.map((i) => [i.attributes.state, i.attributes.errors[0].id])).toEqual([
      ['error', 'batchFailed'],
      ['error', 'validationError'],
    ]);
  });
});

describe('retention', () => {
  it('purges upsert batches and their items after 30 days; other batches, and younger ones, are kept', async () => {
    const old = await upsert([{ data: { type: 'prospect', attributes: { firstName: 'Old batch' } } }]);
    await settled(old.body.data.id);
    const [other] = await api.sql`
      insert into batches (org_id, action, state, total, pending, failures, created_at, updated_at)
      values (${api.org.orgId}, 'accountsBulkModify', 'finished', 0, 0, 0, ${clock().toISOString()}, ${clock().toISOString()}) returning id`;
    now += 29 * 24 * 3600 * 1000;
    const young = await upsert([{ data: { type: 'prospect', attributes: { firstName: 'Young batch' } } }]);
    await settled(young.body.data.id);
    now += 2 * 24 * 3600 * 1000;

    await api.sql`select graphile_worker.add_job('purge_bulk_upserts')`;
    await until('the old batch to be purged', async () => ((await api.request('GET', `/api/v2/batches/${old.body.data.id}`)).status === 404 ? true : undefined));
    expect(await itemsOf(old.body.data.id)).toEqual([]);
    expect((await api.request('GET', `/api/v2/batches/${other!.id}`)).status).toBe(200);
    expect((await api.request('GET', `/api/v2/batches/${young.body.data.id}`)).status).toBe(200);
    expect(await itemsOf(young.body.data.id)).toHaveLength(1);
    // The records themselves stay: only the batch data goes.
    expect((await api.request('GET', '/api/v2/prospects?filter[firstName]=Old%20batch')).body.data).toHaveLength(1);
  });

  it('runs daily from the crontab', async () => {
    const [row] = await api.sql`select count(*)::int as n from graphile_worker._private_known_crontabs where identifier = 'purge_bulk_upserts'`;
    expect(row!.n).toBe(1);
  });
});
