/**
 * The benchmark's ceiling: a bare Hono server that answers the benchmark's requests with the
 * same bytes Cadence sends, doing only the database statements the engine runs for them (no
 * auth lookup, no transaction, no role switch) and JSON.stringify. Each statement's text and
 * parameters come from the engine's own query code, recorded once at start.
 *
 * The x-bench-variant header adds back, one at a time, the per-request database work Cadence
 * does, to show where the time goes: `tx` (BEGIN/COMMIT), `rls` (plus the set_config of the
 * role and org), `auth` (plus the token lookup: the engine's database work in full) and
 * `pipelined` (the same statements sent in one round trip: the least a transaction can cost).
 *
 * POST /api/v2/prospects is the ceiling of a single create: BEGIN, the INSERT of the given
 * columns (with the values Cadence derives: name, creator, updater) returning the engine's
 * select list, the INSERT of its `created` event, COMMIT, and a 201 with the rendered record.
 *
 * Started by bench/main.ts with DATABASE_URL, PORT and BENCH_CEILING (JSON: CeilingConfig).
 */
import { serve } from '@hono/node-server';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type postgres from 'postgres';
import { descriptors } from '../generated/resources/index.js';
import { bearerAuthentication, type AuthEnv } from '../runtime/auth/index.js';
import { connectDatabase } from '../runtime/db/client.js';
import { loadCursorSecret } from '../runtime/db/settings.js';
import { cursorFor, runList } from '../runtime/engine/list.js';
import { queryParams } from '../runtime/engine/query-params.js';
import { renderResource, type Row } from '../runtime/engine/render.js';
import type { ToOneDescriptor } from '../runtime/model/descriptor.js';
import { parameterCast, quoteIdent, relationshipAlias, selectList, toOnes } from '../runtime/model/sql-text.js';
import { buildStatements } from '../runtime/engine/statements.js';
import { MEDIA_TYPE } from '../runtime/jsonapi/index.js';
import { parseListRequest, type ListRequest } from '../runtime/query/index.js';
import { API_ROLE, orgScopedTransaction, type Transaction } from '../runtime/tenancy/index.js';

export interface CeilingConfig {
  readonly orgId: number;
  /** Query strings (without `?`) of the /api/v2/prospects requests to answer. */
  readonly lists: readonly string[];
  /** The user a POST creates as (creator and updater), as the token Cadence is sent names. */
  readonly userId?: number;
}

export const VARIANTS = ['bare', 'tx', 'rls', 'auth', 'pipelined'] as const;
export type Variant = (typeof VARIANTS)[number];

interface Statement {
  readonly text: string;
  readonly params: unknown[];
}

/** One list request, parsed and turned into fixed statements and link templates at start. */
interface ListPlan {
  readonly request: ListRequest;
  readonly size: number;
  readonly after: boolean;
  readonly page: Statement;
  readonly count?: Statement;
  readonly includeText?: string;
  readonly links: { readonly first: string; readonly prev: string; readonly next: string };
}

const CURSOR_SLOT = 'CURSORSLOT';
const PAGE_PARAMS = ['page[after]', 'page[before]', 'page[offset]'];

const config = JSON.parse(process.env.BENCH_CEILING ?? 'null') as CeilingConfig;
const port = Number(process.env.PORT);
const sql = connectDatabase(process.env.DATABASE_URL!);
const cursorSecret = await loadCursorSecret(sql);
const prospect = descriptors.get('prospect')!;
const account = descriptors.get('account')!;
const getOne = buildStatements(prospect).getOne;
const collections = new Map([...descriptors].map(([type, d]) => [type, d.collection]));
const urls = { api: `http://127.0.0.1:${port}/api/v2` };
const tables = (type: string) => descriptors.get(type)!;

/**
 * Runs the engine's query code against a stand-in transaction that records each statement and
 * answers it with one placeholder row, which is all runList needs to run to its end.
 */
async function recordStatements(work: (tx: Transaction) => Promise<unknown>): Promise<Statement[]> {
  const recorded: Statement[] = [];
  const recorder = {
    unsafe: async (text: string, params: unknown[]) => {
      recorded.push({ text, params });
      return [{ id: 0, n: 0 }];
    },
  };
  await work(recorder as unknown as Transaction);
  return recorded;
}

/** Cadence's page link (handlers.ts pageLink), with a slot where the cursor goes. */
function pageLink(query: string, changes: Record<string, string>): string {
  const params = new URLSearchParams(query);
  for (const name of PAGE_PARAMS) params.delete(name);
  for (const [name, value] of Object.entries(changes)) params.set(name, value);
  params.sort();
  const text = params.toString();
  return `${urls.api}/${prospect.collection}${text ? `?${text}` : ''}`;
}

