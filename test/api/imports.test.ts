import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEGMENT_ROWS } from '../../runtime/imports/import-task.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg, orgClient, userWithScopes, type OrgClient } from '../helpers/bulk-actions.js';
import { generateUploadLink, importCsv, importEnded, importItems, startImport, uploadAndValidate } from '../helpers/imports.js';
import { until } from '../helpers/wait.js';
import { startWebhookSetup, WEBHOOK_HOST, type WebhookSetup } from '../helpers/webhook-worker.js';

/**
 * CSV imports over HTTP (SPEC.md "CSV import" steps 4-5): real files uploaded, validated and
 * imported into prospects and accounts by a real graphile-worker, tracked through the import
 * and its batch. Each test works in an org of its own.
 */

let api: TestApi;
let setup: WebhookSetup;
let receiver: WebhookSetup['receiver'];

beforeAll(async () => {
  setup = await startWebhookSetup();
  ({ api, receiver } = setup);
});
afterAll(async () => {
  await setup?.close();
});

const PROSPECT_MAPPINGS = { 'First Name': 'firstName', 'Last Name': 'lastName', Email: 'emails', Title: 'title', Tags: 'tags' };

async function prospects(org: OrgClient): Promise<Record<string, any>[]> {
  const { status, body } = await org.request('GET', '/api/v2/prospects?sort=id&page[size]=100');
  expect(status).toBe(200);
  return body.data.map((d: any) => ({ id: Number(d.id), ...d.attributes }));
}

async function createProspect(org: OrgClient, attributes: Record<string, unknown>): Promise<number> {
  const { status, body } = await org.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes } } });
  expect(status, JSON.stringify(body)).toBe(201);
  return Number(body.data.id);
}

async function eventNames(org: OrgClient): Promise<string[]> {
  const rows = await api.sql<{ name: string }[]>`
    select name from events where org_id = ${org.orgId} and resource_type in ('import', 'prospect', 'account') order by id`;
  return rows.map((r) => r.name);
}

