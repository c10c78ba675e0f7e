import { dereference } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, MEDIA_TYPE, type TestApi } from '../helpers/api.js';
import { startTestWorker } from '../helpers/bulk-actions.js';
import { createSampleRecord } from '../helpers/samples.js';
import { until } from '../helpers/wait.js';

/**
 * What the OpenAPI document says is what is served (issue #27): real answers of every standard
 * resource, validated against the response schemas of the document the server serves, formats
 * included, so a client generated from it reads them as they are. One record of each resource
 * that can be created, and a finished bulk upsert for the batch and its items.
 */

type Schema = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
type OpenApi = { paths: Record<string, Record<string, Operation>> };

let api: TestApi;
let worker: StartedWorker;
let document: OpenApi;
let upsertAnswer: unknown;
const ajv = addFormats.default(new Ajv2020({ strict: false, allErrors: true }));

/** Records of every resource with a create; what they need is made along the way. */
async function createOneOfEach(): Promise<void> {
  for (const d of descriptors.values()) if (d.operations.create) await createSampleRecord(api, d.type);
}

/** A bulk upsert with one good and one bad record, so its batch has a success and an error item; waits until it is finished. */
async function finishedUpsert(): Promise<unknown> {
  const records = [{ data: { type: 'account', attributes: { name: 'Conformance' } } }, { data: { type: 'account', attributes: { name: 7 } } }];
  const response = await api.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes: { records } } } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  await until(
    'the bulk upsert batch to finish',
    async () => {
      const batch = await api.request('GET', `/api/v2/batches/${response.body.data.id}`);
      return batch.body.data.attributes.state === 'finished' ? true : undefined;
    },
    60_000,
  );
  return response.body;
}

beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api);
  await createOneOfEach();
  upsertAnswer = await finishedUpsert();
  const served = await fetch(`${api.baseUrl}/api/v2/schema/openapi.json`, { headers: { authorization: `Bearer ${api.org.token}` } });
  // The parser's types want a whole OpenAPI document type; the test reads only paths.
  document = await dereference((await served.json()) as never);
}, 300_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

function responseSchema(path: string, method: string, status: string): Schema {
  const schema = document.paths[path]?.[method]?.responses[status]?.content?.[MEDIA_TYPE]?.schema;
  if (!schema) throw new Error(`the document has no ${status} answer for ${method.toUpperCase()} ${path}`);
  return schema;
}

/** Every way `body` breaks `schema`, each as `<where>: <what>` (with the value found), none when it conforms. */
function mismatches(label: string, schema: Schema, body: unknown): string[] {
  const validate = ajv.compile(schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${label} ${e.instancePath}: ${e.message} (${JSON.stringify(valueAt(body, e.instancePath))})`);
}

function valueAt(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], body);
}

/**
 * Attributes and relationships served but not declared: the schemas let unknown members pass
 * (sparse fieldsets aside, a client ignores what it does not know), so they are compared by name.
 */
function undeclared(label: string, resources: readonly { type: string; attributes: object; relationships: object }[]): string[] {
  const schemas = (document as unknown as { components: { schemas: Record<string, { properties: Record<string, { properties?: object }> }> } }).components.schemas;
  return resources.flatMap((resource) => {
    const declared = schemas[resource.type]!.properties;
    return (['attributes', 'relationships'] as const).flatMap((member) =>
      Object.keys(resource[member])
        .filter((name) => !Object.hasOwn(declared[member]?.properties ?? {}, name))
        .map((name) => `${label} ${resource.type}.${member}.${name}: served but not declared`),
    );
  });
}

/** GET <collection> and GET of its first member, each checked against the document's 200 answer. */
async function collectionMismatches(collection: string, hasMember: boolean): Promise<string[]> {
  const path = `/api/v2/${collection}`;
  const list = await api.request('GET', path);
  expect(list.status, `${path}: ${JSON.stringify(list.body)}`).toBe(200);
  const found = [...mismatches(`GET ${path}`, responseSchema(path, 'get', '200'), list.body), ...undeclared(`GET ${path}`, list.body.data)];
  const first = list.body.data[0];
  if (!hasMember || !first) return found;
  const member = await api.request('GET', `${path}/${first.id}`);
  expect(member.status).toBe(200);
  return [...found, ...mismatches(`GET ${path}/${first.id}`, responseSchema(`${path}/{id}`, 'get', '200'), member.body)];
}

describe('real answers validate against the served OpenAPI document', () => {
  it('every collection of a standard resource, and one member of each', async () => {
    const found: string[] = [];
    for (const d of descriptors.values()) if (d.operations.list) found.push(...(await collectionMismatches(d.collection, d.operations.get)));
    expect(found).toEqual([]);
  });

  it('the batch a bulk upsert answers with, and its items', async () => {
    expect(mismatches('POST bulkUpsert', responseSchema('/api/v2/imports/actions/bulkUpsert', 'post', '200'), upsertAnswer)).toEqual([]);
    const items = await api.request('GET', '/api/v2/batchItems');
    // The error item is there, so its errors are checked too.
    expect(items.body.data.map((i: { attributes: { state: string } }) => i.attributes.state).sort()).toEqual(['error', 'success']);
  });

  it('catches a mismatch: the schemas are not merely permissive', async () => {
    const path = '/api/v2/batches';
    const list = await api.request('GET', path);
    const wrong = { ...list.body, data: [{ ...list.body.data[0], attributes: { ...list.body.data[0].attributes, total: 'two' } }] };
    expect(mismatches(`GET ${path}`, responseSchema(path, 'get', '200'), wrong)).not.toEqual([]);
  });
});
