import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * GET /api/v2/schema/openapi.json: a valid OpenAPI 3.1 document of what the server answers, from
 * which a generated client (openapi-typescript types, openapi-fetch at run time) works unchanged.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Operation {
  operationId: string;
  parameters?: ({ $ref: string } | { name: string; in: string; required?: boolean; schema?: unknown })[];
  security?: Record<string, string[]>[];
}
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, any>; parameters: Record<string, any>; securitySchemes: Record<string, any> };
};

let api: TestApi;
let anonymous: OpenApi;
let withToken: OpenApi;
let otherOrgDocument: OpenApi;

async function fetchDocument(token?: string): Promise<{ status: number; contentType: string | null; body: OpenApi }> {
  const response = await fetch(`${api.baseUrl}/api/v2/schema/openapi.json`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as OpenApi };
}

beforeAll(async () => {
  api = await startTestApi();
  const booking = {
    name: 'booking',
    displayName: 'Booking',
    displayField: 'title',
    fields: [
      { name: 'title', type: 'string', required: true, filterable: true, sortable: true },
      { name: 'startsAt', type: 'date-time', filterable: true, sortable: true },
    ],
    relationships: [{ name: 'prospect', target: 'prospect' }],
  };
  const defined = await api.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: booking } } });
  expect(defined.status).toBe(201);
  const other = await api.newOrg('Other');
  [anonymous, withToken, otherOrgDocument] = await Promise.all([fetchDocument(), fetchDocument(api.org.token), fetchDocument(other.token)]).then((all) =>
    all.map((d) => d.body),
  );
});
afterAll(async () => {
  await api?.close();
});

