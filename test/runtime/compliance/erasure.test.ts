import { createHash, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../../../runtime/admin/index.js';
import { erasedTables } from '../../../runtime/compliance/erased-tables.js';
import { EXEMPT_TABLES, TRACE_STEPS, type ErasureStep } from '../../../runtime/compliance/erasure/index.js';
import { SLICE_ROWS } from '../../../runtime/compliance/erasure/slices.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import { openCsv } from '../../../runtime/imports/csv-records.js';
import { summarizeCsv } from '../../../runtime/imports/csv-summary.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

/**
 * The trace steps of a compliance deletion request, on real PostgreSQL: the address is seeded,
 * in several spellings, in every place the steps cover, in two orgs, next to rows that do not
 * hold it. After the steps no row of the subject's org holds it, the other org and the other
 * rows are as they were, and a second run changes nothing.
 */

const ADDRESS = 'jane.doe+crm@example.com';
const STORED = 'Jane.Doe+CRM@Example.com';
const OTHER = 'ada@example.org';

/** Every table a step covers, by the column that orders its rows. */
const TABLES = {
  events: 'id',
  webhook_attempts: 'id',
  webhook_deliveries: 'id',
  batches: 'id',
  batch_items: 'id',
  imports: 'id',
  import_keys: 'key',
  uploads: 'storage_key',
  upload_chunks: 'storage_key, seq',
  mail_messages: 'id',
  mail_sync_messages: 'message_key',
  audit_logs: 'id',
  custom_object_records: 'id',
  kaia_recordings: 'id',
  kaia_voice_imports: 'id',
} as const;

let database: TestDatabase;
let sql: postgres.Sql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 2 });
}, 60_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.drop();
});

const CSV_HEADER = 'Email,First Name,Notes\r\n';
const csvFile = (address: string) =>
  CSV_HEADER +
  `${OTHER},Ada,first\r\n` +
  `"${address.toUpperCase()}",Jane,"two\nlines"\r\n` +
  `grace@example.com,Grace,"said ""hi"" to Jane <${address}>"\r\n` +
  `mary.${address},Mary,someone else\r\n` +
  `linus@example.com,Linus,ä ö\r\n`;

