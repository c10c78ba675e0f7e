import type { Behaviours } from './behaviour.js';

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