describe('the document', () => {
  it('is served as JSON without a token, and with an unknown one', async () => {
    const response = await fetchDocument();
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('application/json');
    expect(response.body.openapi).toBe('3.1.0');
    expect((await fetchDocument('cad_not_a_token')).body).toEqual(anonymous);
  });

  it('is valid OpenAPI 3.1, with and without custom objects', async () => {
    for (const document of [anonymous, withToken]) {
      const result = await validate(structuredClone(document) as never);
      expect(result, JSON.stringify(result)).toMatchObject({ valid: true, specification: 'OpenAPI' });
    }
  });

  it('has an operation for every link of the hyper-schema, and an action path only for those links', async () => {
    const schema = (await api.request('GET', '/api/v2/schema', { token: null })).body;
    const links = Object.values(schema.definitions as Record<string, { links: { href: string; method: string }[] }>).flatMap((d) => d.links);
    for (const link of links) {
      const path = link.href.replace('{:id}', '{id}');
      expect(anonymous.paths[path]?.[link.method.toLowerCase()], `${link.method} ${path}`).toBeDefined();
    }
    const actionLinks = links.filter((l) => l.href.includes('/actions/')).map((l) => l.href.replace('{:id}', '{id}'));
    const actionPaths = Object.keys(anonymous.paths).filter((p) => p.includes('/actions/'));
    expect(actionPaths.sort()).toEqual(actionLinks.sort());
    expect(actionPaths).toContain('/api/v2/tasks/{id}/actions/markComplete');
    expect(actionPaths).toContain('/api/v2/batches/{id}/actions/confirm');
    // Collection actions: the 23 bulk actions and the 2 bulk upserts.
    expect(actionPaths.filter((p) => /^\/api\/v2\/batches\/actions\/\w+$/.test(p))).toHaveLength(23);
    expect(actionPaths).toContain('/api/v2/batches/actions/accountAddTags');
    expect(actionPaths).toContain('/api/v2/imports/actions/bulkUpsert');
    expect(actionPaths).toContain('/api/v2/imports/actions/customObjectBulkUpsert');
  });

  it('describes collection actions: actionParams with filter as a deep object, a body, the document they answer with', () => {
    const bulkModify = anonymous.paths['/api/v2/batches/actions/customObjectBulkModify']!.post! as any;
    expect(bulkModify.operationId).toBe('batch.collectionActions.customObjectBulkModify');
    expect(bulkModify.parameters.map((p: any) => [p.name, p.required, p.style ?? 'form'])).toEqual([
      ['actionParams[objectName]', true, 'form'],
      ['actionParams[filter]', false, 'deepObject'],
      ['actionParams[skipConfirmation]', false, 'form'],
    ]);
    expect(bulkModify.security).toEqual([{ bearerAuth: [] }, { oauth2: ['batches.read', 'batches.write'] }]);
    expect(bulkModify.requestBody.required).toBe(false);
    expect(bulkModify.responses['200'].content['application/vnd.api+json'].schema).toEqual({ $ref: '#/components/schemas/batch.document' });
    expect(bulkModify.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    // A bulk upsert answers with the batch it started, and needs the scopes SPEC.md names.
    const upsert = anonymous.paths['/api/v2/imports/actions/bulkUpsert']!.post! as any;
    expect(upsert.operationId).toBe('import.collectionActions.bulkUpsert');
    expect(upsert.parameters).toEqual([]);
    expect(upsert.security).toEqual([{ bearerAuth: [] }, { oauth2: ['batches.read', 'imports.read', 'imports.write'] }]);
    expect(upsert.responses['200'].content['application/vnd.api+json'].schema).toEqual({ $ref: '#/components/schemas/batch.document' });
  });

  it('describes the upload steps by what they answer (data without an id), which their real answers satisfy', async () => {
    const schemaOf = (path: string) => (anonymous.paths[path]!.post as any).responses['200'].content['application/vnd.api+json'].schema;
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const post = async (path: string) => {
      const response = await fetch(`${api.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${api.org.token}` } });
      expect(response.status).toBe(200);
      return response.json();
    };
    const link = await post('/api/v2/imports/actions/generateUploadLink');
    expect(ajv.validate(schemaOf('/api/v2/imports/actions/generateUploadLink'), link), ajv.errorsText()).toBe(true);
    const file = 'Email\nada@example.test\n';
    expect((await fetch(link.data.attributes.uploadUrl, { method: 'PUT', headers: link.data.attributes.uploadHeaders, body: file })).status).toBe(200);
    const hash = createHash('sha512').update(file).digest('hex');
    const validated = await post(`/api/v2/imports/actions/validateUpload?actionParams[storageKey]=${link.data.attributes.storageKey}&actionParams[hash]=${hash}`);
    expect(ajv.validate(schemaOf('/api/v2/imports/actions/validateUpload'), validated), ajv.errorsText()).toBe(true);
    // A wrong shape is caught: the schema is not merely permissive.
    expect(ajv.validate(schemaOf('/api/v2/imports/actions/validateUpload'), { data: { ...validated.data, attributes: { headerValue: [], recordCount: 1 } } })).toBe(
      false,
    );
    expect(schemaOf('/api/v2/imports/actions/prospectsImport')).toEqual({ $ref: '#/components/schemas/import.document' });
  });

  it('declares actionParams, query parameters and security from the model', () => {
    const markComplete = anonymous.paths['/api/v2/tasks/{id}/actions/markComplete']!.post!;
    expect(markComplete.parameters).toEqual([
      { $ref: '#/components/parameters/Id' },
      {
        name: 'actionParams[completionAction]',
        in: 'query',
        required: false,
        description: expect.stringContaining('finish_no_reply'),
        schema: { type: 'string', maxLength: 255 },
      },
      { name: 'actionParams[completionNote]', in: 'query', required: false, description: "Replaces the task's note.", schema: { type: 'string', maxLength: 32000 } },
    ]);
    expect(markComplete.security).toEqual([{ bearerAuth: [] }, { oauth2: ['tasks.write'] }]);
    // Each value as the link's x-paramSchemas describes it: a date-time, an id, an enum.
    const schemasOf = (action: string) =>
      anonymous.paths[`/api/v2/tasks/{id}/actions/${action}`]!.post!.parameters!.flatMap((p) => ('name' in p ? [[p.name, p.required, p.schema]] : []));
    expect(schemasOf('snooze')).toEqual([
      ['actionParams[dueAt]', false, { type: 'string', format: 'date-time' }],
      ['actionParams[markAsUrgent]', false, { type: 'boolean' }],
    ]);
    expect(schemasOf('reassignOwner')).toEqual([['actionParams[ownerId]', true, { type: 'integer', minimum: 1 }]]);
    expect(schemasOf('updateOpportunityAssociation')).toEqual([
      ['actionParams[opportunityAssociation]', true, { type: 'string', enum: ['recent_created', 'recent_updated', 'noop'] }],
    ]);
    const list = anonymous.paths['/api/v2/prospects']!.get!;
    const names = list.parameters!.map((p) => ('$ref' in p ? anonymous.components.parameters[p.$ref.replace('#/components/parameters/', '')].name : p.name));
    expect(names).toEqual(
      expect.arrayContaining([
        'filter[firstName]',
        'filter[account][id]',
        'filter[q]',
        'sort',
        'include',
        'fields[prospect]',
        'fields[account]',
        'page[size]',
        'page[after]',
        'count',
        'newFilterSyntax',
      ]),
    );
    const related = anonymous.paths['/api/v2/accounts/{id}/prospects']!.get!;
    expect(related.security).toEqual([{ bearerAuth: [] }, { oauth2: ['accounts.read', 'prospects.read'] }]);
    expect(related.parameters).not.toContainEqual({ $ref: '#/components/parameters/prospect.filter.account.id' });
    expect(anonymous.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({
      authorizationUrl: '/oauth/authorize',
      tokenUrl: '/oauth/token',
      scopes: expect.objectContaining({ 'prospects.read': 'Read prospects', 'tasks.all': 'Read, write and delete tasks' }),
    });
  });

  it("adds the caller's custom objects with a token, and only theirs", () => {
    expect(Object.keys(anonymous.paths).filter((p) => p.includes('customObjects'))).toEqual([]);
    expect(otherOrgDocument).toEqual(anonymous);
    expect(Object.keys(withToken.paths).filter((p) => p.includes('customObjects'))).toEqual([
      '/api/v2/customObjects/booking',
      '/api/v2/customObjects/booking/{id}',
      '/api/v2/customObjects/booking/{id}/prospect',
    ]);
    // What the server adds is shaped by the generator's own builder: nothing already there changes.
    for (const path of Object.keys(anonymous.paths)) expect(withToken.paths[path], path).toEqual(anonymous.paths[path]);
    for (const kind of ['schemas', 'parameters'] as const) {
      for (const [name, component] of Object.entries(anonymous.components[kind])) expect(withToken.components[kind][name], name).toEqual(component);
    }
    const create = withToken.components.schemas['booking.create'].properties.data.properties;
    expect(create.type).toEqual({ type: 'string', const: 'booking' });
    expect(create.attributes.required).toEqual(['title']);
    expect(withToken.components.schemas.booking.properties.attributes.properties.startsAt).toEqual({ type: ['string', 'null'], format: 'date-time' });
    expect(withToken.paths['/api/v2/customObjects/booking']!.post!.security).toEqual([{ bearerAuth: [] }, { oauth2: ['customObjects.write'] }]);
    expect(withToken.components.parameters['booking.filter.prospect.name']).toMatchObject({ name: 'filter[prospect][name]', deprecated: true });
    expect(withToken.components.securitySchemes.oauth2.flows.authorizationCode.scopes).toHaveProperty('customObjects.read');
  });
});