describe('importing prospects', () => {
  it('imports a file with a BOM, CRLF line ends, quoted commas and line breaks, converting each field', async () => {
    const org = await freshOrg(api);
    const csv =
      '\uFEFFFirst Name,Last Name,Email,Title,Tags,Score,Opted Out\r\n' +
      'Ada,Lovelace,ada@example.test,"Countess, mathematician","vip; early",12.5,no\r\n' +
      'Grace,Hopper,"grace@example.test; g.hopper@example.test","Rear admiral\r\nUS Navy",,3,YES\r\n';
    const mappings = { ...PROSPECT_MAPPINGS, Score: 'score', 'Opted Out': 'optedOut' };
    const { id, attributes } = await importCsv(api, org, csv, { mappings, extra: { fileName: 'people.csv' } });
    expect(attributes).toMatchObject({ state: 'finished', total: 2, dupes: 0, failures: 0, importType: 'csv', dupeMethod: 'skip', fileName: 'people.csv', mappings });
    expect(attributes.stateChangedAt).toEqual(expect.any(String));

    const rows = await prospects(org);
    expect(rows.map((p) => [p.firstName, p.lastName, p.emails, p.title, p.tags, p.score, p.optedOut])).toEqual([
      ['Ada', 'Lovelace', ['ada@example.test'], 'Countess, mathematician', ['vip', 'early'], 12.5, false],
      ['Grace', 'Hopper', ['grace@example.test', 'g.hopper@example.test'], 'Rear admiral\r\nUS Navy', null, 3, true],
    ]);

    const items = await importItems(org, id);
    expect(items.map((i) => [i.state, i.itemId])).toEqual([
      ['success', rows[0]!.id],
      ['success', rows[1]!.id],
    ]);
    expect(JSON.parse(items[0].data)).toEqual({
      line: 2,
      values: {
        'First Name': 'Ada',
        'Last Name': 'Lovelace',
        Email: 'ada@example.test',
        Title: 'Countess, mathematician',
        Tags: 'vip; early',
        Score: '12.5',
        'Opted Out': 'no',
      },
    });
    // Ending the import is an update with its domain event, as a sequence state's finish is.
    expect(await eventNames(org)).toEqual(['import_created', 'prospect_created', 'prospect_created', 'import_updated', 'import_finished']);
  });

  it('answers the import as progressing, and the batch found by contextId finishes with it', async () => {
    const org = await freshOrg(api);
    const upload = await uploadAndValidate(api, org, 'Email\nx@example.test\n');
    const started = await startImport(org, upload, { mappings: { Email: 'emails' } });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ type: 'import', attributes: { state: 'progressing', total: 1, dupes: 0, failures: 0 } });
    const batches = await org.request('GET', `/api/v2/batches?filter[contextId]=${started.body.data.id}`);
    expect(batches.body.data).toHaveLength(1);
    expect(batches.body.data[0].attributes).toMatchObject({ action: 'prospectsImport', contextId: Number(started.body.data.id), total: 1 });
  });

  describe('duplicates (by any e-mail address, case-insensitively, or by id)', () => {
    const csv = [
      'id,First Name,Last Name,Email,Title',
      ',Ann,New,ANN@example.test,Chief', // duplicates the existing Ann by e-mail, in another case
      ',Bob,Fresh,bob@example.test,Engineer', // new
      ',Bobby,Again,other@example.test;Bob@Example.test,Lead', // duplicates the row before it
      '{existing},Cal,ById,,Director', // duplicates by id
    ];
    const mappings = { id: 'id', 'First Name': 'firstName', 'Last Name': 'lastName', Email: 'emails', Title: 'title' };

    async function run(dupeMethod: string) {
      const org = await freshOrg(api);
      const ann = await createProspect(org, { firstName: 'Ann', emails: ['ann@example.test'] });
      const cal = await createProspect(org, { firstName: 'Cal', lastName: 'Original', title: 'Keeper' });
      const file = csv.join('\n').replace('{existing}', String(cal)) + '\n';
      const result = await importCsv(api, org, file, { mappings, dupeMethod });
      return { org, ann, cal, ...result, rows: await prospects(org), items: await importItems(org, result.id) };
    }

    it('skip (the default) stores nothing for a duplicate; the first row of the file wins', async () => {
      const { attributes, rows, items, ann, cal } = await run('skip');
      expect(attributes).toMatchObject({ state: 'finished', total: 4, dupes: 3, failures: 0 });
      expect(rows.map((p) => [p.id, p.firstName, p.lastName, p.title])).toEqual([
        [ann, 'Ann', null, null],
        [cal, 'Cal', 'Original', 'Keeper'],
        [expect.any(Number), 'Bob', 'Fresh', 'Engineer'],
      ]);
      expect(items.map((i) => [i.state, i.itemId])).toEqual([
        ['skipped', ann],
        ['success', rows[2]!.id],
        ['skipped', rows[2]!.id],
        ['skipped', cal],
      ]);
    });

    it('missing fills only the empty fields of the record a row duplicates', async () => {
      const { attributes, rows, ann, cal } = await run('missing');
      expect(attributes).toMatchObject({ state: 'finished', total: 4, dupes: 3, failures: 0 });
      expect(rows.map((p) => [p.id, p.firstName, p.lastName, p.title, p.emails])).toEqual([
        [ann, 'Ann', 'New', 'Chief', ['ann@example.test']],
        [cal, 'Cal', 'Original', 'Keeper', null],
        [expect.any(Number), 'Bob', 'Fresh', 'Engineer', ['bob@example.test']],
      ]);
    });

    it('overwrite updates every mapped field the row has a value for', async () => {
      const { attributes, rows, ann, cal } = await run('overwrite');
      expect(attributes).toMatchObject({ state: 'finished', total: 4, dupes: 3, failures: 0 });
      expect(rows.map((p) => [p.id, p.firstName, p.lastName, p.title, p.emails])).toEqual([
        [ann, 'Ann', 'New', 'Chief', ['ANN@example.test']],
        [cal, 'Cal', 'ById', 'Director', null],
        [expect.any(Number), 'Bobby', 'Again', 'Lead', ['other@example.test', 'Bob@Example.test']],
      ]);
    });
  });

  it('rows duplicating rows of earlier segments, written while those are still being written, find their records', async () => {
    // Seven segments, three in flight at a time: the second two segments' rows repeat the
    // e-mail addresses of the first two's in upper case, the next two repeat them again, and the
    // last segment's rows are new. The worker's pool has two connections, fewer than the
    // segments in flight.
    const repeated = 2 * SEGMENT_ROWS;
    const lines = ['Email,Title'];
    for (let i = 1; i <= repeated; i++) lines.push(`person${i}@segments.test,first`);
    for (let i = 1; i <= repeated; i++) lines.push(`PERSON${i}@SEGMENTS.TEST,second`);
    for (let i = 1; i <= repeated; i++) lines.push(`person${i}@segments.test,third`);
    for (let i = repeated + 1; i <= repeated + SEGMENT_ROWS; i++) lines.push(`person${i}@segments.test,new`);
    const total = 3 * repeated + SEGMENT_ROWS;
    const csv = `${lines.join('\n')}\n`;
    for (const [dupeMethod, title] of [
      ['skip', 'first'],
      ['overwrite', 'third'],
    ] as const) {
      const target = await freshOrg(api, `Segments ${dupeMethod}`);
      const { id, attributes } = await importCsv(api, target, csv, { mappings: { Email: 'emails', Title: 'title' }, dupeMethod });
      expect(attributes).toMatchObject({ state: 'finished', total, dupes: 2 * repeated, failures: 0 });
      const rows = await api.sql<{ n: number; title: string }[]>`
        select count(*)::int as n, title from prospects where org_id = ${target.orgId} group by title order by title`;
      expect(Object.fromEntries(rows.map((r) => [r.title, r.n]))).toEqual({ [title]: repeated, new: SEGMENT_ROWS });
      const items = await importItems(target, id);
      expect(items).toHaveLength(total);
      // Every repeat names the record its first row made.
      const firsts = items.slice(0, repeated).map((i) => i.itemId);
      expect(items.slice(repeated, 2 * repeated).map((i) => i.itemId)).toEqual(firsts);
      expect(items.slice(2 * repeated, 3 * repeated).map((i) => i.itemId)).toEqual(firsts);
    }
  }, 240_000);

  it('fails bad rows alone, each with its line and column, and imports the rest', async () => {
    const org = await freshOrg(api);
    const csv = [
      'First Name,Email,Score,Birthday',
      'Good,good@example.test,1,1990-01-31',
      'Short row',
      'NotAnEmail,not-an-e-mail,2,',
      'BadScore,bad@example.test,many,',
      'BadDate,date@example.test,3,31/01/1990',
      'Also good,also@example.test,,',
      '',
    ].join('\n');
    const mappings = { 'First Name': 'firstName', Email: 'emails', Score: 'score', Birthday: 'dateOfBirth' };
    const { id, attributes } = await importCsv(api, org, csv, { mappings });
    expect(attributes).toMatchObject({ state: 'finished', total: 6, dupes: 0, failures: 4 });
    expect((await prospects(org)).map((p) => p.firstName)).toEqual(['Good', 'Also good']);
    const items = await importItems(org, id);
    expect(items.map((i) => i.state)).toEqual(['success', 'error', 'error', 'error', 'error', 'success']);
    const details = items.map((i) => i.errors?.map((e: any) => e.detail).join(' | ') ?? null);
    expect(details[1]).toMatch(/^Line 3: The row has 1 field; the header row has 4$/);
    expect(details[2]).toMatch(/^Line 4: column "Email" \(emails\): /);
    expect(details[3]).toBe('Line 5: column "Score" (score): "many" is not a number such as 12.5');
    expect(details[4]).toBe('Line 6: column "Birthday" (dateOfBirth): "31/01/1990" is not a date as YYYY-MM-DD');
    expect(JSON.parse(items[1].data)).toEqual({ line: 3 });
  });

  it('an id that is no record of the org fails its row', async () => {
    const org = await freshOrg(api);
    const { id, attributes } = await importCsv(api, org, 'id,First Name\n999999,Nobody\n', { mappings: { id: 'id', 'First Name': 'firstName' } });
    expect(attributes).toMatchObject({ state: 'finished', failures: 1 });
    const [item] = await importItems(org, id);
    expect(item.errors[0]).toMatchObject({ detail: 'Line 2: no prospect has id 999999', source: { pointer: '/data/id' } });
  });
});