async function planList(query: string): Promise<ListPlan> {
  const request = parseListRequest(prospect, queryParams(`http://ceiling/?${query}`), {
    orgId: config.orgId,
    cursorSecret,
    countByDefault: false,
    descriptorOf: (type) => descriptors.get(type),
  });
  const page = request.page;
  if (page.kind !== 'cursor' || page.before) throw new Error(`the ceiling serves first and page[after] pages only, not ?${query}`);
  const [pageStatement, count] = await recordStatements((tx) => runList(tx, prospect, buildStatements(prospect), request, config.orgId, tables));
  // The statement include.ts sends for one level of include: every referenced id at once.
  if (request.include.some((node) => node.target !== account || node.children.length)) throw new Error('the ceiling includes account only');
  const includeText = request.include.length
    ? `select ${selectList(account)} from ${quoteIdent(account.table)} where "org_id" = $1 and "id" = any($2::bigint[])`
    : undefined;
  return {
    request,
    size: page.size,
    after: page.after !== undefined,
    page: pageStatement!,
    ...(request.count && { count: count! }),
    ...(includeText && { includeText }),
    links: { first: pageLink(query, {}), prev: pageLink(query, { 'page[before]': CURSOR_SLOT }), next: pageLink(query, { 'page[after]': CURSOR_SLOT }) },
  };
}

const plans = new Map<string, ListPlan>();
for (const query of config.lists) plans.set(query, await planList(query));

type Database = postgres.Sql | Transaction;

/** Runs `work` with as much of Cadence's per-request database work as the variant asks for. */
function withVariant<T>(variant: Variant, work: (db: Database) => Promise<T>): Promise<T> {
  if (variant === 'bare') return work(sql);
  if (variant === 'tx') return sql.begin(work) as Promise<T>;
  return orgScopedTransaction(sql, config.orgId, work);
}

/**
 * The least a one-statement transaction can cost: BEGIN and the set_config in one simple-protocol message, the statement and
 * COMMIT right behind it on the same connection, all sent before the first answer comes back.
 * Only for a request of one statement.
 */
async function pipelined(statement: Statement): Promise<Row[]> {
  const connection = await sql.reserve();
  try {
    const [, rows] = await Promise.all([
      connection.unsafe(`begin; select set_config('role', '${API_ROLE}', true), set_config('cadence.org_id', '${Number(config.orgId)}', true)`),
      connection.unsafe<Row[]>(statement.text, statement.params as never[], { prepare: true }),
      connection.unsafe('commit'),
    ]);
    return rows;
  } finally {
    connection.release();
  }
}

/** The variant a request asks for; an unknown one counts as bare (main.ts sends known ones only). */
function variantOf(c: Context): Variant {
  const asked = c.req.header('x-bench-variant') ?? 'bare';
  return (VARIANTS as readonly string[]).includes(asked) ? (asked as Variant) : 'bare';
}

const render =
  (descriptor = prospect) =>
  (row: Row) =>
    renderResource(descriptor, row, urls, collections);
const send = (c: Context, document: unknown) => c.body(JSON.stringify(document), 200, { 'Content-Type': MEDIA_TYPE });

async function listDocument(plan: ListPlan, db: Database): Promise<unknown> {
  const fetched = await db.unsafe<Row[]>(plan.page.text, plan.page.params as never[], { prepare: true });
  const rows = fetched.slice(0, plan.size);
  let included: unknown[] | undefined;
  if (plan.includeText) {
    const ids = [...new Set(rows.map((r) => r['rel:account']).filter((id) => id != null))];
    const loaded = ids.length ? await db.unsafe<Row[]>(plan.includeText, [config.orgId, ids] as never[], { prepare: true }) : [];
    included = loaded.map(render(account));
  }
  const counted = plan.count ? (await db.unsafe<{ n: number }[]>(plan.count.text, plan.count.params as never[], { prepare: true }))[0]!.n : undefined;
  return listBody(plan, rows, fetched.length > plan.size, included, counted);
}

function listBody(plan: ListPlan, rows: Row[], more: boolean, included: unknown[] | undefined, counted: number | undefined): unknown {
  const first = rows[0];
  const last = rows[rows.length - 1];
  const cursor = (template: string, row: Row) => template.replace(CURSOR_SLOT, cursorFor(cursorSecret, plan.request, row));
  return {
    data: rows.map(render()),
    ...(included && { included }),
    links: {
      first: plan.links.first,
      ...(plan.after && first && { prev: cursor(plan.links.prev, first) }),
      ...(more && last && { next: cursor(plan.links.next, last) }),
    },
    meta: counted === undefined ? { count: null } : { count: counted, count_truncated: false },
  };
}

const app = new Hono<AuthEnv>();
const authenticate = bearerAuthentication(sql);
const authenticateVariants: MiddlewareHandler<AuthEnv> = (c, next) => (variantOf(c) === 'auth' || variantOf(c) === 'pipelined' ? authenticate(c, next) : next());
app.use('/api/v2/*', authenticateVariants);