/** Seeds, in `orgId`, rows holding `address` in every covered place and rows that do not. */
async function seed(orgId: number, address: string): Promise<{ storageKey: string }> {
  const json = (value: unknown) => sql.json(value as postgres.JSONValue);
  const [event] = await sql<{ id: string }[]>`
    insert into events (org_id, name, action, resource_type, resource_id, payload)
    values (${orgId}, 'prospect_destroyed', 'destroyed', 'prospect', 1,
            ${json({ data: { attributes: { emails: [address], name: 'Jane', note: `Jane <${address.toUpperCase()}>\nline two` } } })})
    returning id`;
  await sql`insert into events (org_id, name, action, resource_type, resource_id, payload, body)
            values (${orgId}, 'mailing_created', 'created', 'mailing', 2, ${json({ data: { attributes: { to: OTHER, quoted: `"x" ${address}` } } })}, ${`To: ${address}`}),
                   (${orgId}, 'account_created', 'created', 'account', 3, ${json({ data: { attributes: { name: 'Acme', owner: OTHER } } })}, null)`;
  const [webhook] = await sql<{ id: string }[]>`insert into webhooks (org_id, url) values (${orgId}, 'https://hooks.example/x') returning id`;
  await sql`insert into webhook_attempts (org_id, webhook_id, event_id, attempt, status, error, latency_ms)
            values (${orgId}, ${webhook!.id}, ${event!.id}, 1, null, ${`receiver said: unknown ${address}`}, 5),
                   (${orgId}, ${webhook!.id}, ${event!.id}, 2, 500, 'timeout', 5)`;
  await sql`insert into webhook_deliveries (org_id, webhook_id, event_id, job_id, event_name, state, attempts, error)
            values (${orgId}, ${webhook!.id}, ${event!.id}, ${`${event!.id}-${webhook!.id}`}, 'prospect.destroyed', 'failed', 2, ${`receiver said: unknown ${address}`})`;
  const [batch] = await sql<{ id: string }[]>`
    insert into batches (org_id, action, state, payload, summary, actor)
    values (${orgId}, 'bulkUpsert', 'finished', ${json({ filter: { emails: address } })}, ${json({ failures: 1, fatal: `bad ${address}` })}, ${json({ type: 'user', id: 1 })})
    returning id`;
  await sql`insert into batches (org_id, action, state, payload) values (${orgId}, 'bulkUpdate', 'finished', ${json({ filter: { emails: OTHER } })})`;
  await sql`insert into batch_items (org_id, batch_id, data, state, info, errors)
            values (${orgId}, ${batch!.id}, ${JSON.stringify({ attributes: { emails: [address], firstName: 'Jane' } })}, 'error',
                    ${`${address} is taken`}, ${json([{ id: 'taken', detail: `${address} is taken` }])}),
                   (${orgId}, ${batch!.id}, ${JSON.stringify({ attributes: { emails: [OTHER] } })}, 'success', null, null)`;
  await sql`insert into imports (org_id, state, error_reason, file_name)
            values (${orgId}, 'failed', ${`row 3: ${address} duplicates`}, 'jane.csv'), (${orgId}, 'finished', null, 'other.csv')`;
  await sql`insert into import_keys (org_id, resource_type, key_column, key, record_id)
            values (${orgId}, 'prospect', 'emails', ${address.toLowerCase()}, 999999), (${orgId}, 'prospect', 'emails', ${OTHER}, 999998)`;
  const storageKey = randomUUID();
  await storeUpload(orgId, storageKey, csvFile(address));
  await storeUpload(orgId, randomUUID(), `${CSV_HEADER}${OTHER},Ada,only\r\n`);
  const [mailbox] = await sql<{ id: string }[]>`insert into mailboxes (org_id, email) values (${orgId}, 'rep@example.net') returning id`;
  const [mailing] = await sql<{ id: string }[]>`insert into mailings (org_id, subject) values (${orgId}, 'kept') returning id`;
  await sql`insert into mail_messages (org_id, mailing_id, envelope_from, envelope_to, message_id, subject, raw, stored_at)
            values (${orgId}, null, 'rep@example.net', ${[address]}, '<a@x>', 'hello', ${`To: ${address}\r\n\r\nhi`}, now()),
                   (${orgId}, 424242, 'rep@example.net', ${['someone@example.net']}, '<b@x>', 'gone', 'To: someone\r\n\r\nhi', now()),
                   (${orgId}, ${mailing!.id}, 'rep@example.net', ${[OTHER]}, '<c@x>', 'kept', 'To: ada\r\n\r\nhi', now())`;
  await sql`insert into mail_sync_messages (org_id, message_key, mailbox_id, mailing_id, kind, applied_at)
            values (${orgId}, '<gone@x>', ${mailbox!.id}, 424242, 'reply', now()), (${orgId}, '<kept@x>', ${mailbox!.id}, ${mailing!.id}, 'reply', now())`;
  await sql`insert into audit_logs (org_id, action, changes, additional_info, result)
            values (${orgId}, 'update', ${json({ email: [OTHER, address] })}, ${json({ by: 'x' })}, ${`sent to ${address}`}),
                   (${orgId}, 'update', ${json({ email: [OTHER] })}, null, 'ok')`;
  const [definition] = await sql<{ id: string }[]>`
    insert into custom_object_definitions (org_id, name, display_name, display_field, fields, relationships)
    values (${orgId}, 'contact', 'Contact', 's01', '[]', '[]') returning id`;
  await sql`insert into custom_object_records (org_id, definition_id, s01, s02) values (${orgId}, ${definition!.id}, 'Jane', ${address}), (${orgId}, ${definition!.id}, 'Ada', ${OTHER})`;
  await sql`insert into kaia_recordings (org_id, title, participants) values (${orgId}, 'Call', ${json([{ email: address }, { email: OTHER }])}), (${orgId}, 'Other', ${json([{ email: OTHER }])})`;
  await sql`insert into kaia_voice_imports (org_id, call_id, metadata, recording_url)
            values (${orgId}, '1', ${JSON.stringify({ participant: address })}, 'https://media.example/1'), (${orgId}, '2', ${JSON.stringify({ participant: OTHER })}, 'https://media.example/2')`;
  return { storageKey };
}

