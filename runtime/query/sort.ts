import { invalidQueryParameter } from '../jsonapi/index.js';
import type { AttributeDescriptor, ResourceDescriptor } from '../model/descriptor.js';
import { quoteIdent } from '../model/sql-text.js';
import { idAttribute } from './filters.js';
import type { SqlParams } from './sql-builder.js';
import { castOf } from './values.js';

/**
 * sort=a,-b, always completed by id so the order is total and keyset pages are exact. Nulls
 * sort as the largest value (PostgreSQL's default: ASC NULLS LAST, DESC NULLS FIRST), which
 * also makes a reversed order (for page[before]) the exact mirror.
 */

export interface SortKey {
  readonly attribute: AttributeDescriptor;
  readonly descending: boolean;
}

export function parseSort(descriptor: ResourceDescriptor, text: string | undefined): SortKey[] {
  const keys: SortKey[] = [];
  for (const part of (text ?? '').split(',').filter((p) => p !== '')) {
    const descending = part.startsWith('-');
    const name = descending ? part.slice(1) : part;
    if (name.includes('.')) throw invalidQueryParameter('sort', `sorting by a relationship's attribute (${name}) is not supported`);
    const attribute = name === 'id' ? idAttribute() : descriptor.attributes.find((a) => a.name === name);
    if (!attribute) throw invalidQueryParameter('sort', `${descriptor.type} has no attribute ${name}`);
    if (!attribute.sortable) throw invalidQueryParameter('sort', `${name} is not sortable`);
    if (keys.some((k) => k.attribute.name === name)) throw invalidQueryParameter('sort', `${name} appears twice in sort`);
    keys.push({ attribute, descending });
  }
  if (!keys.some((k) => k.attribute.name === 'id')) keys.push({ attribute: idAttribute(), descending: false });
  return keys;
}

/** A stable text of the sort, bound into cursors so a cursor only fits the order it came from. */
export function sortSignature(keys: readonly SortKey[]): string {
  return keys.map((k) => `${k.descending ? '-' : ''}${k.attribute.name}`).join(',');
}

export function orderBy(keys: readonly SortKey[], alias: string, reverse: boolean): string {
  return keys.map((k) => `${alias}.${quoteIdent(k.attribute.column)} ${k.descending !== reverse ? 'desc' : 'asc'}`).join(', ');
}

function neverNull(a: AttributeDescriptor): boolean {
  return a.required || a.name === 'id' || a.name === 'createdAt' || a.name === 'updatedAt';
}

/**
 * Rows strictly after the cursor position in the (possibly reversed) order. When every key runs
 * one way and none can be null, a row comparison lets PostgreSQL seek the index directly;
 * otherwise the position is spelled out key by key, nulls counted as the largest value.
 */
export function keysetCondition(keys: readonly SortKey[], values: readonly unknown[], alias: string, params: SqlParams, reverse: boolean): string {
  const column = (k: SortKey) => `${alias}.${quoteIdent(k.attribute.column)}`;
  const descending = (k: SortKey) => k.descending !== reverse;
  const allSameWay = keys.every((k) => descending(k) === descending(keys[0]!));
  if (allSameWay && keys.every((k) => neverNull(k.attribute)) && values.every((v) => v !== null)) {
    const left = keys.map(column).join(', ');
    const right = keys.map((k, i) => params.add(values[i], castOf(k.attribute))).join(', ');
    return `(${left}) ${descending(keys[0]!) ? '<' : '>'} (${right})`;
  }
  // Each value becomes one parameter, added only when some alternative uses it: PostgreSQL
  // refuses a statement with a parameter it cannot type because nothing refers to it.
  const placeholders: string[] = [];
  const placeholder = (i: number) => (placeholders[i] ??= params.add(values[i], castOf(keys[i]!.attribute)));
  const alternatives: string[] = [];
  keys.forEach((key, i) => {
    const value = values[i];
    let after: string | undefined;
    if (!descending(key)) after = value === null ? undefined : `(${column(key)} is null or ${column(key)} > ${placeholder(i)})`;
    else after = value === null ? `${column(key)} is not null` : `${column(key)} < ${placeholder(i)}`;
    if (!after) return;
    const equal = keys.slice(0, i).map((k, j) => (values[j] === null ? `${column(k)} is null` : `${column(k)} = ${placeholder(j)}`));
    alternatives.push([...equal, after].join(' and '));
  });
  return alternatives.length ? `(${alternatives.map((a) => `(${a})`).join(' or ')})` : 'false';
}
