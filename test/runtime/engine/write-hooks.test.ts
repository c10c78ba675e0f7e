import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../../generated/resources/index.js';
import { createOrg } from '../../../runtime/admin/index.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import {
  changesByName,
  createCatalog,
  createRecordWriter,
  referencesIndex,
  SERVICE_ACTOR,
  type Behaviours,
  type RecordWriter,
  type ResourceBehaviour,
  type WrittenRecord,
} from '../../../runtime/engine/index.js';
import type { Row } from '../../../runtime/engine/render.js';
import { orgScopedTransaction } from '../../../runtime/tenancy/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';

/**
 * The record writer's set-level hooks: `review` (refuse some records of a set, add changes to
 * others, with other records in view), `afterWrite` (what a set sets in motion, through the same
 * writer and transaction) and `beforeDelete`. Behaviours made for the test on accounts and
 * prospects, so the engine's contract is checked apart from any resource's rules.
 */

const account = descriptors.get('account')!;

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

function writerWith(behaviours: Behaviours): RecordWriter {
  return createRecordWriter({
    catalog: createCatalog(descriptors),
    behaviours,
    clock: () => new Date(),
    eventSink: async () => {},
    referencesTo: referencesIndex(descriptors.values()),
  });
}

const create = (name: string) => ({ kind: 'create' as const, type: 'account', changes: changesByName(account, { name }) });

describe('review', () => {
  it('refuses records of a set alone, adds changes to the others, and reads other records by name in one statement per question', async () => {
    const seen: number[] = [];
    const review: ResourceBehaviour['review'] = async (writes, records) => {
      // Accounts named like an existing one are refused; the others get that one's id noted.
      const existing = await records.find('account', { name: writes.map((w) => String(w.next?.name)) });
      seen.push(existing.length);
      return writes.map((w) => {
        const twin = existing.find((e) => e.name === w.next?.name);
        return twin ? { problems: [{ pointer: '/data/attributes/name', detail: `taken by ${twin.id}` }] } : { changes: { custom1: 'reviewed' } };
      });
    };
    const writer = writerWith(new Map([['account', { derives: ['custom1'], review }]]));
    const { orgId } = await createOrg(sql, { name: 'Review' });
    const outcomes = await orgScopedTransaction(sql, orgId, async (tx) => {
      const scope = { tx, orgId, actor: SERVICE_ACTOR };
      const [first] = await writer.write(scope, [create('Acme')]);
      expect(first).toMatchObject({ status: 'written', row: { name: 'Acme', custom1: 'reviewed' } });
      return writer.write(scope, [create('Other'), create('Acme'), create('Third')]);
    });
    expect(outcomes.map((o) => o.status)).toEqual(['written', 'refused', 'written']);
    const refusal = outcomes[1] as { status: 'refused'; error: { status: number; errors: readonly unknown[] } };
    expect(refusal.error.status).toBe(422);
    expect(refusal.error.errors).toEqual([expect.objectContaining({ source: { pointer: '/data/attributes/name' }, detail: expect.stringMatching(/^taken by \d+$/) })]);
    expect(seen).toEqual([0, 1]);
    const stored = await sql<{ name: string }[]>`select name from accounts where org_id = ${orgId} order by id`;
    expect(stored.map((r) => r.name)).toEqual(['Acme', 'Other', 'Third']);
  });

  it('refuses a change a review adds that its behaviour does not declare: a programming error, not a 422', async () => {
    const writer = writerWith(new Map([['account', { review: async (writes) => writes.map(() => ({ changes: { custom1: 'x' } })) }]]));
    const { orgId } = await createOrg(sql, { name: 'Undeclared' });
    await expect(orgScopedTransaction(sql, orgId, (tx) => writer.write({ tx, orgId, actor: SERVICE_ACTOR }, [create('A')]))).rejects.toThrow(/does not declare/);
  });
});

describe('afterWrite and beforeDelete', () => {
  it('see the written set once, with names for relationships, and write through the same transaction', async () => {
    const sets: WrittenRecord[][] = [];
    const deleted: Row[][] = [];
    const behaviours: Behaviours = new Map<string, ResourceBehaviour>([
      [
        'account',
        {
          async afterWrite(written, effects) {
            sets.push([...written]);
            // Each new account gets a prospect, written by the same writer.
            const creates = written.filter((w) => w.kind === 'create');
            await effects.write(creates.map((w) => effects.create('prospect', { firstName: `of ${String(w.row.name)}`, account: Number(w.row.id) })));
          },
          async beforeDelete(rows, effects) {
            deleted.push([...rows]);
            const prospects = await effects.records.find('prospect', { account: rows.map((r) => Number(r.id)) });
            await effects.write(prospects.map((p) => effects.update('prospect', Number(p.id), { title: 'orphaned' })));
          },
        },
      ],
    ]);
    const writer = writerWith(behaviours);
    const { orgId } = await createOrg(sql, { name: 'After write' });
    const ids = await orgScopedTransaction(sql, orgId, async (tx) => {
      const outcomes = await writer.write({ tx, orgId, actor: SERVICE_ACTOR }, [create('One'), create('Two')]);
      return outcomes.map((o) => (o.status === 'written' ? Number(o.row.id) : NaN));
    });
    expect(sets).toHaveLength(1);
    expect(sets[0]!.map((w) => [w.kind, w.row.name])).toEqual([
      ['create', 'One'],
      ['create', 'Two'],
    ]);
    const prospects = await sql<{ first_name: string; account_id: string }[]>`select first_name, account_id from prospects where org_id = ${orgId} order by id`;
    expect(prospects.map((p) => [p.first_name, Number(p.account_id)])).toEqual([
      ['of One', ids[0]],
      ['of Two', ids[1]],
    ]);

    // An update's record says what changed; a delete's hook runs while the prospects still point at it.
    await orgScopedTransaction(sql, orgId, async (tx) => {
      const scope = { tx, orgId, actor: SERVICE_ACTOR };
      await writer.write(scope, [{ kind: 'update', type: 'account', id: ids[0]!, changes: changesByName(account, { name: 'Uno' }) }]);
      await writer.write(scope, [{ kind: 'delete', type: 'account', id: ids[1]! }]);
    });
    expect(sets[1]!.map((w) => [w.kind, w.previous?.name, w.row.name, [...w.changed]])).toEqual([['update', 'One', 'Uno', ['name']]]);
    expect(sets[2]!.map((w) => [w.kind, w.row.name])).toEqual([['delete', 'Two']]);
    expect(deleted.map((rows) => rows.map((r) => r.name))).toEqual([['Two']]);
    const titles = await sql<
      { first_name: string; title: string | null; account_id: string | null }[]
    >`select first_name, title, account_id from prospects where org_id = ${orgId} order by id`;
    expect(titles.map((p) => [p.first_name, p.title, p.account_id === null ? null : Number(p.account_id)])).toEqual([
      ['of One', null, ids[0]],
      ['of Two', 'orphaned', null],
    ]);
  });
});
