import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../../generated/resources/index.js';
import { createOrg } from '../../../runtime/admin/index.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import {
  createCatalog,
  createRecordWriter,
  referencesIndex,
  SERVICE_ACTOR,
  type RecordWriter,
  type ResourceBehaviour,
  type WrittenRecord,
} from '../../../runtime/engine/index.js';
import { standardRecordWriter } from '../../../runtime/behaviours/standard-writer.js';
import { orgScopedTransaction } from '../../../runtime/tenancy/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

/**
 * Deleting a set of records updates the records referring to them through the writer, and stays
 * set-based however many there are: one statement per reference finds the referring records of
 * the whole set, and they are updated a chunk at a time (a bulk destroy's chunk of a thousand
 * accounts with three prospects each is three chunks of prospects, not three thousand writes).
 */

const PROSPECTS_PER_ACCOUNT = 3;

let database: TestDatabase;
let sql: postgres.Sql;
let writer: RecordWriter;
let statements: string[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 2, onQuery: (text) => statements.push(text) });
  writer = standardRecordWriter(() => new Date());
}, 60_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.drop();
});

/** An org with `count` accounts, each with PROSPECTS_PER_ACCOUNT prospects; returns the org and the accounts' ids. */
async function accountsWithProspects(name: string, count: number): Promise<{ orgId: number; accounts: number[] }> {
  const { orgId } = await createOrg(sql, { name });
  const accounts = await sql<{ id: number }[]>`
    insert into accounts (org_id, name) select ${orgId}, 'Account ' || g from generate_series(1, ${count}) g returning id`;
  await sql`
    insert into prospects (org_id, first_name, account_id)
    select ${orgId}, 'Prospect', a.id from unnest(${accounts.map((a) => a.id)}::bigint[]) a(id), generate_series(1, ${PROSPECTS_PER_ACCOUNT})`;
  return { orgId, accounts: accounts.map((a) => Number(a.id)).sort((a, b) => a - b) };
}

/** Deletes the accounts with one write, as a bulk destroy's chunk does; returns the statements it sent. */
async function deleteAccounts(orgId: number, accounts: readonly number[]): Promise<string[]> {
  statements = [];
  const outcomes = await orgScopedTransaction(sql, orgId, (tx) =>
    writer.write(
      { tx, orgId, actor: SERVICE_ACTOR, isolated: true },
      accounts.map((id) => ({ kind: 'delete', type: 'account', id })),
    ),
  );
  expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(['written']));
  return [...statements];
}

const count = (sent: readonly string[], pattern: RegExp) => sent.filter((text) => pattern.test(text)).length;

describe('deleting records others refer to', () => {
  it('finds the referring records with one statement per reference and updates them a chunk at a time, each with its event', async () => {
    const { orgId, accounts } = await accountsWithProspects('Many', 1000);
    const sent = await deleteAccounts(orgId, accounts);

    const references = referencesIndex(descriptors.values())('account');
    expect(count(sent, /^select "id" from "\w+"\s+where "org_id" = \$1 and "\w+" = any\(\$2::bigint\[\]\)/)).toBe(references.length);
    expect(count(sent, /^update "prospects" set/)).toBe(PROSPECTS_PER_ACCOUNT);
    expect(count(sent, /^delete from "accounts"/)).toBe(1);

    const [left] = await sql<{ n: number }[]>`select count(*)::int as n from prospects where org_id = ${orgId} and account_id is not null`;
    expect(left!.n).toBe(0);
    const events = await sql<{ action: string; n: number }[]>`
      select action, count(*)::int as n from events where org_id = ${orgId} and resource_type in ('account', 'prospect') group by action order by action`;
    expect(events).toEqual([
      { action: 'destroyed', n: 1000 },
      { action: 'updated', n: 1000 * PROSPECTS_PER_ACCOUNT },
    ]);

    // A hundred times the records costs only the two more chunks of prospects, a handful of statements each.
    const few = await accountsWithProspects('Few', 10);
    const fewSent = await deleteAccounts(few.orgId, few.accounts);
    expect(count(fewSent, /^update "prospects" set/)).toBe(1);
    expect(sent.length - fewSent.length).toBeGreaterThan(0);
    expect(sent.length - fewSent.length).toBeLessThanOrEqual(2 * 8);
  }, 120_000);

  it("runs the referring records' hooks as for any update, and clears without an event a record its resource refuses to change", async () => {
    const seen: WrittenRecord[] = [];
    const prospectBehaviour: ResourceBehaviour = {
      // Prospects named Keep refuse to lose their account: the delete goes ahead all the same.
      async check(next, previous) {
        return previous?.firstName === 'Keep' && next.account === null ? [{ pointer: '/data/relationships/account', detail: 'keeps its account' }] : [];
      },
      async afterWrite(written) {
        seen.push(...written);
      },
    };
    const hooked = createRecordWriter({
      catalog: createCatalog(descriptors),
      behaviours: new Map([['prospect', prospectBehaviour]]),
      clock: () => new Date(),
      eventSink: async () => {},
      referencesTo: referencesIndex(descriptors.values()),
    });
    const { orgId } = await createOrg(sql, { name: 'Hooks' });
    const [account] = await sql<{ id: number }[]>`insert into accounts (org_id, name) values (${orgId}, 'Gone') returning id`;
    const prospects = await sql<{ id: number; first_name: string }[]>`
      insert into prospects (org_id, first_name, account_id) values (${orgId}, 'Clear', ${account!.id}), (${orgId}, 'Keep', ${account!.id}) returning id, first_name`;
    const [outcome] = await orgScopedTransaction(sql, orgId, (tx) =>
      hooked.write({ tx, orgId, actor: SERVICE_ACTOR }, [{ kind: 'delete', type: 'account', id: account!.id }]),
    );
    expect(outcome!.status).toBe('written');

    const cleared = prospects.find((p) => p.first_name === 'Clear')!.id;
    expect(seen.map((w) => [w.kind, Number(w.row.id), w.previous?.account, w.row.account, [...w.changed]])).toEqual([
      ['update', cleared, account!.id, null, ['account']],
    ]);
    const stored = await sql<{ first_name: string; account_id: number | null }[]>`select first_name, account_id from prospects where org_id = ${orgId} order by id`;
    expect(stored).toEqual([
      { first_name: 'Clear', account_id: null },
      { first_name: 'Keep', account_id: null },
    ]);
    const events = await sql<
      { name: string; resource_id: number }[]
    >`select name, resource_id from events where org_id = ${orgId} and resource_type in ('account', 'prospect') order by id`;
    expect(events).toEqual([
      { name: 'prospect_updated', resource_id: cleared },
      { name: 'account_destroyed', resource_id: account!.id },
    ]);
  });
});
