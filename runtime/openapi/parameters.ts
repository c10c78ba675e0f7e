import type { ActionDescriptor } from '../model/descriptor.js';
import { DEFAULT_PAGE_SIZE, MAX_INCLUDE_DEPTH, MAX_OFFSET, MAX_PAGE_SIZE } from '../query/index.js';
import { parameterName, parameterRef } from './refs.js';
import type { JsonSchema, OutlineLookup, ResourceOutline } from './shapes.js';

/**
 * Query and path parameters. Those of one resource are components named after it and
 * referred to from every operation that takes them (its collection and the related-resource
 * URLs leading to it); `Parameters` collects the ones an operation used, so a document holds
 * exactly the components it refers to.
 */
export type Parameters = Map<string, JsonSchema>;

const TEXT: JsonSchema = { type: 'string' };
const TEXT_LIST: JsonSchema = { type: 'array', items: { type: 'string' } };
const NEW_SYNTAX_ONLY = 'Needs newFilterSyntax=true.';

function query(name: string, schema: JsonSchema, description: string, extra: JsonSchema = {}): JsonSchema {
  return { name, in: 'query', description, schema, ...extra };
}

/** Parameters shared by every collection, and the path id. */
export function sharedParameters(): Record<string, JsonSchema> {
  const pageSize = { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE };
  return {
    Count: query('count', { type: 'boolean' }, 'Whether meta.count counts every match; false is faster.'),
    Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
    NewFilterSyntax: query(
      'newFilterSyntax',
      { type: 'boolean', default: false },
      'With true, filter values are taken literally (commas and .. included): lists as repeated filter[<name>][]=, ranges as filter[<name>][gte]= and filter[<name>][lte]=.',
    ),
    PageAfter: query('page[after]', TEXT, 'The cursor of links.next.'),
    PageBefore: query('page[before]', TEXT, 'The cursor of links.prev.'),
    PageLimit: query('page[limit]', pageSize, 'Page size of offset pagination.', { deprecated: true }),
    PageOffset: query('page[offset]', { type: 'integer', minimum: 0, maximum: MAX_OFFSET }, 'Offset pagination; use the cursors of links instead.', {
      deprecated: true,
    }),
    PageSize: query('page[size]', pageSize, 'Records per page.'),
  };
}

function use(parameters: Parameters, name: string, parameter: JsonSchema): JsonSchema {
  parameters.set(name, parameter);
  return parameterRef(name);
}

/** `filter[x]`, and with newFilterSyntax `filter[x][]`, plus `[gte]` and `[lte]` where a range means something. */
function valueFilters(prefix: string, subject: string, ranges: boolean): [string, JsonSchema][] {
  return [
    [
      prefix,
      query(
        prefix,
        TEXT,
        `Records whose ${subject} is one of these comma-separated values, in a range from..to (neginf and inf for an open end), __null__ or __notnull__.`,
      ),
    ],
    [`${prefix}[]`, query(`${prefix}[]`, TEXT_LIST, `Records whose ${subject} is one of these values, given one per parameter. ${NEW_SYNTAX_ONLY}`)],
    ...(ranges
      ? ([
          [`${prefix}[gte]`, query(`${prefix}[gte]`, TEXT, `Records whose ${subject} is at least this. ${NEW_SYNTAX_ONLY}`)],
          [`${prefix}[lte]`, query(`${prefix}[lte]`, TEXT, `Records whose ${subject} is at most this. ${NEW_SYNTAX_ONLY}`)],
        ] as [string, JsonSchema][])
      : []),
  ];
}

function searchFilter(outline: ResourceOutline): [string, JsonSchema][] {
  const searchable = outline.attributes.filter((a) => a.search).map((a) => a.name);
  if (searchable.length === 0) return [];
  const description = `Search: records where any of ${searchable.join(', ')} starts with the text; text,<attribute> searches one; _text_,<attribute> matches exactly; _NULL_,<attribute> and _NOTNULL_,<attribute> test for a value.`;
  return [['filter[q]', query('filter[q]', TEXT, description)]];
}

/** Every filter parameter of a collection, but `except` (one a related-resource path implies). */
function filters(outline: ResourceOutline, lookup: OutlineLookup, except?: string): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = [...valueFilters('filter[id]', 'id', true)];
  for (const a of outline.attributes) if (a.filterable) found.push(...valueFilters(`filter[${a.name}]`, a.name, a.type !== 'array'));
  for (const r of outline.relationships) {
    if (r.name === except || r.kind === 'polymorphicToOne') continue;
    found.push(...valueFilters(`filter[${r.name}][id]`, `${r.name}'s id`, false));
    if (r.kind !== 'toOne') continue;
    const target = lookup(r.target);
    for (const name of r.filterBy) {
      const ranges = target?.attributes.find((a) => a.name === name)?.type !== 'array';
      const deprecated = valueFilters(`filter[${r.name}][${name}]`, `${r.name}'s ${name}`, ranges).map(
        ([key, p]) => [key, { ...p, deprecated: true }] as [string, JsonSchema],
      );
      found.push(...deprecated);
    }
  }
  return [...found, ...searchFilter(outline)];
}

