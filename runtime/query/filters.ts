import { invalidQueryParameter } from '../jsonapi/index.js';
import type { AttributeDescriptor, ResourceDescriptor, ToManyDescriptor, ToOneDescriptor } from '../model/descriptor.js';
import { partitionPredicate, quoteIdent } from '../model/sql-text.js';
import type { SqlParams } from './sql-builder.js';
import { castOf, parseFilterValue, type TypedValue } from './values.js';

/**
 * filter[...] parameters, parsed into conditions and compiled into SQL. The same compiler
 * serves collection GETs and (later) bulk actions' actionParams[filter], so a bulk action
 * selects exactly what the matching GET returns.
 */

export type ValueCondition =
  | { readonly kind: 'in'; readonly values: readonly TypedValue[] }
  | { readonly kind: 'range'; readonly gte?: TypedValue; readonly lte?: TypedValue }
  | { readonly kind: 'null' }
  | { readonly kind: 'notNull' };

export type FilterCondition =
  | { readonly on: 'attribute'; readonly attribute: AttributeDescriptor; readonly condition: ValueCondition }
  | { readonly on: 'relationshipId'; readonly relationship: ToOneDescriptor | ToManyDescriptor; readonly condition: ValueCondition }
  | {
      readonly on: 'relationshipAttribute';
      /** The parameter as the client sent it: this filter reads the related resource. */
      readonly parameter: string;
      readonly relationship: ToOneDescriptor;
      readonly target: ResourceDescriptor;
      readonly attribute: AttributeDescriptor;
      readonly condition: ValueCondition;
    }
  | { readonly on: 'search'; readonly search: SearchCondition };

export interface SearchCondition {
  readonly mode: 'prefix' | 'exact' | 'null' | 'notNull';
  readonly text: string;
  /** One attribute, or every searchable one. */
  readonly attributes: readonly AttributeDescriptor[];
}

const ID_ATTRIBUTE: AttributeDescriptor = {
  name: 'id',
  column: 'id',
  type: 'integer',
  relationshipIdOf: 'id',
  filterable: true,
  sortable: true,
  readOnly: true,
  required: true,
  search: false,
};

/** Old syntax: `a,b`, `a..b`, `neginf..b`, `a..inf`, `__null__`, `__notnull__`. */
export function parseClassicValue(parameter: string, a: AttributeDescriptor, text: string): ValueCondition {
  if (text === '__null__') return { kind: 'null' };
  if (text === '__notnull__') return { kind: 'notNull' };
  const range = text.split('..');
  if (range.length === 2) {
    const [from, to] = range as [string, string];
    return {
      kind: 'range',
      ...(from !== 'neginf' && { gte: parseFilterValue(parameter, a, from) }),
      ...(to !== 'inf' && { lte: parseFilterValue(parameter, a, to) }),
    };
  }
  if (range.length > 2) throw invalidQueryParameter(parameter, `${JSON.stringify(text)} is not a range (a..b)`);
  return { kind: 'in', values: text.split(',').map((v) => parseFilterValue(parameter, a, v)) };
}

/** New syntax: `[]` repeated values, `[gte]`/`[lte]` bounds; commas and `..` are literal. */
export function parseNewSyntaxValue(parameter: string, a: AttributeDescriptor, parts: { values?: readonly string[]; gte?: string; lte?: string }): ValueCondition {
  if (parts.gte !== undefined || parts.lte !== undefined) {
    if (parts.values) throw invalidQueryParameter(parameter, 'a filter cannot combine values with gte/lte');
    return {
      kind: 'range',
      ...(parts.gte !== undefined && { gte: parseFilterValue(parameter, a, parts.gte) }),
      ...(parts.lte !== undefined && { lte: parseFilterValue(parameter, a, parts.lte) }),
    };
  }
  const values = parts.values ?? [];
  if (values.length === 1 && values[0] === '__null__') return { kind: 'null' };
  if (values.length === 1 && values[0] === '__notnull__') return { kind: 'notNull' };
  return { kind: 'in', values: values.map((v) => parseFilterValue(parameter, a, v)) };
}

export function idAttribute(): AttributeDescriptor {
  return ID_ATTRIBUTE;
}

function compileCondition(column: string, a: AttributeDescriptor, condition: ValueCondition, params: SqlParams): string {
  if (condition.kind === 'null') return `${column} is null`;
  if (condition.kind === 'notNull') return `${column} is not null`;
  if (condition.kind === 'range') {
    const parts: string[] = [];
    if (condition.gte) parts.push(`${column} >= ${params.add(condition.gte.value, condition.gte.cast)}`);
    if (condition.lte) parts.push(`${column} <= ${params.add(condition.lte.value, condition.lte.cast)}`);
    return parts.length ? parts.join(' and ') : `${column} is not null`;
  }
  // Lists travel as text[] and are cast by PostgreSQL: postgres.js infers no array type for
  // booleans, and one text parameter per list keeps a single prepared statement per shape.
  const list = `(${params.add(
    condition.values.map((v) => String(v.value)),
    '::text[]',
  )})${castOf(a, true)}[]`;
  // An array attribute matches when it holds any of the values.
  if (a.type === 'array') return `${column} && ${list}`;
  return `${column} = any(${list})`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function compileSearch(search: SearchCondition, alias: string, params: SqlParams): string {
  const columns = search.attributes.map((a) => `${alias}.${quoteIdent(a.column)}`);
  if (search.mode === 'null') return `${columns[0]} is null`;
  if (search.mode === 'notNull') return `${columns[0]} is not null`;
  const needle = search.text.toLowerCase();
  if (search.mode === 'exact') {
    const p = params.add(needle, '::text');
    return `(${columns.map((c) => `lower(${c}) = ${p}`).join(' or ')})`;
  }
  const p = params.add(`${escapeLike(needle)}%`, '::text');
  return `(${columns.map((c) => `lower(${c}) like ${p}`).join(' or ')})`;
}

/** One SQL boolean expression per condition, against the table aliased `alias`. */
export function compileFilters(
  conditions: readonly FilterCondition[],
  descriptor: ResourceDescriptor,
  alias: string,
  params: SqlParams,
  orgParam: string,
  tables: (type: string) => ResourceDescriptor,
): string[] {
  return conditions.map((f) => {
    if (f.on === 'attribute') return compileCondition(`${alias}.${quoteIdent(f.attribute.column)}`, f.attribute, f.condition, params);
    if (f.on === 'search') return compileSearch(f.search, alias, params);
    if (f.on === 'relationshipId') {
      if (f.relationship.kind === 'toOne') {
        return compileCondition(`${alias}.${quoteIdent(f.relationship.column)}`, ID_ATTRIBUTE, f.condition, params);
      }
      // A to-many relationship matches when any related record has one of the ids.
      const target = tables(f.relationship.target);
      const back = target.relationships.find((r) => r.name === (f.relationship as ToManyDescriptor).inverse) as ToOneDescriptor;
      const inner = compileCondition('r."id"', ID_ATTRIBUTE, f.condition, params);
      return `exists (select 1 from ${quoteIdent(target.table)} r where r."org_id" = ${orgParam}${partitionPredicate(target, 'r')} and r.${quoteIdent(back.column)} = ${alias}."id" and ${inner})`;
    }
    const inner = compileCondition(`r.${quoteIdent(f.attribute.column)}`, f.attribute, f.condition, params);
    return `${alias}.${quoteIdent(f.relationship.column)} in (select r."id" from ${quoteIdent(f.target.table)} r where r."org_id" = ${orgParam}${partitionPredicate(f.target, 'r')} and ${inner})`;
  });
}
