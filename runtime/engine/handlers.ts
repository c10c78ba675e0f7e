import type { Context, Handler } from 'hono';
import { requireScope } from '../auth/index.js';
import { actionFailed, jsonApi, parseRequestBody, resourceNotFound } from '../jsonapi/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import { apiErrorOfWrite } from './database-errors.js';
import type { AttributeDescriptor, ResourceModule } from './descriptor.js';
import { actionParams, encodeCursor, pageRequest, queryParams, rejectUnknownParams } from './query-params.js';
import { deleteRecord, findRecord, insertRecord, updateRecord, type RecordContext } from './records.js';
import { renderResource, type Row, type UrlBase } from './render.js';
import { buildStatements } from './statements.js';
import { readWriteBody } from './write-input.js';

export interface ResourceHandlers {
  readonly list: Handler<ApiEnv>;
  readonly get: Handler<ApiEnv>;
  readonly create: Handler<ApiEnv>;
  readonly update: Handler<ApiEnv>;
  readonly destroy: Handler<ApiEnv>;
  readonly action: Handler<ApiEnv>;
}

function urlBase(c: Context<ApiEnv>, configured: string | undefined): UrlBase {
  return { api: `${configured ?? new URL(c.req.url).origin}/api/v2` };
}

/** A list link: the request's own URL on the configured base, other parameters kept, sorted. */
function pageLink(c: Context<ApiEnv>, urls: UrlBase, path: string, changes: Record<string, string | undefined>): string {
  const params = new URL(c.req.url).searchParams;
  for (const name of ['page[after]', 'page[before]']) params.delete(name);
  for (const [name, value] of Object.entries(changes)) if (value !== undefined) params.set(name, value);
  params.sort();
  const query = params.toString();
  return `${urls.api}/${path}${query ? `?${query}` : ''}`;
}

/**
 * The generic handlers of SPEC.md's resource pattern, bound to one resource. Every handler
 * checks the scope first, then runs in an org-scoped transaction.
 */
export function bindHandlers(module: ResourceModule, deps: EngineDependencies): ResourceHandlers {
  const { descriptor } = module;
  const statements = buildStatements(descriptor);
  const references = deps.referencesTo(descriptor.type);
  const behaviour = deps.behaviours.get(descriptor.type);

  const render = (c: Context<ApiEnv>, row: Row) =>
    renderResource(descriptor, row, urlBase(c, deps.publicBaseUrl), deps.collections);
  const recordContext = (c: Context<ApiEnv>, tx: RecordContext['tx']): RecordContext => ({
    tx,
    orgId: c.get('auth').orgId,
    descriptor,
    statements,
    behaviours: deps.behaviours,
  });
  const pathId = (c: Context<ApiEnv>) => Number(c.req.param('id'));
  const notFound = (id: number) => resourceNotFound(`No ${descriptor.type} with id ${id} exists`);
  const write = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw apiErrorOfWrite(descriptor, error) ?? error;
    }
  };

  return {
    async list(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'read');
      const params = queryParams(c.req.url);
      rejectUnknownParams(params, (n) => n === 'page[size]' || n === 'page[after]' || n === 'page[before]', 'on this collection');
      const page = pageRequest(params);
      const limit = page.size + 1;
      const rows = await orgScopedTransaction(deps.sql, auth.orgId, (tx) => {
        if (page.after !== undefined) return tx.unsafe<Row[]>(statements.listAfter, [auth.orgId, limit, page.after], { prepare: true });
        if (page.before !== undefined) return tx.unsafe<Row[]>(statements.listBefore, [auth.orgId, limit, page.before], { prepare: true });
        return tx.unsafe<Row[]>(statements.listFirst, [auth.orgId, limit], { prepare: true });
      });
      // The extra row only says whether more exist in the direction of travel.
      const more = rows.length > page.size;
      const pageRows = page.before !== undefined ? rows.slice(more ? 1 : 0) : rows.slice(0, page.size);
      const urls = urlBase(c, deps.publicBaseUrl);
      const first = pageRows[0];
      const last = pageRows[pageRows.length - 1];
      const hasNext = page.before !== undefined ? true : more;
      const hasPrev = page.before !== undefined ? more : page.after !== undefined;
      const links: Record<string, string> = { first: pageLink(c, urls, descriptor.collection, {}) };
      if (hasPrev && first) links.prev = pageLink(c, urls, descriptor.collection, { 'page[before]': encodeCursor(first.id) });
      if (hasNext && last) links.next = pageLink(c, urls, descriptor.collection, { 'page[after]': encodeCursor(last.id) });
      return jsonApi(c, 200, { data: pageRows.map((row) => render(c, row)), links, meta: { count: null } });
    },

    async get(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'read');
      rejectUnknownParams(queryParams(c.req.url), () => false, 'on a single resource');
      const id = pathId(c);
      const row = await orgScopedTransaction(deps.sql, auth.orgId, (tx) => findRecord(recordContext(c, tx), id));
      if (!row) throw notFound(id);
      return jsonApi(c, 200, { data: render(c, row) });
    },

    async create(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'write');
      rejectUnknownParams(queryParams(c.req.url), () => false, 'on create');
      const input = readWriteBody(descriptor, parseRequestBody(await c.req.text()), 'create', module.validateCreate!);
      const row = await write(() => orgScopedTransaction(deps.sql, auth.orgId, (tx) => insertRecord(recordContext(c, tx), input)));
      const resource = render(c, row);
      return jsonApi(c, 201, { data: resource }, { Location: resource.links.self });
    },

    async update(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'write');
      rejectUnknownParams(queryParams(c.req.url), () => false, 'on update');
      const id = pathId(c);
      const input = readWriteBody(descriptor, parseRequestBody(await c.req.text()), 'update', module.validateUpdate!, id);
      const row = await write(() => orgScopedTransaction(deps.sql, auth.orgId, (tx) => updateRecord(recordContext(c, tx), id, input)));
      if (!row) throw notFound(id);
      return jsonApi(c, 200, { data: render(c, row) });
    },

    async destroy(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'delete');
      rejectUnknownParams(queryParams(c.req.url), () => false, 'on delete');
      const id = pathId(c);
      const row = await write(() => orgScopedTransaction(deps.sql, auth.orgId, (tx) => deleteRecord(recordContext(c, tx), id, references)));
      if (!row) throw notFound(id);
      return c.body(null, 204);
    },

    async action(c) {
      const auth = c.get('auth');
      const name = c.req.param('action') ?? '';
      const declared = descriptor.actions.find((a) => a.name === name);
      const handler = behaviour?.actions?.[name];
      if (!declared || !handler) throw resourceNotFound(`${descriptor.type} has no action ${name}`);
      requireScope(auth.scopes, descriptor.scope, 'write');
      const params = actionParams(queryParams(c.req.url), declared);
      const id = pathId(c);
      const row = await write(() =>
        orgScopedTransaction(deps.sql, auth.orgId, async (tx) => {
          const context = recordContext(c, tx);
          const record = await findRecord(context, id, true);
          if (!record) throw notFound(id);
          const result = handler({ record, params, now: new Date() });
          const attributes = new Map<AttributeDescriptor, unknown>();
          for (const a of descriptor.attributes) if (Object.hasOwn(result.changes, a.name)) attributes.set(a, result.changes[a.name]);
          return updateRecord(context, id, { attributes, relationships: new Map() }, result.event);
        }),
      );
      if (!row) throw actionFailed('actionFailed', `${name} could not be applied to ${descriptor.type} ${id}`);
      return jsonApi(c, 200, { data: render(c, row) });
    },
  };
}