app.get('/api/v2/prospects/:id{[0-9]+}', async (c) => {
  const variant = variantOf(c);
  const statement = { text: getOne, params: [config.orgId, Number(c.req.param('id'))] };
  const [row] =
    variant === 'pipelined'
      ? await pipelined(statement)
      : await withVariant(variant, (db) => db.unsafe<Row[]>(statement.text, statement.params as never[], { prepare: true }));
  if (!row) return c.body(null, 404);
  return send(c, { data: render()(row) });
});

app.get('/api/v2/prospects', async (c) => {
  const url = c.req.url;
  const plan = plans.get(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  if (!plan) return c.body(null, 404);
  const variant = variantOf(c);
  if (variant !== 'pipelined') return send(c, await withVariant(variant, (db) => listDocument(plan, db)));
  if (plan.includeText || plan.count) return c.text('the pipelined variant serves one-statement requests only', 400);
  const fetched = await pipelined(plan.page);
  return send(c, listBody(plan, fetched.slice(0, plan.size), fetched.length > plan.size, undefined, undefined));
});

/**
 * The columns a create body sets, as the record writer would write them: attributes and to-one
 * relationships by column, plus what prospects and actor stamps derive (name, creator, updater).
 */
function createColumns(body: unknown): { columns: string[]; values: unknown[]; casts: string[] } {
  const data = (body as { data?: { attributes?: Record<string, unknown>; relationships?: Record<string, { data: { id: number | string } | null }> } }).data ?? {};
  const given = new Map<string, unknown>();
  const casts = new Map<string, string>();
  for (const [name, value] of Object.entries(data.attributes ?? {})) {
    const attribute = prospect.attributes.find((a) => a.name === name);
    if (!attribute || attribute.readOnly) throw new Error(`the ceiling does not write ${name}`);
    given.set(attribute.column, value);
    casts.set(attribute.column, parameterCast(attribute));
  }
  const relations = new Map<string, ToOneDescriptor>(toOnes(prospect).map((r) => [r.name, r]));
  for (const [name, value] of Object.entries(data.relationships ?? {})) {
    const relationship = relations.get(name);
    if (!relationship) throw new Error(`the ceiling does not write ${name}`);
    given.set(relationship.column, value.data === null ? null : Number(value.data.id));
  }
  const first = data.attributes?.firstName;
  const last = data.attributes?.lastName;
  given.set('name', [first, last].filter((part) => typeof part === 'string' && part !== '').join(' ') || null);
  given.set(relations.get('creator')!.column, config.userId ?? null);
  given.set(relations.get('updater')!.column, config.userId ?? null);
  const columns = [...given.keys()];
  return { columns, values: [...given.values()], casts: columns.map((c) => casts.get(c) ?? '') };
}

/** The event a create records: every public attribute and to-one relationship of the row. */
function createdSnapshot(row: Row): { attributes: Record<string, unknown>; relationships: Record<string, unknown> } {
  const attributes: Record<string, unknown> = {};
  for (const a of prospect.attributes) if (!a.writeOnly) attributes[a.name] = row[a.name] ?? null;
  const relationships: Record<string, unknown> = {};
  for (const rel of toOnes(prospect)) {
    const id = row[relationshipAlias(rel)];
    relationships[rel.name] = { data: id == null ? null : { type: rel.target, id } };
  }
  return { attributes, relationships };
}

const insertEvent = `insert into "events" ("org_id", "name", "action", "resource_type", "resource_id", "payload", "event_at")
  values ($1, 'prospect_created', 'created', 'prospect', $2, $3::jsonb, now())`;

app.post('/api/v2/prospects', async (c) => {
  const { columns, values, casts } = createColumns(JSON.parse(await c.req.text()));
  const insert = `insert into ${quoteIdent(prospect.table)} ("org_id", ${columns.map(quoteIdent).join(', ')})
    values ($1, ${columns.map((_, i) => `$${i + 2}${casts[i]}`).join(', ')}) returning ${selectList(prospect)}`;
  const row = await sql.begin(async (tx) => {
    const [inserted] = await tx.unsafe<Row[]>(insert, [config.orgId, ...values] as never[], { prepare: true });
    await tx.unsafe(insertEvent, [config.orgId, inserted!.id, { data: createdSnapshot(inserted!) }] as never[], { prepare: true });
    return inserted!;
  });
  const resource = render()(row);
  return c.body(JSON.stringify({ data: resource }), 201, { 'Content-Type': MEDIA_TYPE, Location: resource.links.self });
});

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });

async function shutDown(): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sql.end({ timeout: 5 });
  process.exit(0);
}
process.once('SIGTERM', () => void shutDown());
process.once('SIGINT', () => void shutDown());
// Started with an IPC channel: when the benchmark process goes, so does this one.
process.once('disconnect', () => void shutDown());
