import type { JsonSchema } from './shapes.js';

/**
 * Component names. A resource's own components are `<type>` and `<type>.<role>`; shared ones
 * start with a capital letter. Types (standard and custom) are camelCase identifiers starting
 * with a lowercase letter, so no custom object can take a name the document already uses.
 */
export const schemaNames = {
  resource: (type: string) => type,
  document: (type: string) => `${type}.document`,
  collection: (type: string) => `${type}.collection`,
  create: (type: string) => `${type}.create`,
  update: (type: string) => `${type}.update`,
};

export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export function parameterRef(name: string): JsonSchema {
  return { $ref: `#/components/parameters/${name}` };
}

export function responseRef(name: string): JsonSchema {
  return { $ref: `#/components/responses/${name}` };
}

/**
 * A query parameter's component name under its resource: `filter[owner][id][]` of prospect is
 * `prospect.filter.owner.id-list`. Brackets are not allowed in component names.
 */
export function parameterName(type: string, parameter: string): string {
  return `${type}.${parameter.replace(/\[\]/g, '-list').replace(/\[/g, '.').replace(/\]/g, '')}`;
}

/** Object keys in code-point order: the document's maps are emitted sorted, whatever built them. */
export function sortedByKey<T>(entries: Readonly<Record<string, T>>): Record<string, T> {
  const keys = Object.keys(entries).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, entries[key]!]));
}
