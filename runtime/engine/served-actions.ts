import { actionPath } from '../openapi/index.js';
import type { Behaviours } from './behaviour.js';
import type { ResourceDescriptor } from '../model/descriptor.js';

interface SchemaLink {
  readonly href: string;
  readonly rel: string;
}

interface ServedSchema {
  readonly definitions: Readonly<Record<string, { readonly links?: readonly SchemaLink[] }>>;
}

const ACTION_HREF = /\/actions\/[^/]+$/;

/**
 * The served schema without the action links that no behaviour handles yet. A schema file may
 * declare an action ahead of its code (the contract names it); clients read the served schema
 * to learn what they can call, so it advertises only what answers.
 */
export function withHandledActionsOnly<S extends ServedSchema>(schema: S, behaviours: Behaviours): S {
  const definitions: Record<string, unknown> = {};
  for (const [type, definition] of Object.entries(schema.definitions)) {
    const handled = behaviours.get(type)?.actions ?? {};
    const links = definition.links?.filter((link) => !ACTION_HREF.test(link.href) || Object.hasOwn(handled, link.rel));
    definitions[type] = links ? { ...definition, links } : definition;
  }
  return { ...schema, definitions };
}

/**
 * The OpenAPI document without the paths of actions that no behaviour handles, for the same
 * reason: `descriptors` say which actions each resource's schema declares.
 */
export function withHandledActionPathsOnly<D extends { readonly paths: Readonly<Record<string, unknown>> }>(
  document: D,
  descriptors: Iterable<ResourceDescriptor>,
  behaviours: Behaviours,
): D {
  const unhandled = new Set<string>();
  for (const d of descriptors) {
    const handled = behaviours.get(d.type)?.actions ?? {};
    for (const action of d.actions) if (!Object.hasOwn(handled, action.name)) unhandled.add(actionPath(d.collection, action.name));
  }
  return { ...document, paths: Object.fromEntries(Object.entries(document.paths).filter(([path]) => !unhandled.has(path))) };
}
