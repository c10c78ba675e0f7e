// Adding an attribute is one edit to one schema file: the generator, drizzle-kit and the engine
// carry it from there to a PostgreSQL column and back over HTTP. This works on a copy of the
// repository in a folder inside it, so that generated validators (which require() Ajv's runtime)
// and drizzle-kit find node_modules the way they do in the repository itself.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Hono } from 'hono';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createOrg, type CreatedOrg } from '../../runtime/admin/index.js';
import { bearerAuthentication } from '../../runtime/auth/index.js';
import { connectDatabase } from '../../runtime/db/client.js';
import { runMigrations } from '../../runtime/db/migrate.js';
import { createResourceEngine, type ApiEnv, type ResourceDescriptor } from '../../runtime/engine/index.js';
import { mountResources } from '../../runtime/engine/routes.js';
import { ApiError, errorResponse } from '../../runtime/jsonapi/index.js';
import { standardBehaviours } from '../../runtime/behaviours/index.js';
import { standardRecordWriter } from '../../runtime/behaviours/standard-writer.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { importGenerate } from './import-generate.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MEDIA_TYPE = 'application/vnd.api+json';
const PRONOUNS = { type: 'string', maxLength: 64, filterable: true, sortable: true };

const generate = await importGenerate();

type Validate = ((body: unknown) => boolean) & { errors?: { keyword: string; instancePath: string }[] | null };

let root: string;
let files: Map<string, string>;

/** Imports a module of the copy by its path relative to the copy's root. */
async function importFromCopy<T>(path: string): Promise<T> {
  return (await import(pathToFileURL(join(root, path)).href)) as T;
}

beforeAll(async () => {
  root = await mkdtemp(join(REPO_ROOT, '.tmp-test-'));
  await cp(join(REPO_ROOT, 'schema'), join(root, 'schema'), { recursive: true });
  const prospectFile = join(root, 'schema/prospect.json');
  const prospect = JSON.parse(await readFile(prospectFile, 'utf8'));
  expect(prospect.definitions.pronouns, 'schema/prospect.json has no pronouns yet').toBeUndefined();
  prospect.definitions.pronouns = PRONOUNS;
  prospect.properties.pronouns = { $ref: '#/definitions/prospect/definitions/pronouns' };
  await writeFile(prospectFile, `${JSON.stringify(prospect, null, 2)}\n`);

  files = await generate(root);
  for (const [path, contents] of files) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), contents);
  }
}, 120_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the generated code', () => {
  test('only prospect and the served schemas change', async () => {
    const before = await generate(REPO_ROOT);
    expect([...files.keys()]).toEqual([...before.keys()]);
    const changed = [...files.keys()].filter((path) => files.get(path) !== before.get(path));
    expect(changed).toEqual([
      'generated/db/prospect.ts',
      'generated/descriptors/prospect.ts',
      'generated/openapi.json',
      'generated/schema.json',
      'generated/types/prospect.ts',
      'generated/validators/prospect.ts',
    ]);
  }, 120_000);

  test('the table has a pronouns column with an org_id-led index for keyset sorting', () => {
    const table = files.get('generated/db/prospect.ts')!;
    expect(table).toContain(`pronouns: text('pronouns'),`);
    expect(table).toContain(`index('prospects_pronouns_idx').on(t.orgId, t.pronouns, t.id)`);
  });

  test('the descriptor lists pronouns as a filterable, sortable, optional string', async () => {
    const { descriptor } = await importFromCopy<{ descriptor: ResourceDescriptor }>('generated/descriptors/prospect.ts');
    expect(descriptor.attributes.find((a) => a.name === 'pronouns')).toMatchObject({
      name: 'pronouns',
      column: 'pronouns',
      type: 'string',
      filterable: true,
      sortable: true,
      readOnly: false,
      required: false,
    });
  });

  test('the OpenAPI document shows pronouns, filters on it and takes it in bodies', () => {
    const document = JSON.parse(files.get('generated/openapi.json')!);
    const value = { type: ['string', 'null'], maxLength: 64 };
    expect(document.components.schemas.prospect.properties.attributes.properties.pronouns).toEqual(value);
    expect(document.components.schemas['prospect.create'].properties.data.properties.attributes.properties.pronouns).toEqual(value);
    expect(document.components.parameters['prospect.filter.pronouns']).toMatchObject({ name: 'filter[pronouns]', in: 'query' });
    expect(document.components.parameters['prospect.sort'].schema.pattern).toContain('|pronouns|');
  });

  test('the validator accepts 64 characters of pronouns and refuses 65', async () => {
    const { validateCreate, validateUpdate } = await importFromCopy<Record<string, Validate>>('generated/validators/prospect.ts');
    const body = (pronouns: unknown, id?: string) => ({
      data: { type: 'prospect', ...(id && { id }), attributes: { pronouns } },
    });
    expect(validateCreate!(body('Ada'))).toBe(true);
    expect(validateCreate!(body('a'.repeat(64)))).toBe(true);
    expect(validateCreate!(body(null))).toBe(true);
    expect(validateCreate!(body('a'.repeat(65)))).toBe(false);
    expect(validateCreate!.errors).toEqual([expect.objectContaining({ instancePath: '/data/attributes/pronouns', keyword: 'maxLength' })]);
    expect(validateUpdate!(body('a'.repeat(65), '1'))).toBe(false);
    expect(validateUpdate!.errors).toEqual([expect.objectContaining({ instancePath: '/data/attributes/pronouns', keyword: 'maxLength' })]);
  });
});

