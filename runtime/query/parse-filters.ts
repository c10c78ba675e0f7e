import { invalidQueryParameter, type ApiError } from '../jsonapi/index.js';
import type { AttributeDescriptor, ResourceDescriptor } from '../model/descriptor.js';
import { idAttribute, parseClassicValue, parseNewSyntaxValue, type FilterCondition, type SearchCondition, type ValueCondition } from './filters.js';

/** filter[name], filter[name][], filter[name][key], filter[name][key][] */
const FILTER_PARAM = /^filter\[([A-Za-z0-9_]+)\](?:\[([A-Za-z0-9_]*)\])?(\[\])?$/;

interface RawFilter {
  /** Parameter names as the client sent them, for error sources. */
  parameters: string[];
  values?: string[];
  gte?: string;
  lte?: string;
  classic?: string;
}

/** Groups filter parameters by target: `attr` or `rel.attr`. */
function groupFilters(params: Map<string, string[]>, newSyntax: boolean): Map<string, RawFilter> {
  const groups = new Map<string, RawFilter>();
  for (const [parameter, values] of params) {
    if (!parameter.startsWith('filter[')) continue;
    const match = parameter.match(FILTER_PARAM);
    if (!match) throw invalidQueryParameter(parameter, `${parameter} is not a filter this API understands`);
    const [, name, key, list] = match as unknown as [string, string, string | undefined, string | undefined];
    const isBound = key === 'gte' || key === 'lte';
    const target = key && !isBound ? `${name}.${key}` : name;
    const group = groups.get(target) ?? { parameters: [] };
    group.parameters.push(parameter);
    groups.set(target, group);
    if (isBound) {
      if (!newSyntax) throw invalidQueryParameter(parameter, `${parameter} needs newFilterSyntax=true`);
      if (new Set(values).size > 1) throw invalidQueryParameter(parameter, `${parameter} is given more than once with different values`);
      group[key] = values[0]!;
    } else if (key === '' || list) {
      if (!newSyntax) throw invalidQueryParameter(parameter, `${parameter} needs newFilterSyntax=true`);
      group.values = [...(group.values ?? []), ...values];
    } else if (newSyntax) {
      group.values = [...(group.values ?? []), ...values];
    } else {
      if (new Set(values).size > 1) throw invalidQueryParameter(parameter, `${parameter} is given more than once with different values`);
      group.classic = values[0]!;
    }
  }
  return groups;
}

function valueCondition(raw: RawFilter, a: AttributeDescriptor): ValueCondition {
  const parameter = raw.parameters[0]!;
  const condition = parseValueCondition(raw, a, parameter);
  // An array attribute is tested for holding a value; "between" means nothing for a set.
  if (a.type === 'array' && condition.kind === 'range') {
    throw invalidQueryParameter(parameter, `${a.name} holds a list of values and cannot be filtered by a range`);
  }
  return condition;
}

function parseValueCondition(raw: RawFilter, a: AttributeDescriptor, parameter: string): ValueCondition {
  if (raw.classic !== undefined) return parseClassicValue(parameter, a, raw.classic);
  return parseNewSyntaxValue(parameter, a, {
    ...(raw.values && { values: raw.values }),
    ...(raw.gte !== undefined && { gte: raw.gte }),
    ...(raw.lte !== undefined && { lte: raw.lte }),
  });
}

/** filter[q]: `text`, `text,attr`, `_text_,attr`, `_NULL_,attr`, `_NOTNULL_,attr`. */
function searchCondition(descriptor: ResourceDescriptor, raw: RawFilter): SearchCondition {
  const parameter = raw.parameters[0]!;
  const searchable = descriptor.attributes.filter((a) => a.search);
  if (searchable.length === 0) throw invalidQueryParameter(parameter, `filter[q] is not available on ${descriptor.collection}`);
  const text = raw.classic ?? raw.values?.[0];
  if (text === undefined || (raw.values && raw.values.length > 1)) throw invalidQueryParameter(parameter, 'filter[q] takes one value');
  const comma = text.lastIndexOf(',');
  if (comma < 0) {
    if (text === '') throw invalidQueryParameter(parameter, 'filter[q] must not be empty');
    return { mode: 'prefix', text, attributes: searchable };
  }
  const term = text.slice(0, comma);
  const name = text.slice(comma + 1);
  const attribute = searchable.find((a) => a.name === name);
  if (!attribute) {
    throw invalidQueryParameter(parameter, `${JSON.stringify(name)} cannot be searched; searchable: ${searchable.map((a) => a.name).join(', ')}`);
  }
  if (term === '_NULL_') return { mode: 'null', text: '', attributes: [attribute] };
  if (term === '_NOTNULL_') return { mode: 'notNull', text: '', attributes: [attribute] };
  if (term.length >= 2 && term.startsWith('_') && term.endsWith('_')) return { mode: 'exact', text: term.slice(1, -1), attributes: [attribute] };
  if (term === '') throw invalidQueryParameter(parameter, 'filter[q] must not be empty');
  return { mode: 'prefix', text: term, attributes: [attribute] };
}

