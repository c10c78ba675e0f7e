import type { Context, Hono } from 'hono';
import type postgres from 'postgres';
import { confirmedAuth, requireScope } from '../auth/index.js';
import type { ApiEnv } from '../engine/index.js';
import { conflict, forbidden, jsonApi, isPathId, parseId, parseRequestBody, resourceNotFound, badRequest } from '../jsonapi/index.js';
import { createDefinition, deleteDefinition, listDefinitions, updateDefinition, type StoredDefinition } from './definitions.js';
import { CUSTOM_OBJECT_SCOPE } from './descriptor.js';

const TYPE = 'customObjectDefinition';
const PATH = 'customObjectDefinitions';

function render(c: Context<ApiEnv>, publicBaseUrl: string | undefined, d: StoredDefinition) {
  const api = `${publicBaseUrl ?? new URL(c.req.url).origin}/api/v2`;
  return {
    type: TYPE,
    id: d.id,
    attributes: {
      name: d.name,
      displayName: d.displayName,
      displayField: d.displayField,
      fields: d.fields.map(({ name, type, required, filterable, sortable }) => ({ name, type, required, filterable, sortable })),
      relationships: d.relationships.map((r) =>
        'slot' in r ? { name: r.name, target: r.target, cardinality: 'toOne' } : { name: r.name, target: r.target, cardinality: 'toMany', inverse: r.inverse },
      ),
      createdAt: d.createdAt,
      updatedAt: d.updatedAt,
    },
    relationships: {},
    links: { self: `${api}/${PATH}/${d.id}` },
  };
}

/**
 * Definitions change what every user of the org sees: admins only. The admin flag is acted on
 * before any transaction, so a token from the cache is confirmed first.
 */
async function requireAdmin(c: Context<ApiEnv>, access: 'read' | 'write' | 'delete'): Promise<number> {
  const auth = await confirmedAuth(c);
  if (!auth.admin) throw forbidden('adminOnly', 'Only an administrator of the organisation can manage custom object definitions');
  requireScope(auth.scopes, CUSTOM_OBJECT_SCOPE, access);
  return auth.orgId;
}

function attributesOf(body: Record<string, unknown>, update: boolean, pathId?: number): Record<string, unknown> {
  const data = body.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw badRequest('invalidBody', 'The body must have a "data" object', { pointer: '/data' });
  if (data.type !== TYPE) throw conflict(`data.type must be "${TYPE}"`, { pointer: '/data/type' });
  if (!update && data.id !== undefined) throw forbidden('clientGeneratedId', 'Ids are assigned by the service', { pointer: '/data/id' });
  if (update && data.id !== undefined && !isPathId(data.id, pathId)) throw conflict('data.id does not match the path', { pointer: '/data/id' });
  const attributes = data.attributes ?? {};
  if (typeof attributes !== 'object' || Array.isArray(attributes)) throw badRequest('invalidBody', 'data.attributes must be an object', { pointer: '/data/attributes' });
  return attributes as Record<string, unknown>;
}

/**
 * The admin-only `customObjectDefinition` resource: how an organisation defines, evolves and
 * removes its custom objects over the API (the CLI's `custom-object define` uses the same service).
 */
export function mountDefinitionRoutes(api: Hono<ApiEnv>, options: { sql: postgres.Sql; standardTypes: ReadonlySet<string>; publicBaseUrl: string | undefined }): void {
  const { sql, standardTypes, publicBaseUrl } = options;
  const notFound = (text: number | string) => resourceNotFound(`No custom object definition with id ${text} exists`);
  /** The definition id in the path; one that can name no definition is simply not found. */
  const id = (c: Context<ApiEnv>): number => {
    const text = c.req.param('id') ?? '';
    const parsed = parseId(text);
    if (parsed === undefined) throw notFound(text);
    return parsed;
  };

  api.get(`/${PATH}`, async (c) => {
    const orgId = await requireAdmin(c, 'read');
    const definitions = await listDefinitions(sql, orgId);
    return jsonApi(c, 200, {
      data: definitions.map((d) => render(c, publicBaseUrl, d)),
      links: { first: `${publicBaseUrl ?? new URL(c.req.url).origin}/api/v2/${PATH}` },
    });
  });
  api.get(`/${PATH}/:id{[0-9]+}`, async (c) => {
    const orgId = await requireAdmin(c, 'read');
    const wanted = id(c);
    const found = (await listDefinitions(sql, orgId)).find((d) => d.id === wanted);
    if (!found) throw notFound(wanted);
    return jsonApi(c, 200, { data: render(c, publicBaseUrl, found) });
  });
  api.post(`/${PATH}`, async (c) => {
    const orgId = await requireAdmin(c, 'write');
    const attributes = attributesOf(parseRequestBody(await c.req.text()), false);
    const created = await createDefinition(sql, orgId, attributes, standardTypes);
    const resource = render(c, publicBaseUrl, created);
    return jsonApi(c, 201, { data: resource }, { Location: resource.links.self });
  });
  api.patch(`/${PATH}/:id{[0-9]+}`, async (c) => {
    const orgId = await requireAdmin(c, 'write');
    const wanted = id(c);
    const attributes = attributesOf(parseRequestBody(await c.req.text()), true, wanted);
    const updated = await updateDefinition(sql, orgId, wanted, attributes, standardTypes);
    if (!updated) throw notFound(wanted);
    return jsonApi(c, 200, { data: render(c, publicBaseUrl, updated) });
  });
  api.delete(`/${PATH}/:id{[0-9]+}`, async (c) => {
    const orgId = await requireAdmin(c, 'delete');
    const wanted = id(c);
    if (!(await deleteDefinition(sql, orgId, wanted))) throw notFound(wanted);
    return c.body(null, 204);
  });
}