/** A client as a user of the API would write it, type-checked against the generated types. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const [baseUrl, token] = process.argv.slice(2) as [string, string];
const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token}\` } });

function must<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(\`\${what}: \${result.response.status} \${JSON.stringify(result.error)}\`);
  return result.data;
}

const account = must(await client.POST('/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Analytical Engines' } } } }), 'create account');
const ada = must(
  await client.POST('/api/v2/prospects', {
    body: {
      data: {
        type: 'prospect',
        attributes: { firstName: 'Ada', lastName: 'Lovelace', emails: ['ada@example.com'] },
        relationships: { account: { data: { type: 'account', id: account.data.id } } },
      },
    },
  }),
  'create prospect',
);
must(await client.POST('/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 'Grace' } } } }), 'create another');
const id = ada.data.id;

const listed = must(await client.GET('/api/v2/prospects', { params: { query: { 'filter[firstName]': 'Ada', include: 'account', count: true } } }), 'list');
const updated = must(
  await client.PATCH('/api/v2/prospects/{id}', { params: { path: { id } }, body: { data: { type: 'prospect', id, attributes: { title: 'Countess' } } } }),
  'update',
);
const related = must(await client.GET('/api/v2/prospects/{id}/account', { params: { path: { id } } }), 'related');
const task = must(
  await client.POST('/api/v2/tasks', {
    body: { data: { type: 'task', attributes: { action: 'call', note: 'Ring Ada' }, relationships: { prospect: { data: { type: 'prospect', id } } } } },
  }),
  'create task',
);
const completed = must(
  await client.POST('/api/v2/tasks/{id}/actions/markComplete', { params: { path: { id: task.data.id }, query: { 'actionParams[completionNote]': 'Rang her' } } }),
  'markComplete',
);
const bulk = must(
  await client.POST('/api/v2/batches/actions/prospectsAddTags', {
    params: { query: { 'actionParams[filter]': { firstName: 'Grace' }, 'actionParams[skipConfirmation]': true } },
    body: { data: { attributes: { tags: ['pioneer'] } } },
  }),
  'bulk action',
);
const deleted = await client.DELETE('/api/v2/prospects/{id}', { params: { path: { id } } });
const gone = await client.GET('/api/v2/prospects/{id}', { params: { path: { id } } });

/** Never called: what the types refuse. */
export function refusedByTheTypes(): void {
  // @ts-expect-error firstName is a string
  void client.POST('/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName: 1 } } } });
  // @ts-expect-error clickCount is maintained by the service, so no body carries it
  void client.POST('/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { clickCount: 1 } } } });
  // @ts-expect-error a body of another type
  void client.POST('/api/v2/prospects', { body: { data: { type: 'account', attributes: {} } } });
  // @ts-expect-error notes are not filterable
  void client.GET('/api/v2/tasks', { params: { query: { 'filter[note]': 'x' } } });
  // @ts-expect-error an action that tasks do not have
  void client.POST('/api/v2/tasks/{id}/actions/explode', { params: { path: { id: 1 } } });
}

const firstName: string | null | undefined = listed.data[0]?.attributes.firstName;
console.log(
  JSON.stringify({
    listed: { count: listed.meta.count, ids: listed.data.map((p) => p.id), firstName, included: listed.included?.map((r) => [r.type, r.id]) },
    updated: updated.data.attributes.title,
    related: related.data?.attributes.name,
    completed: { state: completed.data.attributes.state, completed: completed.data.attributes.completed },
    bulk: { type: bulk.data.type, action: bulk.data.attributes.action, total: bulk.data.attributes.total },
    deleted: deleted.response.status,
    gone: { status: gone.response.status, error: gone.error?.errors[0]?.id },
    ids: { account: account.data.id, ada: id },
  }),
);
`;

describe('a client generated from the document', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cadence-openapi-client-'));
    // The client resolves openapi-fetch and @types/node from the repository.
    await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('type-checks, then creates, lists with filter and include, updates, runs an action and a bulk action, and deletes', async () => {
    await writeFile(join(dir, 'schema.d.ts'), astToString(await openapiTS(structuredClone(anonymous) as never)));
    await writeFile(join(dir, 'client.ts'), CLIENT);
    const compilerOptions = { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], skipLibCheck: true };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['client.ts'] }));
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));

    const tsc = await run(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: `${error.stdout}${error.stderr}` }),
    );
    expect(tsc).toEqual({ code: 0, stdout: '' });

    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(dir, 'client.ts'), api.baseUrl, api.org.token], { cwd: REPO_ROOT });
    const result = JSON.parse(stdout);
    expect(result).toEqual({
      listed: { count: 1, ids: [result.ids.ada], firstName: 'Ada', included: [['account', result.ids.account]] },
      updated: 'Countess',
      related: 'Analytical Engines',
      completed: { state: 'completed', completed: true },
      bulk: { type: 'batch', action: 'prospectsAddTags', total: 1 },
      deleted: 204,
      gone: { status: 404, error: 'resourceNotFound' },
      ids: { account: expect.any(Number), ada: expect.any(Number) },
    });
  }, 180_000);
});