describe('migrated and served', () => {
  let migration: string;
  let database: TestDatabase;
  let sql: postgres.Sql;
  let org: CreatedOrg;
  let app: Hono<ApiEnv>;

  beforeAll(async () => {
    // drizzle-kit diffs the copy's tables against the snapshot of the repository's last migration.
    await symlink(join(REPO_ROOT, 'runtime'), join(root, 'runtime'), 'dir');
    await symlink(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    await cp(join(REPO_ROOT, 'drizzle.config.ts'), join(root, 'drizzle.config.ts'));
    await cp(join(REPO_ROOT, 'migrations'), join(root, 'migrations'), { recursive: true });
    const existing = new Set(await readdir(join(root, 'migrations')));
    await promisify(execFile)('npx', ['drizzle-kit', 'generate', '--config', join(root, 'drizzle.config.ts'), '--name', 'add_pronouns'], {
      cwd: root,
    });
    const added = (await readdir(join(root, 'migrations'))).filter((name) => !existing.has(name));
    expect(added).toEqual([expect.stringMatching(/^\d{4}_add_pronouns\.sql$/)]);
    migration = await readFile(join(root, 'migrations', added[0]!), 'utf8');

    database = await createTestDatabase();
    await runMigrations(database.url, join(root, 'migrations'));
    sql = connectDatabase(database.url, { max: 4 });
    org = await createOrg(sql, { name: 'Pronouns org' });

    const { descriptors } = await importFromCopy<typeof import('../../generated/resources/index.js')>('generated/resources/index.ts');
    const { prospectModule } = await importFromCopy<typeof import('../../generated/resources/prospect.js')>('generated/resources/prospect.ts');
    const engine = createResourceEngine({
      sql,
      descriptors,
      behaviours: standardBehaviours,
      cursorSecret: 'add-attribute-test',
      // Requests pass the engine's own catalog (the copy's descriptors) to the writer.
      writer: standardRecordWriter(() => new Date()),
    });
    app = new Hono<ApiEnv>();
    app.use('*', bearerAuthentication(sql));
    mountResources(app, engine, [prospectModule]);
    app.onError((error, c) => {
      if (error instanceof ApiError) return errorResponse(c, error);
      throw error;
    });
  }, 120_000);

  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await database?.drop();
  });

  async function request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { authorization: `Bearer ${org.token}` };
    if (body !== undefined) headers['content-type'] = MEDIA_TYPE;
    const response = await app.request(path, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  }

  test('drizzle-kit derives the column and its index, and nothing else about pronouns', () => {
    const statements = migration.split('--> statement-breakpoint').map((s) => s.trim());
    expect(statements.filter((s) => s.includes('pronouns'))).toEqual([
      'ALTER TABLE "prospects" ADD COLUMN "pronouns" text;',
      'CREATE INDEX "prospects_pronouns_idx" ON "prospects" USING btree ("org_id","pronouns","id");',
    ]);
  });

  test('the migration made the column', async () => {
    const columns = await sql<{ data_type: string; is_nullable: string }[]>`
      select data_type, is_nullable from information_schema.columns
       where table_schema = 'public' and table_name = 'prospects' and column_name = 'pronouns'`;
    expect(columns).toEqual([{ data_type: 'text', is_nullable: 'YES' }]);
  });

  test('POST stores pronouns and GET reads it back', async () => {
    const created = await request('POST', '/prospects', {
      data: { type: 'prospect', attributes: { pronouns: 'Ada' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ type: 'prospect', attributes: { pronouns: 'Ada' } });

    const read = await request('GET', `/prospects/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      type: 'prospect',
      id: created.body.data.id,
      attributes: { pronouns: 'Ada' },
    });
    const [row] = await sql<{ pronouns: string }[]>`select pronouns from prospects where id = ${created.body.data.id}`;
    expect(row).toEqual({ pronouns: 'Ada' });
  });

  test('a 65-character pronouns value is a 422 pointing at it', async () => {
    const response = await request('POST', '/prospects', {
      data: { type: 'prospect', attributes: { pronouns: 'a'.repeat(65) } },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/pronouns' } })]);
  });

  test('filter[pronouns] and sort=pronouns work', async () => {
    for (const pronouns of ['Grace', 'Bea']) {
      expect((await request('POST', '/prospects', { data: { type: 'prospect', attributes: { pronouns } } })).status).toBe(201);
    }
    const filtered = await request('GET', '/prospects?filter[pronouns]=Bea');
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((p: { attributes: { pronouns: string } }) => p.attributes.pronouns)).toEqual(['Bea']);
    const sorted = await request('GET', '/prospects?sort=-pronouns');
    expect(sorted.status).toBe(200);
    expect(sorted.body.data.map((p: { attributes: { pronouns: string } }) => p.attributes.pronouns)).toEqual(['Grace', 'Bea', 'Ada']);
  });
});
