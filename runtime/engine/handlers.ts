import type { Context, Handler } from 'hono';
import { requireScope, retryingWhenTokenStale } from '../auth/index.js';
import { jsonApi, parseRequestBody, resourceNotFound } from '../jsonapi/index.js';
import { countsByDefault, parseListRequest, parseSingleRequest, type Fieldsets, type ListRequest } from '../query/index.js';
import { orgScopedTransaction, type OrgTransactionOptions } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import { apiErrorOfWrite } from './database-errors.js';
import type { Actor, Viewer } from './behaviour.js';
import type { ResourceModule } from './descriptor.js';
import { loadIncluded } from './include.js';
import { cursorFor, runList, type ListResult } from './list.js';
import { actionParams, queryParams, rejectUnknownParams } from './query-params.js';
import { applyAction, deleteRecord, findRecord, insertRecord, updateRecord, type RecordContext } from './records.js';
import { requireScopesOfRelated } from './related-scopes.js';
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

function actorOf(c: Context<ApiEnv>): Actor {
  const auth = c.get('auth');
  return { userId: auth.userId, appId: auth.appId ?? null, appName: auth.appName ?? null };
}

function viewerOf(c: Context<ApiEnv>): Viewer {
  const auth = c.get('auth');
  return { admin: auth.admin, userId: auth.userId, appId: auth.appId ?? null };
}

function urlBase(c: Context<ApiEnv>, configured: string | undefined): UrlBase {
  return { api: `${configured ?? new URL(c.req.url).origin}/api/v2` };
}

const PAGE_PARAMS = ['page[after]', 'page[before]', 'page[offset]'];

/**
 * A page link: the request's own query with its page position replaced, parameters sorted
 * (so links are stable), brackets percent-encoded, on the base the client called.
 */
function pageLink(c: Context<ApiEnv>, urls: UrlBase, path: string, changes: Record<string, string>): string {
  const params = new URL(c.req.url).searchParams;
  for (const name of PAGE_PARAMS) params.delete(name);
  for (const [name, value] of Object.entries(changes)) params.set(name, value);
  params.sort();
  const query = params.toString();
  return `${urls.api}/${path}${query ? `?${query}` : ''}`;
}

