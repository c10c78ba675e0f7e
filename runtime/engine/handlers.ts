import type { Context, Handler } from 'hono';
import { requireScope, retryingWhenTokenStale } from '../auth/index.js';
import { jsonApi, parseRequestBody, resourceNotFound } from '../jsonapi/index.js';
import { parseSingleRequest } from '../query/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import { apiErrorOfWrite } from './database-errors.js';
import type { ResourceModule } from '../model/descriptor.js';
import { listResponder } from './list-response.js';
import { actionParams, queryParams, rejectUnknownParams } from './query-params.js';
import { applyAction, deleteRecord, findRecord, insertRecord, updateRecord, type RecordContext } from './records.js';
import { relatedHandler } from './related.js';
import { actorOf, pathRecordId, resourceRenderer } from './responses.js';
import { singleResponder } from './single-response.js';
import { buildStatements } from './statements.js';
import { readWriteBody } from './write-input.js';

export interface ResourceHandlers {
  readonly list: Handler<ApiEnv>;
  readonly get: Handler<ApiEnv>;
  readonly create: Handler<ApiEnv>;
  readonly update: Handler<ApiEnv>;
  readonly destroy: Handler<ApiEnv>;
  readonly action: Handler<ApiEnv>;
  /** GET /<collection>/<id>/<relationship>: the related resource, or a page of related ones. */
  readonly related: Handler<ApiEnv>;
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

  const render = resourceRenderer(descriptor, deps);
  const respondWithList = listResponder(descriptor, statements, deps);
  const respondWithOne = singleResponder(descriptor, deps);
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
    ...(deps.dynamicRecords && { dynamicRecords: deps.dynamicRecords }),
  });
  const notFound = (id: number | string) => resourceNotFound(`No ${descriptor.type} with id ${id} exists`);
  const pathId = (c: Context<ApiEnv>) => pathRecordId(c, descriptor.type);
  const write = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw apiErrorOfWrite(descriptor, error) ?? error;
    }
  };
  /** Sparse fieldsets apply to write responses too; include does not (SPEC.md rule 1). */
  const writeFields = (c: Context<ApiEnv>) => parseSingleRequest(descriptor, queryParams(c.req.url), deps, false).fields;

  const handlers: Omit<ResourceHandlers, 'related'> = {
    list(c) {
      return respondWithList(c, queryParams(c.req.url), descriptor.collection);
    },

    async get(c) {
      // The id is read inside the transaction, after the query parameters, as their errors come first.
      const response = await respondWithOne(c, (tx) => findRecord(recordContext(c, tx), pathId(c)));
      if (!response) throw notFound(pathId(c));
      return response;
    },

    async create(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'write');
      const fields = writeFields(c);
      const input = readWriteBody(descriptor, parseRequestBody(await c.req.text()), 'create', module.validateCreate!);
      const row = await write(() => orgScopedTransaction(deps.sql, auth.orgId, (tx) => insertRecord(recordContext(c, tx), input)));
      const resource = render(c, row, fields, { creating: true });
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
  return {
    ...handlers,
    list: retryingWhenTokenStale(handlers.list),
    get: retryingWhenTokenStale(handlers.get),
    related: relatedHandler(descriptor, statements, deps),
  };
}
