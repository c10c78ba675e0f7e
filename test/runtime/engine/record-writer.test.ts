import fc from 'fast-check';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../../generated/resources/index.js';
import { createOrg } from '../../../runtime/admin/index.js';
import { connectDatabase } from '../../../runtime/db/client.js';
import { changesOfAttributes, SERVICE_ACTOR, type Changes, type RecordWriter, type WriteOperation, type WriteOutcome } from '../../../runtime/engine/index.js';
import { standardRecordWriter } from '../../../runtime/behaviours/standard-writer.js';
import { orgScopedTransaction } from '../../../runtime/tenancy/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';
import { actionFailed } from '../../../runtime/jsonapi/index.js';

/**
 * The record writer writes a set with set statements, and a single write as a set of one. Both
 * must give the same rows, events and webhook jobs: random operations are written as one set
 * in one org and one by one (each in its own transaction, as HTTP requests are) in another,
 * and everything either org stored is compared, ids replaced by names.
 */

const prospect = descriptors.get('prospect')!;
const account = descriptors.get('account')!;
const toOne = (d: typeof prospect, name: string) => d.relationships.find((r) => r.name === name && r.kind === 'toOne') as Parameters<Changes['relationships']['get']>[0];

let database: TestDatabase;
let sql: postgres.Sql;
let writer: RecordWriter;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = connectDatabase(database.url, { max: 4 });
  writer = standardRecordWriter(() => new Date());
}, 60_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await database?.drop();
});

/** An operation over named records: base accounts a0..a2, base prospects p0..p4, or one that does not exist. */
type Named =
  | { kind: 'create'; attributes: Record<string, unknown>; account: number | 'missing' | null }
  | { kind: 'update'; prospect: number | 'missing'; attributes: Record<string, unknown>; account?: number | null }
  | { kind: 'delete'; prospect: number | 'missing' };

const attributesArb = fc.record(
  {
    firstName: fc.constantFrom('Ada', 'Grace', 'Edsger', ''),
    title: fc.constantFrom('CTO', 'VP', null),
    tags: fc.constantFrom(['a'], ['a', 'b'], []),
    // 3e9 does not fit the integer column: PostgreSQL refuses that one record.
    linkedInConnections: fc.constantFrom(5, 500, 3_000_000_000),
    dateOfBirth: fc.constantFrom('1990-01-31', null),
  },
  { requiredKeys: [] },
);
const prospectRef = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant('missing' as const));
const operationArb: fc.Arbitrary<Named> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    attributes: attributesArb,
    account: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant('missing' as const), fc.constant(null)),
  }),
  fc.record(
    { kind: fc.constant('update' as const), prospect: prospectRef, attributes: attributesArb, account: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }) },
    { requiredKeys: ['kind', 'prospect', 'attributes'] },
  ),
  fc.record({ kind: fc.constant('delete' as const), prospect: prospectRef }),
);

const MISSING_ID = 9_000_000_000;

interface Org {
  orgId: number;
  accounts: number[];
  prospects: number[];
  webhooks: number[];
}

async function seedOrg(name: string): Promise<Org> {
  const { orgId } = await createOrg(sql, { name });
  return orgScopedTransaction(sql, orgId, async (tx) => {
    const scope = { tx, orgId, actor: SERVICE_ACTOR };
    const write = async (ops: WriteOperation[]) => (await writer.write(scope, ops)).map((o) => (o.status === 'written' ? Number(o.row.id) : NaN));
    const webhooks = await write([
      { kind: 'create', type: 'webhook', changes: changesOfAttributes(descriptors.get('webhook')!.attributes, { url: 'https://hooks.example.test/all' }) },
      {
        kind: 'create',
        type: 'webhook',
        changes: changesOfAttributes(descriptors.get('webhook')!.attributes, { url: 'https://hooks.example.test/p', resource: 'prospect', action: 'updated' }),
      },
    ]);
    const accounts = await write([0, 1, 2].map((i) => ({ kind: 'create', type: 'account', changes: changesOfAttributes(account.attributes, { name: `Account ${i}` }) })));
    const prospects = await write(
      [0, 1, 2, 3, 4].map((i) => ({
        kind: 'create',
        type: 'prospect',
        changes: {
          attributes: changesOfAttributes(prospect.attributes, { firstName: `P${i}` }).attributes,
          relationships: new Map([[toOne(prospect, 'account'), accounts[i % 3]!]]),
        },
      })),
    );
    return { orgId, accounts, prospects, webhooks };
  });
}