function listLinks(c: Context<ApiEnv>, urls: UrlBase, path: string, request: ListRequest, result: ListResult, secret: string): Record<string, string> {
  const page = request.page;
  if (page.kind === 'offset') {
    const at = (offset: number) => pageLink(c, urls, path, { 'page[offset]': String(offset) });
    const total = Math.min(result.count?.value ?? 0, page.offset + page.limit * 1000);
    const lastOffset = Math.max(0, Math.min(Math.floor((Math.max(total, 1) - 1) / page.limit) * page.limit, 10000));
    return {
      first: at(0),
      ...(result.hasPrev && { prev: at(Math.max(0, page.offset - page.limit)) }),
      ...(result.hasNext && { next: at(page.offset + page.limit) }),
      last: at(lastOffset),
    };
  }
  const first = result.rows[0];
  const last = result.rows[result.rows.length - 1];
  return {
    first: pageLink(c, urls, path, {}),
    ...(result.hasPrev && first && { prev: pageLink(c, urls, path, { 'page[before]': cursorFor(secret, request, first) }) }),
    ...(result.hasNext && last && { next: pageLink(c, urls, path, { 'page[after]': cursorFor(secret, request, last) }) }),
  };
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
  const tables = (type: string) => deps.descriptorOf(type)!;

  const ownPresent = behaviour?.present;
  // Most resources have no presentation hook: their rows render as they are, with no per-row work.
  const render = (c: Context<ApiEnv>, row: Row, fields?: Fieldsets) =>
    renderResource(
      descriptor,
      ownPresent ? ownPresent(row, viewerOf(c)) : row,
      urlBase(c, deps.publicBaseUrl),
      deps.collections,
      fields?.get(descriptor.type),
    );
  /** Each resource's own presentation for this caller (redaction), for included resources. */
  const presentFor = (c: Context<ApiEnv>) => {
    const viewer = viewerOf(c);
    return (type: string, row: Row) => deps.behaviours.get(type)?.present?.(row, viewer) ?? row;
  };
  const recordContext = (c: Context<ApiEnv>, tx: RecordContext['tx']): RecordContext => ({
    tx,
    orgId: c.get('auth').orgId,
    descriptor,
    statements,
    behaviours: deps.behaviours,
    catalog: deps.catalog,
    now: deps.clock(),
    actor: actorOf(c),
    ...(deps.dynamicReferences && { dynamicReferences: deps.dynamicReferences }),
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
  /** Sparse fieldsets apply to write responses too; include does not (SPEC.md rule 1). */
  const writeFields = (c: Context<ApiEnv>) => parseSingleRequest(descriptor, queryParams(c.req.url), deps, false).fields;

  const handlers: ResourceHandlers = {
    async list(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'read');
      const request = parseListRequest(descriptor, queryParams(c.req.url), {
        orgId: auth.orgId,
        cursorSecret: deps.cursorSecret,
        countByDefault: countsByDefault(auth.appRegisteredAt ?? null, deps.clock()),
        descriptorOf: deps.descriptorOf,
      });
      requireScopesOfRelated(auth.scopes, request.include, request.filters);
      const urls = urlBase(c, deps.publicBaseUrl);
      const { result, included } = await orgScopedTransaction(
        deps.sql,
        auth.orgId,
        async (tx) => {
          const result = await runList(tx, descriptor, statements, request, auth.orgId, tables);
          const included = request.include.length
            ? await loadIncluded(tx, auth.orgId, request.include, { type: descriptor.type, rows: result.rows }, { urls, collections: deps.collections, fields: request.fields, present: presentFor(c) })
            : undefined;
          return { result, included };
        },
        reading(c),
      );
      const document = {
        data: result.rows.map((row) => render(c, row, request.fields)),
        ...(included && { included }),
        links: listLinks(c, urls, descriptor.collection, request, result, deps.cursorSecret),
        meta: request.count && result.count ? { count: result.count.value, count_truncated: result.count.truncated } : { count: null },
      };
      return jsonApi(c, 200, document, request.page.kind === 'offset' ? { Deprecation: 'true' } : {});
    },

    async get(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'read');
      const { include, fields } = parseSingleRequest(descriptor, queryParams(c.req.url), deps, true);
      requireScopesOfRelated(auth.scopes, include);
      const id = pathId(c);
      const urls = urlBase(c, deps.publicBaseUrl);
      const found = await orgScopedTransaction(
        deps.sql,
        auth.orgId,
        async (tx) => {
          const row = await findRecord(recordContext(c, tx), id);
          if (!row || include.length === 0) return { row, included: undefined };
          const included = await loadIncluded(tx, auth.orgId, include, { type: descriptor.type, rows: [row] }, { urls, collections: deps.collections, fields, present: presentFor(c) });
          return { row, included };
        },
        reading(c),
      );
      if (!found.row) throw notFound(id);
      return jsonApi(c, 200, { data: render(c, found.row, fields), ...(found.included && { included: found.included }) });
    },

    async create(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'write');
      const fields = writeFields(c);
      const input = readWriteBody(descriptor, parseRequestBody(await c.req.text()), 'create', module.validateCreate!);
      const row = await write(() => orgScopedTransaction(deps.sql, auth.orgId, (tx) => insertRecord(recordContext(c, tx), input)));
      const resource = render(c, row, fields);
      return jsonApi(c, 201, { data: resource }, { Location: resource.links.self });
    },

    async update(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'write');
      const fields = writeFields(c);
      const id = pathId(c);
      const input = readWriteBody(descriptor, parseRequestBody(await c.req.text()), 'update', module.validateUpdate!, id);
      const row = await write(() => orgScopedTransaction(deps.sql, auth.orgId, (tx) => updateRecord(recordContext(c, tx), id, input)));
      if (!row) throw notFound(id);
      return jsonApi(c, 200, { data: render(c, row, fields) });
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
      const row = await write(() => orgScopedTransaction(deps.sql, auth.orgId, (tx) => applyAction(recordContext(c, tx), id, handler, params)));
      if (!row) throw notFound(id);
      return jsonApi(c, 200, { data: render(c, row) });
    },
  };
  // Reads may be served from the token cache (writes never are): a cached token found stale by
  // their transaction gets a fresh lookup and a second run.
  return { ...handlers, list: retryingWhenTokenStale(handlers.list), get: retryingWhenTokenStale(handlers.get) };
}

/** A read's transaction: read-only, and rechecking the token if it came from the cache. */
function reading(c: Context<ApiEnv>): OrgTransactionOptions {
  return { readOnly: true, recheck: c.get('tokenRecheck') };
}
