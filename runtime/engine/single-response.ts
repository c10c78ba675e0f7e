import type { Context } from 'hono';
import { requireScope } from '../auth/index.js';
import { jsonApi } from '../jsonapi/index.js';
import { parseSingleRequest } from '../query/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import { loadIncluded } from './include.js';
import { reading } from './list-response.js';
import { queryParams } from './query-params.js';
import { requireScopesOfRelated } from './related-scopes.js';
import type { Row } from './render.js';
import { presenterFor, resourceRenderer, urlBase } from './responses.js';

/**
 * Answers one resource of `descriptor` with the request's `include` and `fields`: a GET of the
 * resource itself, or of a to-one relationship. `find` runs in the read's transaction and
 * returns the row, null for an empty relationship (`data: null`), or undefined when the record
 * the path names does not exist: then nothing is answered, and the caller says what is missing.
 */
export function singleResponder(descriptor: ResourceDescriptor, deps: EngineDependencies) {
  const render = resourceRenderer(descriptor, deps);
  return async function respondWithOne(c: Context<ApiEnv>, find: (tx: Transaction) => Promise<Row | null | undefined>): Promise<Response | undefined> {
    const auth = c.get('auth');
    requireScope(auth.scopes, descriptor.scope, 'read');
    const { include, fields } = parseSingleRequest(descriptor, queryParams(c.req.url), deps, true);
    requireScopesOfRelated(auth.scopes, include);
    const urls = urlBase(c, deps.publicBaseUrl);
    const found = await orgScopedTransaction(
      deps.sql,
      auth.orgId,
      async (tx) => {
        const row = await find(tx);
        if (!row || include.length === 0) return { row, included: undefined };
        const included = await loadIncluded(
          tx,
          auth.orgId,
          include,
          { type: descriptor.type, rows: [row] },
          { urls, collections: deps.collections, fields, present: presenterFor(c, deps) },
        );
        return { row, included };
      },
      reading(c),
    );
    if (found.row === undefined) return undefined;
    return jsonApi(c, 200, { data: found.row ? render(c, found.row, fields) : null, ...(found.included && { included: found.included }) });
  };
}