/**
 * filter[<name>][<key>] where <name> is no relationship. On an attribute it is an operator
 * (`[gt]`, `[from]`) this API does not take: the error names the forms of a range it does take,
 * rather than looking for a relationship the client never meant.
 */
function notARelationship(descriptor: ResourceDescriptor, parameter: string, name: string, key: string): ApiError {
  const attribute = name === 'id' ? idAttribute() : descriptor.attributes.find((a) => a.name === name);
  if (!attribute) return invalidQueryParameter(parameter, `${descriptor.type} has no relationship ${name}`);
  if (!attribute.filterable) return invalidQueryParameter(parameter, `${name} is not filterable`);
  return invalidQueryParameter(
    parameter,
    `[${key}] is not a filter operator: ${name} is an attribute, filtered as filter[${name}]=<value>, a range as filter[${name}]=<from>..<to> ` +
      `(neginf..<to> or <from>..inf for an open side), or with newFilterSyntax=true as filter[${name}][gte]=<from> and/or filter[${name}][lte]=<to>`,
  );
}

/** Every filter of a collection request, checked against the resource's schema. */
export function parseFilters(
  descriptor: ResourceDescriptor,
  params: Map<string, string[]>,
  newSyntax: boolean,
  descriptorOf: (type: string) => ResourceDescriptor | undefined,
): FilterCondition[] {
  const conditions: FilterCondition[] = [];
  for (const [target, raw] of groupFilters(params, newSyntax)) {
    const parameter = raw.parameters[0]!;
    if (target === 'q') {
      conditions.push({ on: 'search', search: searchCondition(descriptor, raw) });
      continue;
    }
    const [name, key] = target.split('.') as [string, string | undefined];
    const relationship = descriptor.relationships.find((r) => r.name === name);
    if (key === undefined) {
      const attribute = name === 'id' ? idAttribute() : descriptor.attributes.find((a) => a.name === name);
      if (!attribute) throw invalidQueryParameter(parameter, `${descriptor.type} has no attribute ${name}`);
      if (!attribute.filterable) throw invalidQueryParameter(parameter, `${name} is not filterable`);
      conditions.push({ on: 'attribute', attribute, condition: valueCondition(raw, attribute) });
      continue;
    }
    if (!relationship) throw notARelationship(descriptor, parameter, name, key);
    // As in the reference, which says so of contentCategoryMembership.content.
    if (relationship.kind === 'polymorphicToOne') throw invalidQueryParameter(parameter, `${name} names records of several types and cannot be used as a filter`);
    if (key === 'id') {
      conditions.push({ on: 'relationshipId', relationship, condition: valueCondition(raw, idAttribute()) });
      continue;
    }
    const target_ = relationship.kind === 'toOne' ? descriptorOf(relationship.target) : undefined;
    const attribute = target_?.attributes.find((a) => a.name === key);
    if (relationship.kind !== 'toOne' || !target_ || !attribute || !relationship.filterBy.includes(key)) {
      const accepted = ['id', ...(relationship.kind === 'toOne' ? relationship.filterBy : [])].map((k) => `filter[${name}][${k}]`);
      throw invalidQueryParameter(parameter, `filter[${name}][${key}] is not supported; accepted: ${accepted.join(', ')}`);
    }
    conditions.push({
      on: 'relationshipAttribute',
      parameter,
      relationship,
      target: target_,
      attribute,
      condition: valueCondition(raw, attribute),
    });
  }
  return conditions;
}