it('canceling its batch stops the import between segments: failed, saying so, with the rows before it imported', async () => {
  const org = await freshOrg(api);
  const lines = ['Email'];
  // Many more rows than are written before the cancel arrives, even on a fast machine.
  for (let i = 1; i <= 40_000; i++) lines.push(`cancel${i}@example.test`);
  const upload = await uploadAndValidate(api, org, `${lines.join('\n')}\n`);
  const started = await startImport(org, upload, { mappings: { Email: 'emails' } });
  const importId: string = started.body.data.id;
  const batchId = await until('a segment of the import written', async () => {
    const { body } = await org.request('GET', `/api/v2/batches?filter[contextId]=${importId}`);
    const batch = body.data[0];
    return batch.attributes.total - batch.attributes.pending >= 500 ? (batch.id as string) : undefined;
  });
  expect((await org.request('POST', `/api/v2/batches/${batchId}/actions/cancel`)).status).toBe(200);
  const attributes = await importEnded(org, importId);
  expect(attributes).toMatchObject({ state: 'failed', errorReason: expect.stringMatching(/canceled/) });
  const items = await importItems(org, importId);
  expect(items.length).toBeLessThan(40_000);
  const [count] = await api.sql<{ n: number }[]>`select count(*)::int as n from prospects where org_id = ${org.orgId}`;
  expect(count!.n).toBe(items.filter((i) => i.state === 'success').length);
  expect((await org.request('GET', `/api/v2/batches/${batchId}`)).body.data.attributes.state).toBe('canceled');
});