function operationFor(org: Org, named: Named): WriteOperation {
  const prospectId = (ref: number | 'missing') => (ref === 'missing' ? MISSING_ID : org.prospects[ref]!);
  const relationships = new Map();
  if (named.kind !== 'delete' && named.account !== undefined) {
    relationships.set(toOne(prospect, 'account'), named.account === null ? null : named.account === 'missing' ? MISSING_ID : org.accounts[named.account]!);
  }
  if (named.kind === 'delete') return { kind: 'delete', type: 'prospect', id: prospectId(named.prospect) };
  const changes = { attributes: changesOfAttributes(prospect.attributes, named.attributes).attributes, relationships };
  return named.kind === 'create' ? { kind: 'create', type: 'prospect', changes } : { kind: 'update', type: 'prospect', id: prospectId(named.prospect), changes };
}

/** Ids replaced by the names both orgs share. */
function namer(org: Org, outcomes: readonly WriteOutcome[]) {
  const names = new Map<string, string>();
  org.accounts.forEach((id, i) => names.set(`account:${id}`, `a${i}`));
  org.prospects.forEach((id, i) => names.set(`prospect:${id}`, `p${i}`));
  org.webhooks.forEach((id, i) => names.set(`webhook:${id}`, `w${i}`));
  outcomes.forEach((o, i) => {
    if (o.status === 'written' && !names.has(`prospect:${o.row.id}`)) names.set(`prospect:${o.row.id}`, `new${i}`);
  });
  return (type: string, id: unknown) => names.get(`${type}:${Number(id)}`) ?? `unknown ${type} ${String(id)}`;
}

const TIMES = new Set(['createdAt', 'updatedAt']);

function normalRow(row: Record<string, unknown>, name: ReturnType<typeof namer>) {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (TIMES.has(key)) continue;
    if (key === 'id') copy[key] = name('prospect', value);
    else if (key.startsWith('rel:') && value !== null) copy[key] = name(toOne(prospect, key.slice(4)).target, value);
    else if (key.startsWith('rel:')) copy[key] = value;
    else copy[key] = value;
  }
  return copy;
}

function normalSnapshot(
  snapshot: { attributes: Record<string, unknown>; relationships: Record<string, { data: { type: string; id: number } | null }> },
  name: ReturnType<typeof namer>,
) {
  const attributes = Object.fromEntries(Object.entries(snapshot.attributes).filter(([k]) => !TIMES.has(k)));
  const relationships = Object.fromEntries(Object.entries(snapshot.relationships).map(([k, v]) => [k, v.data === null ? null : name(v.data.type, v.data.id)]));
  return { attributes, relationships };
}

/** What the org stored after `afterEventId`: events with their payloads and the delivery jobs for them. */
async function storedSince(org: Org, afterEventId: number, name: ReturnType<typeof namer>) {
  const events = await sql<{ id: number; name: string; resource_type: string; resource_id: number; payload: any }[]>`
    select id, name, resource_type, resource_id, payload from events where org_id = ${org.orgId} and id > ${afterEventId} order by id`;
  const jobs = await sql<{ event_id: string; webhook_id: string }[]>`
    select i.item->>'eventId' as event_id, i.item->>'webhookId' as webhook_id
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id, jsonb_array_elements(j.payload::jsonb) as i(item)
     where t.identifier = 'deliver_webhook' and (i.item->>'orgId')::bigint = ${org.orgId} and (i.item->>'eventId')::bigint > ${afterEventId}`;
  const position = new Map(events.map((e, i) => [Number(e.id), i]));
  return {
    events: events.map((e) => ({
      name: e.name,
      resource: name(e.resource_type, e.resource_id),
      data: normalSnapshot(e.payload.data, name),
      before: e.payload.beforeUpdate ? normalSnapshot(e.payload.beforeUpdate, name) : undefined,
    })),
    jobs: jobs.map((j) => `${position.get(Number(j.event_id))}->${name('webhook', j.webhook_id)}`).sort(),
  };
}

async function lastEventId(orgId: number): Promise<number> {
  const [row] = await sql<{ id: number | null }[]>`select max(id) as id from events where org_id = ${orgId}`;
  return Number(row!.id ?? 0);
}

function normalOutcome(o: WriteOutcome, name: ReturnType<typeof namer>) {
  if (o.status === 'refused') return { status: o.status, status_code: o.error.status, errors: o.error.errors?.map((e) => e.source) };
  if (o.status === 'missing') return { status: o.status };
  return { status: o.status, row: normalRow(o.row, name) };
}

