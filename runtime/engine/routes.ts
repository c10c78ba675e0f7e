import type { Context, Handler, Hono } from 'hono';
import { methodNotAllowed, resourceNotFound } from '../jsonapi/index.js';
import type { OperationsDescriptor, ResourceDescriptor, ResourceModule } from '../model/descriptor.js';
import type { ApiEnv } from './context.js';
import type { ResourceHandlers } from './handlers.js';
import type { ResourceEngine } from './index.js';

/**
 * The one rule that turns a resource's operations, actions and relationships into routes. The
 * router mounts standard resources and custom objects with it, 405 answers take their Allow
 * lists from it, and the OpenAPI document has an operation for each route it yields, so what
 * is served and what is described cannot drift apart.
 */

/** What decides a resource's routes. */
export interface RouteShape {
  readonly operations: OperationsDescriptor;
  /** Whether it has actions: POST <member>/actions/:action. */
  readonly actions: boolean;
  /** Whether it has collection actions: POST <collection>/actions/:action. */
  readonly collectionActions: boolean;
  /** Whether it has relationships, whose related-resource URLs it serves when it can be read. */
  readonly relationships: boolean;
}

export type RouteMethod = 'get' | 'post' | 'patch' | 'delete';

export interface ResourceRoute {
  readonly method: RouteMethod;
  /** A Hono path under /api/v2. */
  readonly path: string;
  readonly handler: keyof ResourceHandlers;
}

export function routeShapeOf(resource: Pick<ResourceDescriptor, 'operations' | 'actions' | 'collectionActions' | 'relationships'>): RouteShape {
  return {
    operations: resource.operations,
    actions: resource.actions.length > 0,
    collectionActions: resource.collectionActions.length > 0,
    relationships: resource.relationships.length > 0,
  };
}

/** The path of the collection actions under `base`. */
export function collectionActionRoutePath(base: string): string {
  return `${base}/actions/:action`;
}

/** The member URL under `base`: ids are digits, so `/prospects/export` is never a member. */
export function memberRoutePath(base: string): string {
  return `${base}/:id{[0-9]+}`;
}

/**
 * The routes of a resource whose collection is at `base` (`/prospects`, `/customObjects/:name`),
 * in registration order: Hono matches in order.
 */
export function resourceRoutes(shape: RouteShape, base: string): ResourceRoute[] {
  const member = memberRoutePath(base);
  const { operations } = shape;
  const routes: ResourceRoute[] = [];
  if (operations.list) routes.push({ method: 'get', path: base, handler: 'list' });
  if (operations.create) routes.push({ method: 'post', path: base, handler: 'create' });
  if (shape.collectionActions) routes.push({ method: 'post', path: collectionActionRoutePath(base), handler: 'collectionAction' });
  if (operations.get) routes.push({ method: 'get', path: member, handler: 'get' });
  if (operations.update) routes.push({ method: 'patch', path: member, handler: 'update' });
  if (operations.delete) routes.push({ method: 'delete', path: member, handler: 'destroy' });
  if (shape.actions) routes.push({ method: 'post', path: `${member}/actions/:action`, handler: 'action' });
  // Related-resource URLs (`/accounts/1/prospects`), which generic JSON:API clients follow.
  if (operations.get && shape.relationships) routes.push({ method: 'get', path: `${member}/:relationship{[A-Za-z][A-Za-z0-9]*}`, handler: 'related' });
  return routes;
}

/** The routes of a standard resource, at its collection. */
export function descriptorRoutes(descriptor: ResourceDescriptor): ResourceRoute[] {
  return resourceRoutes(routeShapeOf(descriptor), `/${descriptor.collection}`);
}

/** Registers `routes` on `api`, each answered by the handler `handlerOf` gives for its name. */
export function mountRoutes(api: Hono<ApiEnv>, routes: readonly ResourceRoute[], handlerOf: (name: ResourceRoute['handler']) => Handler<ApiEnv>): void {
  for (const route of routes) api[route.method](route.path, handlerOf(route.handler));
}

/** Mounts each module's routes, bound to the engine, in the modules' order. */
export function mountResources(api: Hono<ApiEnv>, engine: ResourceEngine, modules: Iterable<ResourceModule>): void {
  for (const module of modules) {
    const handlers = engine.bind(module);
    mountRoutes(api, descriptorRoutes(module.descriptor), (name) => handlers[name]);
  }
}

/** The methods each route path answers (`GET`, `POST`), for 405 answers with Allow. */
export function allowedMethods(descriptors: Iterable<ResourceDescriptor>): ReadonlyMap<string, readonly string[]> {
  const allowed = new Map<string, string[]>();
  for (const descriptor of descriptors) {
    for (const route of descriptorRoutes(descriptor)) {
      const methods = allowed.get(route.path) ?? [];
      methods.push(route.method.toUpperCase());
      allowed.set(route.path, methods);
    }
  }
  return allowed;
}

/**
 * Mounted after every resource: a request to a collection, member or declared collection
 * action URL with a method it does not answer is a 405 naming the methods it does; one to no
 * resource's URL (an undeclared action's included) is a 404.
 */
export function mountUnsupportedMethods(api: Hono<ApiEnv>, descriptors: Iterable<ResourceDescriptor>): void {
  const all = [...descriptors];
  const allowed = allowedMethods(all);
  const collectionActions = new Set(all.flatMap((d) => d.collectionActions.map((a) => `/${d.collection}/actions/${a.name}`)));
  function refuse(c: Context<ApiEnv>, path: string | undefined): never {
    const methods = path === undefined ? undefined : allowed.get(path);
    if (!methods) throw resourceNotFound(`No route matches ${c.req.method} ${c.req.path}`);
    throw methodNotAllowed(c.req.method, c.req.path, methods);
  }
  api.all(memberRoutePath('/:collection'), (c) => refuse(c, memberRoutePath(`/${c.req.param('collection')}`)));
  api.all(collectionActionRoutePath('/:collection'), (c) => {
    const base = `/${c.req.param('collection')}`;
    return refuse(c, collectionActions.has(`${base}/actions/${c.req.param('action')}`) ? collectionActionRoutePath(base) : undefined);
  });
  api.all('/:collection', (c) => refuse(c, `/${c.req.param('collection')}`));
}
