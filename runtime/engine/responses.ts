import type { Context } from 'hono';
import { parseId, resourceNotFound } from '../jsonapi/index.js';
import type { Fieldsets } from '../query/index.js';
import type { Actor, Viewer } from './behaviour.js';
import type { ApiEnv, EngineDependencies } from './context.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import { renderResource, type ResourceObject, type Row, type UrlBase } from './render.js';

/** Who is asking, as resource behaviours see it (for redaction). */
export function viewerOf(c: Context<ApiEnv>, now: Date, creating = false): Viewer {
  const auth = c.get('auth');
  return { admin: auth.admin, userId: auth.userId, appId: auth.appId ?? null, now, ...(creating && { creating }) };
}

/** Who is writing, as recorded on events and records. */
export function actorOf(c: Context<ApiEnv>): Actor {
  const auth = c.get('auth');
  return { userId: auth.userId, appId: auth.appId ?? null, appName: auth.appName ?? null };
}

export function urlBase(c: Context<ApiEnv>, configured: string | undefined): UrlBase {
  return { api: `${configured ?? new URL(c.req.url).origin}/api/v2` };
}

/** Each resource's own presentation for this caller (redaction), by type: for included resources. */
export function presenterFor(c: Context<ApiEnv>, deps: EngineDependencies): (type: string, row: Row) => Row {
  const viewer = viewerOf(c, deps.clock());
  return (type, row) => deps.behaviours.get(type)?.present?.(row, viewer) ?? row;
}

/**
 * Renders rows of one resource for one caller. Most resources have no presentation hook: their
 * rows render as they are, with no per-row work.
 */
export function resourceRenderer(descriptor: ResourceDescriptor, deps: EngineDependencies) {
  const present = deps.behaviours.get(descriptor.type)?.present;
  return (c: Context<ApiEnv>, row: Row, fields?: Fieldsets, options: { creating?: boolean } = {}): ResourceObject =>
    renderResource(
      descriptor,
      present ? present(row, viewerOf(c, deps.clock(), options.creating)) : row,
      urlBase(c, deps.publicBaseUrl),
      deps.collections,
      fields?.get(descriptor.type),
    );
}

/** The record id in the path; one that can name no record (say, past 2^53) is simply not found. */
export function pathRecordId(c: Context<ApiEnv>, type: string): number {
  const text = c.req.param('id') ?? '';
  const id = parseId(text);
  if (id === undefined) throw resourceNotFound(`No ${type} with id ${text} exists`);
  return id;
}