/** An upload as the upload route and validateUpload leave it, in 7-byte chunks so records straddle them. */
async function storeUpload(orgId: number, storageKey: string, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  const summary = await summarizeCsv(chunksOf(bytes));
  await sql`insert into uploads (org_id, storage_key, state, byte_size, sha512, record_count, headers, created_at, expires_at)
            values (${orgId}, ${storageKey}, 'validated', ${bytes.length}, ${sha512(bytes)}, ${summary.recordCount},
                    ${sql.json(summary.headerValue as unknown as postgres.JSONValue)}, now(), now() + interval '1 hour')`;
  let seq = 0;
  for await (const chunk of chunksOf(bytes)) {
    await sql`insert into upload_chunks (org_id, storage_key, seq, bytes) values (${orgId}, ${storageKey}, ${seq++}, ${Buffer.from(chunk)})`;
  }
}

async function* chunksOf(bytes: Buffer, size = 7): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('hex');

async function uploadBytes(orgId: number, storageKey: string): Promise<Buffer> {
  const rows = await sql<{ bytes: Buffer }[]>`select bytes from upload_chunks where org_id = ${orgId} and storage_key = ${storageKey} order by seq`;
  return Buffer.concat(rows.map((r) => r.bytes));
}

/** Every covered row of the org as text, table by table. */
async function snapshot(orgId: number): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const [table, order] of Object.entries(TABLES)) {
    const rows = await sql.unsafe<{ row: string }[]>(`select t::text as row from ${table} t where org_id = $1 order by ${order}`, [orgId]);
    tables[table] = rows.map((r) => r.row);
  }
  return tables;
}

async function runSteps(orgId: number, email: string, steps: readonly ErasureStep[] = TRACE_STEPS): Promise<void> {
  const log = pino({ level: 'silent' });
  for (const step of steps) await step.run({ sql, subject: { orgId, email }, log });
}

