import type { Context, Handler } from 'hono';
import { requireScope, retryingWhenTokenStale } from '../auth/index.js';
import { invalidQueryParameter, resourceNotFound } from '../jsonapi/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import type { PolymorphicToOneDescriptor, ResourceDescriptor, ToManyDescriptor, ToOneDescriptor } from '../model/descriptor.js';
import { listResponder, reading } from './list-response.js';
import { queryParams } from './query-params.js';
import type { Row } from './render.js';
import { pathRecordId } from './responses.js';
import { singleResponder } from './single-response.js';
import { polymorphicTarget, relationshipAlias } from '../model/sql-text.js';
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

  const singleOf = (type: string) => {
    let respond = singles.get(type);
    if (!respond) {
      respond = singleResponder(deps.catalog.entry(type).descriptor, deps);
      singles.set(type, respond);
    }
    return respond;
  };

  async function toOne(c: Context<ApiEnv>, relationship: ToOneDescriptor): Promise<Response> {
    const target = deps.catalog.entry(relationship.target);
    const { orgId } = c.get('auth');
    const response = await singleOf(relationship.target)(c, async (tx) => {
      const parent = await findRow(tx, statements, orgId, pathId(c));
      if (!parent) return undefined;
      const targetId = parent[relationshipAlias(relationship)] as number | null;
      return targetId == null ? null : ((await findRow(tx, target.statements, orgId, targetId)) ?? null);
    });
    if (!response) throw notFound(pathId(c));
    return response;
  }

  /**
   * The record a polymorphic to-one names: its type is known only once the parent is read, so
   * the parent is read first, then the target in the responder of its type (which asks for that
   * type's read scope). With nothing named, the first target's responder renders data null.
   */
  async function polymorphicToOne(c: Context<ApiEnv>, relationship: PolymorphicToOneDescriptor): Promise<Response> {
    const auth = c.get('auth');
    const parent = await orgScopedTransaction(deps.sql, auth.orgId, (tx) => findRow(tx, statements, auth.orgId, pathId(c)), reading(c));
    if (!parent) throw notFound(pathId(c));
    const named = polymorphicTarget(relationship, parent);
    const type = named?.type ?? relationship.targets[0]!;
    const target = deps.catalog.entry(type);
    const response = await singleOf(type)(c, async (tx) => (named ? ((await findRow(tx, target.statements, auth.orgId, named.id)) ?? null) : null));
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
    if (relationship.kind === 'polymorphicToOne') return polymorphicToOne(c, relationship);
    return relationship.kind === 'toOne' ? toOne(c, relationship) : toMany(c, relationship);
  });
}