it("fires import.created and import.finished webhooks, and each record's own", async () => {
  const org = await freshOrg(api);
  for (const [path, resource] of [
    ['/imports', 'import'],
    ['/imported', 'prospect'],
  ]) {
    const url = `https://${WEBHOOK_HOST}:${receiver.port}${path}-${org.orgId}`;
    const hook = await org.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource } } } });
    expect(hook.status).toBe(201);
  }
  const { id } = await importCsv(api, org, 'Email\nhook1@example.test\nhook2@example.test\n', { mappings: { Email: 'emails' } });
  const delivered = (path: string) => receiver.requests.filter((r) => r.path === `${path}-${org.orgId}`).map((r) => JSON.parse(r.body.toString()));
  const imports = await until('import.created and import.finished delivered', () => (delivered('/imports').length >= 2 ? delivered('/imports') : undefined));
  expect(imports.map((d) => [d.meta.eventName, d.data.id, d.data.attributes.state]).sort()).toEqual([
    ['import.created', Number(id), 'progressing'],
    ['import.finished', Number(id), 'finished'],
  ]);
  const prospects = await until('prospect.created twice', () => (delivered('/imported').length >= 2 ? delivered('/imported') : undefined));
  expect(prospects.map((d) => [d.meta.eventName, d.data.attributes.emails[0]]).sort()).toEqual([
    ['prospect.created', 'hook1@example.test'],
    ['prospect.created', 'hook2@example.test'],
  ]);
});

it('takes its rows from the daily bulk allowance: 429, and no import, when they are not there', async () => {
  const small = await startTestApi({ bulkAllowance: { capacity: 5, perDay: 5 } });
  try {
    const org = orgClient(small, small.org);
    const upload = await uploadAndValidate(small, org, 'Email\n' + Array.from({ length: 6 }, (_, i) => `a${i}@example.test`).join('\n') + '\n');
    const refused = await startImport(org, upload, { mappings: { Email: 'emails' } });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].id).toBe('bulkAllowanceExceeded');
    expect(refused.headers.get('retry-after')).toBeNull();
    expect((await org.request('GET', '/api/v2/imports')).body.data).toEqual([]);
  } finally {
    await small.close();
  }
});

it('a cell that is no record id fails its row, pointing at the id or the relationship', async () => {
  const org = await freshOrg(api);
  const { id, attributes } = await importCsv(api, org, 'id,Owner,Email\nabc,,a@example.test\n,owner-one,b@example.test\n', {
    mappings: { id: 'id', Owner: 'owner', Email: 'emails' },
  });
  expect(attributes).toMatchObject({ state: 'finished', failures: 2 });
  const items = await importItems(org, id);
  expect(items.map((i) => [i.errors[0].source.pointer, i.errors[0].detail])).toEqual([
    ['/data/id', 'Line 2: column "id" (id): "abc" is not a record id (a positive whole number)'],
    ['/data/relationships/owner', 'Line 3: column "Owner" (owner): "owner-one" is not a record id (a positive whole number)'],
  ]);
});

describe('importing accounts', () => {
  it('finds duplicates by domain, else by name', async () => {
    const org = await freshOrg(api);
    const byDomain = await org.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Old Name', domain: 'acme.test' } } } });
    const byName = await org.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: 'Globex' } } } });
    const csv = ['Name,Domain,Industry', 'Acme Renamed,ACME.test,Anvils', 'GLOBEX,,Energy', 'Initech,initech.test,Software', 'Old Name,other.test,Other', ''].join('\n');
    const { attributes } = await importCsv(api, org, csv, {
      action: 'accountsImport',
      mappings: { Name: 'name', Domain: 'domain', Industry: 'industry' },
      dupeMethod: 'overwrite',
    });
    expect(attributes).toMatchObject({ state: 'finished', total: 4, dupes: 2, failures: 0, importType: 'account_csv' });
    const { body } = await org.request('GET', '/api/v2/accounts?sort=id');
    expect(body.data.map((d: any) => [Number(d.id), d.attributes.name, d.attributes.domain, d.attributes.industry])).toEqual([
      [Number(byDomain.body.data.id), 'Acme Renamed', 'ACME.test', 'Anvils'],
      [Number(byName.body.data.id), 'GLOBEX', null, 'Energy'],
      [expect.any(Number), 'Initech', 'initech.test', 'Software'],
      // A row with a domain is matched by its domain alone: a new account, though the name exists.
      [expect.any(Number), 'Old Name', 'other.test', 'Other'],
    ]);
  });
});

