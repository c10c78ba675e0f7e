import type { Context, Handler } from 'hono';
import { requireScope, retryingWhenTokenStale } from '../auth/index.js';
import { invalidQueryParameter, resourceNotFound } from '../jsonapi/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import type { ResourceDescriptor, ToManyDescriptor, ToOneDescriptor } from '../model/descriptor.js';
import { listResponder, reading } from './list-response.js';
import { queryParams } from './query-params.js';
import type { Row } from './render.js';
import { pathRecordId } from './responses.js';
import { singleResponder } from './single-response.js';
import { relationshipAlias } from '../model/sql-text.js';
import type { ResourceStatements } from './statements.js';

async function findRow(tx: Transaction, statements: ResourceStatements, orgId: number, id: number): Promise<Row | undefined> {
  const [row] = await tx.unsafe<Row[]>(statements.getOne, [orgId, id], { prepare: true });
  return row;
}

/**
 * GET /<collection>/<id>/<relationship>, the related-resource URL generic JSON:API clients
 * follow: for a to-one relationship the related resource (or null), for a to-many one a page of
 * the target collection filtered by the inverse relationship, taking the collection's query
 * parameters. Reading it needs the read scopes of both resources.
 */
export function relatedHandler(descriptor: ResourceDescriptor, statements: ResourceStatements, deps: EngineDependencies): Handler<ApiEnv> {
  const notFound = (id: number) => resourceNotFound(`No ${descriptor.type} with id ${id} exists`);
  const pathId = (c: Context<ApiEnv>) => pathRecordId(c, descriptor.type);
  const lists = new Map<string, ReturnType<typeof listResponder>>();
  const singles = new Map<string, ReturnType<typeof singleResponder>>();

  async function toOne(c: Context<ApiEnv>, relationship: ToOneDescriptor): Promise<Response> {
    const target = deps.catalog.entry(relationship.target);
    let respond = singles.get(relationship.target);
    if (!respond) {
      respond = singleResponder(target.descriptor, deps);
      singles.set(relationship.target, respond);
    }
    const { orgId } = c.get('auth');
    const response = await respond(c, async (tx) => {
      const parent = await findRow(tx, statements, orgId, pathId(c));
      if (!parent) return undefined;
      const targetId = parent[relationshipAlias(relationship)] as number | null;
      return targetId == null ? null : ((await findRow(tx, target.statements, orgId, targetId)) ?? null);
    });
    if (!response) throw notFound(pathId(c));
    return response;
  }

  async function toMany(c: Context<ApiEnv>, relationship: ToManyDescriptor): Promise<Response> {
    const auth = c.get('auth');
    const id = pathId(c);
    const params = queryParams(c.req.url);
    const implied = `filter[${relationship.inverse}][id]`;
    if (params.has(implied)) throw invalidQueryParameter(implied, `${implied} is implied by the path ${descriptor.collection}/${id}/${relationship.name}`);
    const exists = await orgScopedTransaction(deps.sql, auth.orgId, async (tx) => (await findRow(tx, statements, auth.orgId, id)) !== undefined, reading(c));
    if (!exists) throw notFound(id);
    params.set(implied, [String(id)]);
    let respond = lists.get(relationship.target);
    if (!respond) {
      const target = deps.catalog.entry(relationship.target);
      respond = listResponder(target.descriptor, target.statements, deps);
      lists.set(relationship.target, respond);
    }
    return respond(c, params, `${descriptor.collection}/${id}/${relationship.name}`);
  }

  return retryingWhenTokenStale(async function related(c) {
    const auth = c.get('auth');
    requireScope(auth.scopes, descriptor.scope, 'read');
    const name = c.req.param('relationship') ?? '';
    const relationship = descriptor.relationships.find((r) => r.name === name);
    if (!relationship) throw resourceNotFound(`${descriptor.type} has no relationship ${name}`);
    return relationship.kind === 'toOne' ? toOne(c, relationship) : toMany(c, relationship);
  });
}