function sortParameter(outline: ResourceOutline): JsonSchema {
  const keys = ['id', ...outline.attributes.filter((a) => a.sortable).map((a) => a.name)];
  const key = `-?(?:${keys.join('|')})`;
  return query('sort', { type: 'string', pattern: `^${key}(?:,${key})*$` }, `Comma-separated sort keys, - for descending: ${keys.join(', ')}.`);
}

function includeParameter(outline: ResourceOutline): JsonSchema | undefined {
  const toOne = outline.relationships.filter((r) => r.kind !== 'toMany').map((r) => r.name);
  if (toOne.length === 0) return undefined;
  return query('include', TEXT, `Comma-separated to-one relationships whose resources to add as included, up to ${MAX_INCLUDE_DEPTH} levels (a.b): ${toOne.join(', ')}.`);
}

function fieldsParameter(outline: ResourceOutline): JsonSchema {
  const names = [...outline.attributes.map((a) => a.name), ...outline.relationships.map((r) => r.name)];
  return query(`fields[${outline.type}]`, TEXT, `Comma-separated attributes and relationships of ${outline.type} to return (empty for none): ${names.join(', ')}.`);
}

/** The type itself and every type include can reach from it through to-one relationships. */
function includableTypes(outline: ResourceOutline, lookup: OutlineLookup): ResourceOutline[] {
  const seen = new Map([[outline.type, outline]]);
  let level = [outline];
  for (let depth = 0; depth < MAX_INCLUDE_DEPTH; depth++) {
    const next: ResourceOutline[] = [];
    for (const current of level) {
      for (const r of current.relationships) {
        const types = r.kind === 'toOne' ? [r.target] : r.kind === 'polymorphicToOne' ? r.targets : [];
        for (const type of types) {
          const target = seen.has(type) ? undefined : lookup(type);
          if (target) next.push(target);
          if (target) seen.set(target.type, target);
        }
      }
    }
    level = next;
  }
  return [...seen.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

function fieldsParameters(parameters: Parameters, outlines: readonly ResourceOutline[]): JsonSchema[] {
  return outlines.map((o) => use(parameters, parameterName(o.type, 'fields'), fieldsParameter(o)));
}

/** include and fields of a single resource's GET (and of a to-one related-resource URL). */
export function singleReadParameters(parameters: Parameters, outline: ResourceOutline, lookup: OutlineLookup): JsonSchema[] {
  const include = includeParameter(outline);
  return [...(include ? [use(parameters, parameterName(outline.type, 'include'), include)] : []), ...fieldsParameters(parameters, includableTypes(outline, lookup))];
}

/** fields of a create or update response: write responses never include. */
export function writeParameters(parameters: Parameters, outline: ResourceOutline): JsonSchema[] {
  return fieldsParameters(parameters, [outline]);
}

/** Everything a collection GET takes; `implied` is the filter a related-resource path sets itself. */
export function collectionParameters(parameters: Parameters, outline: ResourceOutline, lookup: OutlineLookup, implied?: string): JsonSchema[] {
  return [
    ...filters(outline, lookup, implied).map(([name, p]) => use(parameters, parameterName(outline.type, name), p)),
    use(parameters, parameterName(outline.type, 'sort'), sortParameter(outline)),
    ...singleReadParameters(parameters, outline, lookup),
    ...['PageSize', 'PageAfter', 'PageBefore', 'PageOffset', 'PageLimit', 'Count', 'NewFilterSyntax'].map(parameterRef),
  ];
}

/**
 * An action's `filter` parameter (the bulk actions'): the collection's own filters moved under
 * actionParams, so an object sent as a deep object rather than one text.
 */
const ACTION_FILTER: JsonSchema = {
  description:
    'The records to act on, chosen as the collection GET with newFilterSyntax=true chooses them, its filter[...] parameters written actionParams[filter][...]: actionParams[filter][state][]=open, actionParams[filter][owner][id]=1, actionParams[filter][total][gte]=10. Without it, every record the action can apply to.',
  style: 'deepObject',
  explode: true,
  schema: { type: 'object', additionalProperties: { anyOf: [TEXT, TEXT_LIST, { type: 'object', additionalProperties: { anyOf: [TEXT, TEXT_LIST] } }] } },
};

/** actionParams[<name>] of one action, required as the schema declares, each value as its x-paramSchemas entry describes it. */
export function actionParameters(action: ActionDescriptor): JsonSchema[] {
  const param = (name: string, required: boolean): JsonSchema => {
    if (name === 'filter') return { name: 'actionParams[filter]', in: 'query', required, ...ACTION_FILTER };
    const { description, ...schema } = action.paramSchemas[name] ?? TEXT;
    return { name: `actionParams[${name}]`, in: 'query', required, ...(description !== undefined && { description }), schema };
  };
  return [...action.requiredParams.map((n) => param(n, true)), ...action.optionalParams.map((n) => param(n, false))];
}