describe('starting an import: refusals', () => {
  let org: OrgClient;
  beforeAll(async () => {
    org = await freshOrg(api);
  });

  const refusal = async (attributes: Record<string, unknown>, action = 'prospectsImport') => {
    const response = await org.request('POST', `/api/v2/imports/actions/${action}`, { body: { data: { type: 'import', attributes } } });
    return { status: response.status, errors: response.body?.errors ?? [] };
  };

  it('refuses mappings that name no column of the file, no field, or one field twice, pointing at each', async () => {
    const upload = await uploadAndValidate(api, org, 'Email,Name,Other\nx@example.test,X,Y\n');
    const { status, errors } = await refusal({
      ...upload,
      mappings: { Email: 'emails', Missing: 'firstName', Name: 'noSuchField', Other: 'emails', 'a/b': 'title' },
    });
    expect(status).toBe(422);
    expect(errors.map((e: any) => e.source.pointer)).toEqual([
      '/data/attributes/mappings/Missing',
      '/data/attributes/mappings/Name',
      '/data/attributes/mappings/Other',
      '/data/attributes/mappings/a~1b',
    ]);
    expect(errors[1].detail).toMatch(/"noSuchField" is not a field a prospect can be imported into/);
  });

  it('refuses read-only fields, an empty mapping, a wrong recordCount, an unknown dupeMethod and unknown attributes', async () => {
    const upload = await uploadAndValidate(api, org, 'Email,Name\nx@example.test,X\n');
    expect((await refusal({ ...upload, mappings: { Name: 'name' } })).errors[0].source.pointer).toBe('/data/attributes/mappings/Name');
    expect((await refusal({ ...upload, mappings: { Email: null } })).errors[0].source.pointer).toBe('/data/attributes/mappings');
    const count = await refusal({ ...upload, recordCount: '2', mappings: { Email: 'emails' } });
    expect(count).toMatchObject({ status: 422, errors: [{ id: 'recordCountMismatch', source: { pointer: '/data/attributes/recordCount' } }] });
    const dupe = await refusal({ ...upload, dupeMethod: 'overwriteNoCreate', mappings: { Email: 'emails' } });
    expect(dupe.errors[0].source.pointer).toBe('/data/attributes/dupeMethod');
    const unknown = await refusal({ ...upload, mappings: { Email: 'emails' }, colour: 'blue' });
    expect(unknown.errors[0].source.pointer).toBe('/data/attributes/colour');
    expect((await refusal({ mappings: { Email: 'emails' } })).errors.map((e: any) => e.source.pointer)).toEqual([
      '/data/attributes/storageKey',
      '/data/attributes/recordCount',
    ]);
  });

  it('refuses an upload that is unknown, not validated, or imported already', async () => {
    const unknown = await refusal({ storageKey: '6f1c2c1e-0000-4000-8000-000000000000', recordCount: 1, mappings: { Email: 'emails' } });
    expect(unknown).toMatchObject({ status: 422, errors: [{ id: 'uploadNotFound', source: { pointer: '/data/attributes/storageKey' } }] });

    const link = await generateUploadLink(api, org);
    const unvalidated = await refusal({ storageKey: link.storageKey, recordCount: 1, mappings: { Email: 'emails' } });
    expect(unvalidated.errors[0].id).toBe('uploadNotValidated');

    const upload = await uploadAndValidate(api, org, 'Email\nonce@example.test\n');
    expect((await startImport(org, upload, { mappings: { Email: 'emails' } })).status).toBe(200);
    const again = await refusal({ ...upload, mappings: { Email: 'emails' } });
    expect(again.errors[0].id).toBe('uploadAlreadyImported');
  });

  it("refuses another org's upload as unknown", async () => {
    const other = await freshOrg(api, 'Another org');
    const upload = await uploadAndValidate(api, other, 'Email\nx@example.test\n');
    expect((await refusal({ ...upload, mappings: { Email: 'emails' } })).errors[0].id).toBe('uploadNotFound');
  });

  it('needs imports.write and imports.read', async () => {
    const upload = await uploadAndValidate(api, org, 'Email\nx@example.test\n');
    const reader = await userWithScopes(api, org, ['imports.read']);
    const response = await startImport(reader, upload, { mappings: { Email: 'emails' } });
    expect(response.status).toBe(403);
  });
});
