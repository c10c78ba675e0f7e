import type { Definition } from './definition.js';

/**
 * A custom object's entry in GET /api/v2/schema, shaped like the standard resources' entries
 * (which are their schema files) so clients read both alike.
 */
export function customObjectSchema(definition: Definition): Record<string, unknown> {
  const path = `/api/v2/customObjects/${definition.name}`;
  const target = { $ref: `#/definitions/${definition.name}` };
  const definitions: Record<string, unknown> = {};
  for (const f of definition.fields) {
    definitions[f.name] = {
      type: f.type === 'date-time' ? 'string' : f.type,
      ...(f.type === 'date-time' && { format: 'date-time' }),
      filterable: f.filterable,
      sortable: f.sortable,
      ...(f.required && { 'x-required': true }),
      ...(f.name === definition.displayField && { 'x-displayName': true }),
    };
  }
  for (const name of ['createdAt', 'updatedAt']) {
    definitions[name] = { type: 'string', format: 'date-time', readOnly: true, filterable: true, sortable: true };
  }
  for (const r of definition.relationships) {
    definitions[r.name] =
      'slot' in r
        ? { data: true, links: true, $ref: `#/definitions/${r.target}` }
        : { data: false, links: true, readOnly: true, type: 'array', items: { $ref: `#/definitions/${r.target}` }, 'x-inverse': r.inverse };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/hyper-schema#',
    title: definition.name,
    description: definition.displayName,
    type: 'object',
    stability: 'stable',
    'x-customObject': true,
    definitions,
    properties: Object.fromEntries(Object.keys(definitions).map((name) => [name, { $ref: `#/definitions/${definition.name}/definitions/${name}` }])),
    links: [
      { href: `${path}/{:id}`, method: 'GET', rel: 'self', targetSchema: target },
      { href: path, method: 'GET', rel: 'instances', targetSchema: { items: target, type: 'array' } },
      { href: path, method: 'POST', rel: 'create', targetSchema: target },
      { href: `${path}/{:id}`, method: 'PATCH', rel: 'update', targetSchema: target },
      { href: `${path}/{:id}`, method: 'DELETE', rel: 'destroy', targetSchema: target },
    ],
  };
}

/** The served schema with the caller's custom objects added. */
export function withCustomObjects(base: { definitions: Record<string, unknown>; properties: Record<string, unknown> }, definitions: readonly Definition[]) {
  if (definitions.length === 0) return base;
  return {
    ...base,
    definitions: { ...base.definitions, ...Object.fromEntries(definitions.map((d) => [d.name, customObjectSchema(d)])) },
    properties: { ...base.properties, ...Object.fromEntries(definitions.map((d) => [d.name, { $ref: `#/definitions/${d.name}` }])) },
  };
}