describe('TRACE_STEPS', () => {
  let subject: number;
  let other: number;
  let upload: string;
  let otherUpload: string;
  let before: Record<string, string[]>;
  let otherBefore: Record<string, string[]>;

  beforeAll(async () => {
    subject = (await createOrg(sql, { name: 'Subject' })).orgId;
    other = (await createOrg(sql, { name: 'Other' })).orgId;
    upload = (await seed(subject, STORED)).storageKey;
    otherUpload = (await seed(other, STORED)).storageKey;
    before = await snapshot(subject);
    otherBefore = await snapshot(other);
    await runSteps(subject, ` ${ADDRESS.toUpperCase()} `);
  });

  it('have distinct kinds', () => {
    const kinds = TRACE_STEPS.map((s) => s.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('cover the tables this test seeds, and no others', () => {
    expect(TRACE_STEPS.flatMap((s) => s.tables).sort()).toEqual(Object.keys(TABLES).sort());
  });

  it('leave no row of the org holding the address, in any spelling', async () => {
    for (const table of Object.keys(TABLES)) {
      if (table === 'upload_chunks') continue;
      const [row] = await sql.unsafe<{ count: string }[]>(`select count(*) from ${table} t where org_id = $1 and t::text ilike $2`, [subject, `%${ADDRESS}%`]);
      expect({ table, count: Number(row!.count) }).toEqual({ table, count: 0 });
    }
    const [escaped] = await sql<{ count: string }[]>`select count(*) from events where org_id = ${subject} and payload::text ilike '%[redacted]%'`;
    expect(Number(escaped!.count)).toBe(2);
  });

  it('keep JSON valid, texts read as before around the marker', async () => {
    const [event] = await sql<{ payload: { data: { attributes: Record<string, unknown> } } }[]>`
      select payload from events where org_id = ${subject} and name = 'prospect_destroyed'`;
    expect(event!.payload.data.attributes).toEqual({ emails: ['[redacted]'], name: 'Jane', note: 'Jane <[redacted]>\nline two' });
    const items = await sql<{ data: string; info: string | null }[]>`select data, info from batch_items where org_id = ${subject} order by id`;
    expect(items.map((i) => JSON.parse(i.data) as unknown)).toEqual([{ attributes: { emails: ['[redacted]'], firstName: 'Jane' } }, { attributes: { emails: [OTHER] } }]);
    expect(items[0]!.info).toBe('[redacted] is taken');
    const [record] = await sql<{ s01: string; s02: string }[]>`select s01, s02 from custom_object_records where org_id = ${subject} order by id limit 1`;
    expect(record).toEqual({ s01: 'Jane', s02: '[redacted]' });
  });

  it('delete what is only the subject: stored mail to the address or of a gone mailing, stale import keys', async () => {
    const messages = await sql<{ messageId: string }[]>`select message_id as "messageId" from mail_messages where org_id = ${subject} order by id`;
    expect(messages.map((m) => m.messageId)).toEqual(['<c@x>']);
    const synced = await sql<{ key: string }[]>`select message_key as key from mail_sync_messages where org_id = ${subject}`;
    expect(synced.map((s) => s.key)).toEqual(['<kept@x>']);
    const keys = await sql<{ key: string }[]>`select key from import_keys where org_id = ${subject}`;
    expect(keys.map((k) => k.key)).toEqual([OTHER]);
  });

  it('leave the other org exactly as it was', async () => {
    expect(await snapshot(other)).toEqual(otherBefore);
    expect((await uploadBytes(other, otherUpload)).toString('utf8')).toBe(csvFile(STORED));
  });

  it('leave the rows that do not hold the address exactly as they were (updated_at included)', async () => {
    expect(before.uploads).toHaveLength(2);
    const after = await snapshot(subject);
    for (const [table, rows] of Object.entries(before)) {
      // The rewritten upload's row and chunks hold no address, yet change: the test below checks them.
      const untouched = rows.filter((row) => !row.toLowerCase().includes(ADDRESS) && !row.includes('424242') && !row.includes(upload));
      for (const row of untouched) expect(after[table], table).toContain(row);
    }
  });

  it('change nothing when run again', async () => {
    const once = await snapshot(subject);
    await runSteps(subject, ADDRESS);
    expect(await snapshot(subject)).toEqual(once);
  });

  it('overwrite the CSV records holding the address in place, keeping the file an importable CSV', async () => {
    const original = Buffer.from(csvFile(STORED), 'utf8');
    const bytes = await uploadBytes(subject, upload);
    expect(bytes.length).toBe(original.length);
    expect(bytes.toString('utf8').toLowerCase()).not.toContain(`\n${ADDRESS}`);
    expect(bytes.toString('utf8').toLowerCase()).not.toContain(`<${ADDRESS}>`);

    const file = await openCsv(chunksOf(bytes));
    expect(file.headers).toEqual(['Email', 'First Name', 'Notes']);
    const rows = [];
    for await (const row of file.rows) rows.push(row);
    expect(rows.map((r) => ('values' in r ? r.values : 'malformed'))).toEqual([
      [OTHER, 'Ada', 'first'],
      'malformed',
      'malformed',
      [`mary.${STORED}`, 'Mary', 'someone else'],
      ['linus@example.com', 'Linus', 'ä ö'],
    ]);

    const [stored] = await sql<{ byteSize: string; sha512: string; recordCount: number; headers: unknown; state: string }[]>`
      select byte_size as "byteSize", sha512, record_count as "recordCount", headers, state from uploads where org_id = ${subject} and storage_key = ${upload}`;
    const summary = await summarizeCsv(chunksOf(bytes));
    expect(stored).toEqual({ byteSize: bytes.length, sha512: sha512(bytes), recordCount: 5, headers: summary.headerValue, state: 'validated' });
  });

  it('delete an upload that is not CSV but holds the address', async () => {
    const storageKey = randomUUID();
    const text = `${CSV_HEADER}"never closed,${STORED}\r\n`;
    await sql`insert into uploads (org_id, storage_key, state, byte_size, sha512, created_at, expires_at)
              values (${subject}, ${storageKey}, 'uploaded', ${text.length}, 'x', now(), now() + interval '1 hour')`;
    await sql`insert into upload_chunks (org_id, storage_key, seq, bytes) values (${subject}, ${storageKey}, 0, ${Buffer.from(text)})`;
    await runSteps(
      subject,
      ADDRESS,
      TRACE_STEPS.filter((s) => s.kind === 'uploads'),
    );
    const left = await sql`select 1 from uploads where org_id = ${subject} and storage_key = ${storageKey}`;
    expect(left.count).toBe(0);
  });
});

describe('steps over more rows than one slice', () => {
  it('redact every row holding the address, at a slice boundary or not, and only those', async () => {
    const orgId = (await createOrg(sql, { name: 'Sliced' })).orgId;
    const otherOrg = (await createOrg(sql, { name: 'Sliced bystander' })).orgId;
    const rows = 2 * SLICE_ROWS + 500;
    // Rows 1, SLICE_ROWS, SLICE_ROWS + 1 and the last hold the address; the other org's rows, inserted in between, all do.
    const holding = [1, SLICE_ROWS, SLICE_ROWS + 1, rows];
    await sql`
      insert into events (org_id, name, action, resource_type, resource_id, payload)
      select o.org, 'prospect_updated', 'updated', 'prospect', g,
             jsonb_build_object('data', jsonb_build_object('email', case when g = any(${holding}) or o.org = ${otherOrg} then ${STORED} else 'n' || g || '@example.com' end))
        from generate_series(1, ${rows}) g, unnest(${[orgId, otherOrg]}::bigint[]) as o(org)
       order by g, o.org`;
    await runSteps(
      orgId,
      ADDRESS,
      TRACE_STEPS.filter((s) => s.kind === 'events'),
    );
    const redacted = await sql<{ resourceId: number }[]>`
      select resource_id as "resourceId" from events where org_id = ${orgId} and payload->'data'->>'email' = '[redacted]' order by resource_id`;
    expect(redacted.map((r) => r.resourceId)).toEqual(holding);
    const [kept] = await sql<{ n: number }[]>`select count(*)::int as n from events where org_id = ${orgId} and payload->'data'->>'email' like 'n%@example.com'`;
    expect(kept!.n).toBe(rows - holding.length);
    const [untouched] = await sql<{ n: number }[]>`select count(*)::int as n from events where org_id = ${otherOrg} and payload->'data'->>'email' = ${STORED}`;
    expect(untouched!.n).toBe(rows);
  });
});

/**
 * The tenant tables (those with an org_id column) that have a column of text or JSON, or an
 * array of either, as the migrated database has them: where personal data can be stored.
 */
async function tablesHoldingText(): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select distinct case when n.nspname = 'public' then c.relname else n.nspname || '.' || c.relname end as name
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_type t on t.oid = a.atttypid
      left join pg_type e on t.typcategory = 'A' and e.oid = t.typelem
     where c.relkind in ('r', 'p') and not c.relispartition
       and n.nspname not in ('pg_catalog', 'information_schema')
       and exists (select 1 from pg_attribute o where o.attrelid = c.oid and o.attname = 'org_id' and not o.attisdropped)
       and (coalesce(e.typcategory, t.typcategory) = 'S' or coalesce(e.typname, t.typname) in ('json', 'jsonb'))
     order by 1`;
  return rows.map((r) => r.name);
}

/** The tenant tables that could hold the address and that neither an erasure step covers nor EXEMPT_TABLES names. */
async function unaccountedTables(): Promise<string[]> {
  const erased = erasedTables();
  return (await tablesHoldingText()).filter((table) => !erased.has(table) && !(table in EXEMPT_TABLES));
}

describe('the tenant tables of the database', () => {
  it('are each erased by a step, deleted with the prospect, or exempt with a reason', async () => {
    expect(await unaccountedTables()).toEqual([]);
  });

  it('exempt only tables that exist, hold text and no step covers, each with its reason', async () => {
    const tables = new Set(await tablesHoldingText());
    const erased = erasedTables();
    expect(Object.keys(EXEMPT_TABLES).filter((table) => !tables.has(table) || erased.has(table))).toEqual([]);
    expect(Object.values(EXEMPT_TABLES).filter((reason) => reason.trim().length < 10)).toEqual([]);
  });

  it('name a new tenant table with a text column that nothing erases', async () => {
    await sql`create table prospect_hobbies (org_id bigint not null, id bigint not null, hobby text, primary key (org_id, id))`;
    await sql`create table cadence_system.prospect_scores (org_id bigint not null, id bigint not null, remarks jsonb, primary key (org_id, id))`;
    try {
      expect(await unaccountedTables()).toEqual(['cadence_system.prospect_scores', 'prospect_hobbies']);
    } finally {
      await sql`drop table prospect_hobbies, cadence_system.prospect_scores`;
    }
  });
});
