import type { Context } from 'hono';
import { requireScope } from '../auth/index.js';
import { jsonApi } from '../jsonapi/index.js';
import { countsByDefault, parseListRequest, type ListRequest } from '../query/index.js';
import { orgScopedTransaction, type OrgTransactionOptions } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import { loadIncluded } from './include.js';
import { cursorFor, runList, type ListResult } from './list.js';
import { requireScopesOfRelated } from './related-scopes.js';
import type { UrlBase } from './render.js';
import { presenterFor, resourceRenderer, urlBase } from './responses.js';
import type { ResourceStatements } from './statements.js';

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

/** A read's transaction: read-only, and rechecking the token if it came from the cache. */
export function reading(c: Context<ApiEnv>): OrgTransactionOptions {
  return { readOnly: true, recheck: c.get('tokenRecheck') };
}

/**
 * Answers a page of `descriptor`'s collection for the query `params`, with links on `path`: the
 * collection itself, or a related-resource URL such as `accounts/1/prospects` (whose implied
 * filter is in `params` but not in the links, which keep the client's own query).
 */
export function listResponder(descriptor: ResourceDescriptor, statements: ResourceStatements, deps: EngineDependencies) {
  const render = resourceRenderer(descriptor, deps);
  const tables = (type: string) => deps.descriptorOf(type)!;
  return async function respondWithList(c: Context<ApiEnv>, params: Map<string, string[]>, path: string): Promise<Response> {
    const auth = c.get('auth');
    requireScope(auth.scopes, descriptor.scope, 'read');
    const request = parseListRequest(descriptor, params, {
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
        const result = await runList(tx, descriptor, statements, request, auth.orgId, tables, deps.countTimeBudgetMs);
        const included = request.include.length
          ? await loadIncluded(
              tx,
              auth.orgId,
              request.include,
              { type: descriptor.type, rows: result.rows },
              { urls, collections: deps.collections, fields: request.fields, present: presenterFor(c, deps) },
            )
          : undefined;
        return { result, included };
      },
      reading(c),
    );
    const document = {
      data: result.rows.map((row) => render(c, row, request.fields)),
      ...(included && { included }),
      links: listLinks(c, urls, path, request, result, deps.cursorSecret),
      meta: request.count && result.count ? { count: result.count.value, count_truncated: result.count.truncated } : { count: null },
    };
    return jsonApi(c, 200, document, request.page.kind === 'offset' ? { Deprecation: 'true' } : {});
  };
}