describe('record writer', () => {
  it('a set written at once stores exactly what the same operations written one by one store', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operationArb, { minLength: 1, maxLength: 12 }), async (named) => {
        const [asSet, oneByOne] = [await seedOrg('set'), await seedOrg('one by one')];
        const [setSince, singleSince] = [await lastEventId(asSet.orgId), await lastEventId(oneByOne.orgId)];

        const setOutcomes = await orgScopedTransaction(sql, asSet.orgId, (tx) =>
          writer.write(
            { tx, orgId: asSet.orgId, actor: SERVICE_ACTOR },
            named.map((n) => operationFor(asSet, n)),
          ),
        );
        const singleOutcomes: WriteOutcome[] = [];
        for (const n of named) {
          try {
            const [outcome] = await orgScopedTransaction(sql, oneByOne.orgId, (tx) =>
              writer.write({ tx, orgId: oneByOne.orgId, actor: SERVICE_ACTOR }, [operationFor(oneByOne, n)]),
            );
            singleOutcomes.push(outcome!);
          } catch {
            // A set of one is not isolated: what PostgreSQL refuses is the caller's error, as a
            // 422 once the HTTP handler has mapped it. The set refuses the same record.
            singleOutcomes.push({ status: 'refused', error: { status: 422, errors: [{ source: { pointer: '/data/attributes' } }] } as never });
          }
        }

        const setName = namer(asSet, setOutcomes);
        const singleName = namer(oneByOne, singleOutcomes);
        expect(setOutcomes.map((o) => normalOutcome(o, setName).status)).toEqual(singleOutcomes.map((o) => normalOutcome(o, singleName).status));
        expect(setOutcomes.map((o) => (o.status === 'written' ? normalRow(o.row, setName) : o.status))).toEqual(
          singleOutcomes.map((o) => (o.status === 'written' ? normalRow(o.row, singleName) : o.status)),
        );
        expect(await storedSince(asSet, setSince, setName)).toEqual(await storedSince(oneByOne, singleSince, singleName));
        const rows = async (org: Org, name: ReturnType<typeof namer>) =>
          (
            await orgScopedTransaction(sql, org.orgId, (tx) =>
              tx.unsafe(`select first_name, title, tags, linked_in_connections, date_of_birth::text, account_id, id from prospects where org_id = $1 order by id`, [
                org.orgId,
              ]),
            )
          ).map((r) => ({ ...r, id: name('prospect', r.id), account_id: r.account_id === null ? null : name('account', r.account_id) }));
        expect(await rows(asSet, setName)).toEqual(await rows(oneByOne, singleName));
      }),
      { numRuns: 25, seed: 20261122 },
    );
  }, 240_000);

  it('a record PostgreSQL refuses is refused alone; its neighbours are written', async () => {
    const org = await seedOrg('isolation');
    const outcomes = await orgScopedTransaction(sql, org.orgId, (tx) =>
      writer.write({ tx, orgId: org.orgId, actor: SERVICE_ACTOR }, [
        operationFor(org, { kind: 'create', attributes: { firstName: 'fits' }, account: 0 }),
        operationFor(org, { kind: 'create', attributes: { firstName: 'too many', linkedInConnections: 3_000_000_000 }, account: 0 }),
        operationFor(org, { kind: 'create', attributes: { firstName: 'no account' }, account: 'missing' }),
        operationFor(org, { kind: 'update', prospect: 1, attributes: { title: 'Chief' } }),
      ]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['written', 'refused', 'refused', 'written']);
    expect(outcomes[1]).toMatchObject({ error: { status: 422 } });
    expect(outcomes[2]).toMatchObject({ error: { status: 422, errors: [{ source: { pointer: '/data/relationships/account' } }] } });
  }, 60_000);

  it('an action refusing one record of a set (an ApiError from its changes) refuses that record alone', async () => {
    const org = await seedOrg('action refusal');
    const [first, second] = [org.prospects[0]!, org.prospects[1]!];
    const refusing = (id: number): WriteOperation => ({
      kind: 'update',
      type: 'prospect',
      id,
      changes: (current) => {
        if (current.firstName === 'P1') throw actionFailed('notNow', `prospect ${id} cannot`);
        return changesOfAttributes(prospect.attributes, { title: 'Acted' });
      },
    });
    const outcomes = await orgScopedTransaction(sql, org.orgId, (tx) =>
      writer.write({ tx, orgId: org.orgId, actor: SERVICE_ACTOR }, [refusing(first), refusing(second)]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['written', 'refused']);
    expect(outcomes[1]).toMatchObject({ error: { status: 422, errors: [{ id: 'notNow' }] } });
    const titles = await sql<
      { id: number; title: string | null }[]
    >`select id, title from prospects where org_id = ${org.orgId} and id in ${sql([first, second])} order by id`;
    expect(titles.map((r) => r.title)).toEqual(['Acted', null]);
  }, 60_000);
});
