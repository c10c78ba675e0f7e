import type { Context, Handler } from 'hono';
import { requireScope, retryingWhenTokenStale } from '../auth/index.js';
import { ApiError, jsonApi, parseRequestBody, resourceNotFound } from '../jsonapi/index.js';
import { parseSingleRequest } from '../query/index.js';
import { orgScopedTransaction, retryingOnConflict } from '../tenancy/index.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import { apiErrorOfWrite } from './database-errors.js';
import type { ResourceModule } from '../model/descriptor.js';
import type { Row } from './render.js';
import type { WriteOperation } from './write-operations.js';
import { listResponder } from './list-response.js';
import { actionParams, queryParams, rejectUnknownParams } from './query-params.js';
import { actionOperation } from './record-writer/index.js';
import { findRecord } from './records.js';
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
  /** POST /<collection>/actions/<name>: only reached for a name the schema does not declare. */
  readonly collectionAction: Handler<ApiEnv>;
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
  const behaviour = deps.behaviours.get(descriptor.type);

  const render = resourceRenderer(descriptor, deps);
  const respondWithList = listResponder(descriptor, statements, deps);
  const respondWithOne = singleResponder(descriptor, deps);
  /**
   * Writes one record through the record writer (a set of one) in an org-scoped transaction:
   * the row written, undefined when the record does not exist, or the write's refusal thrown.
   */
  const writeOne = async (c: Context<ApiEnv>, operation: WriteOperation): Promise<Row | undefined> => {
    const { orgId } = c.get('auth');
    try {
      // A write whose consequences reach other records can deadlock with another such write;
      // PostgreSQL then aborts one, which did nothing and is run again (tenancy/retry.ts).
      const [outcome] = await retryingOnConflict(() =>
        orgScopedTransaction(deps.sql, orgId, (tx) => deps.writer.write({ tx, orgId, actor: actorOf(c), catalog: deps.catalog }, [operation])),
      );
      if (outcome!.status === 'refused') throw outcome!.error;
      return outcome!.status === 'written' ? outcome!.row : undefined;
    } catch (error) {
      throw apiErrorOfWrite(descriptor, error) ?? error;
    }
  };
  const notFound = (id: number | string) => resourceNotFound(`No ${descriptor.type} with id ${id} exists`);
  const pathId = (c: Context<ApiEnv>) => pathRecordId(c, descriptor.type);
  /** Sparse fieldsets apply to write responses too; include does not (SPEC.md rule 1). */
  const writeFields = (c: Context<ApiEnv>) => parseSingleRequest(descriptor, queryParams(c.req.url), deps, false).fields;

  const handlers: Omit<ResourceHandlers, 'related'> = {
    list(c) {
      return respondWithList(c, queryParams(c.req.url), descriptor.collection);
    },

    async get(c) {
      // The id is read inside the transaction, after the query parameters, as their errors come first.
      const response = await respondWithOne(c, (tx) => findRecord(tx, c.get('auth').orgId, statements, pathId(c)));
      if (!response) throw notFound(pathId(c));
      return response;
    },

    async create(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'write');
      const fields = writeFields(c);
      const input = readWriteBody(descriptor, parseRequestBody(await c.req.text()), 'create', module.validateCreate!);
      const row = (await writeOne(c, { kind: 'create', type: descriptor.type, changes: input }))!;
      const resource = render(c, row, fields, { creating: true });
      return jsonApi(c, 201, { data: resource }, { Location: resource.links.self });
    },

    async update(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'write');
      const fields = writeFields(c);
      const id = pathId(c);
      const input = readWriteBody(descriptor, parseRequestBody(await c.req.text()), 'update', module.validateUpdate!, id);
      const row = await writeOne(c, { kind: 'update', type: descriptor.type, id, changes: input });
      if (!row) throw notFound(id);
      return jsonApi(c, 200, { data: render(c, row, fields) });
    },

    async destroy(c) {
      const auth = c.get('auth');
      requireScope(auth.scopes, descriptor.scope, 'delete');
      rejectUnknownParams(queryParams(c.req.url), () => false, 'on delete');
      const id = pathId(c);
      const row = await writeOne(c, { kind: 'delete', type: descriptor.type, id });
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
      const row = await writeOne(c, actionOperation(deps.behaviours, descriptor, id, name, params)).catch((error: unknown) => {
        throw atActionParameters(error, params);
      });
      if (!row) throw notFound(id);
      return jsonApi(c, 200, { data: render(c, row) });
    },

    collectionAction(c) {
      const name = c.req.param('action') ?? '';
      if (!descriptor.collectionActions.some((a) => a.name === name)) throw resourceNotFound(`${descriptor.type} has no action ${name}`);
      // Collection actions are served by their own module (runtime/bulk), mounted ahead of the
      // resources' routes; a declared one arriving here was left unmounted: a programming error.
      throw new Error(`No module serves the ${descriptor.type} collection action ${name}`);
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

/**
 * An action's write refused at a relationship that one of its parameters set, by the convention
 * `<relationship>Id` (reassignOwner's ownerId naming no user of the org): the error names that
 * parameter, since the request had no body for a pointer to point into.
 */
function atActionParameters(error: unknown, params: ReadonlyMap<string, string>): unknown {
  if (!(error instanceof ApiError)) return error;
  let moved = false;
  const errors = error.errors.map((e) => {
    const relationship = /^\/data\/relationships\/([A-Za-z0-9]+)$/.exec(e.source?.pointer ?? '')?.[1];
    if (relationship === undefined || !params.has(`${relationship}Id`)) return e;
    moved = true;
    const parameter = `actionParams[${relationship}Id]`;
    const detail = e.detail.startsWith(`${relationship} `) ? `${parameter}${e.detail.slice(relationship.length)}` : e.detail;
    return { ...e, detail, source: { parameter } };
  });
  return moved ? new ApiError(error.status, errors, error.headers) : error;
}
