/**
 * An in-memory model of a prospect collection query (filters, sort), to compare with what the
 * server returns. It mirrors SPEC.md's rules and runtime/query's documented order: nulls sort as
 * the largest value (ASC NULLS LAST, DESC NULLS FIRST), ties are broken by id ascending unless
 * id is a sort key, ranges are inclusive and never match null. Strings compare by code unit,
 * which is PostgreSQL's order only for the values the tests use (checked against the database).
 */

export type TextAttribute = 'firstName' | 'lastName' | 'title';
export type SortAttribute = TextAttribute | 'createdAt' | 'id';

export interface ProspectRow {
  readonly id: number;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly title: string | null;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

export type ValueFilter =
  | { readonly kind: 'in'; readonly values: readonly string[] }
  | { readonly kind: 'range'; readonly gte?: string; readonly lte?: string }
  | { readonly kind: 'null' }
  | { readonly kind: 'notNull' };

export interface AttributeFilter {
  readonly attribute: TextAttribute;
  readonly filter: ValueFilter;
}

export interface SortKey {
  readonly attribute: SortAttribute;
  readonly descending: boolean;
}

export interface ListQuery {
  readonly newFilterSyntax: boolean;
  readonly filters: readonly AttributeFilter[];
  readonly sort: readonly SortKey[];
  readonly pageSize: number;
}

/** A resource object of the API, reduced to what the model needs. */
export function prospectRowOf(resource: { id: number; attributes: Record<string, unknown> }): ProspectRow {
  const a = resource.attributes as { firstName: string | null; lastName: string | null; title: string | null; createdAt: string };
  return { id: resource.id, firstName: a.firstName, lastName: a.lastName, title: a.title, createdAt: Date.parse(a.createdAt) };
}

function compareNullsLast(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** The order the server promises: the sort keys, then id ascending when id is not among them. */
export function compareRows(sort: readonly SortKey[]): (a: ProspectRow, b: ProspectRow) => number {
  const keys = sort.some((k) => k.attribute === 'id') ? sort : [...sort, { attribute: 'id' as const, descending: false }];
  return (a, b) => {
    for (const key of keys) {
      const c = compareNullsLast(a[key.attribute], b[key.attribute]);
      if (c !== 0) return key.descending ? -c : c;
    }
    return 0;
  };
}

export function matches(row: ProspectRow, { attribute, filter }: AttributeFilter): boolean {
  const value = row[attribute];
  switch (filter.kind) {
    case 'null':
      return value === null;
    case 'notNull':
      return value !== null;
    case 'in':
      return value !== null && filter.values.includes(value);
    case 'range':
      return value !== null && (filter.gte === undefined || value >= filter.gte) && (filter.lte === undefined || value <= filter.lte);
  }
}

export function evaluate(rows: readonly ProspectRow[], query: Pick<ListQuery, 'filters' | 'sort'>): number[] {
  return rows
    .filter((row) => query.filters.every((f) => matches(row, f)))
    .sort(compareRows(query.sort))
    .map((row) => row.id);
}

/** `sort=` text of the keys; empty when there are none. */
export function sortParam(sort: readonly SortKey[]): string {
  return sort.map((k) => `${k.descending ? '-' : ''}${k.attribute}`).join(',');
}

/**
 * The parameters of one filter on `target` (`title`, `account][id`...), in the classic or the
 * new syntax, named from `prefix` on (`filter`, or a bulk action's `actionParams[filter]`).
 */
export function filterParams(target: string, filter: ValueFilter, newFilterSyntax: boolean, prefix = 'filter'): [string, string][] {
  const name = `${prefix}[${target}]`;
  if (filter.kind === 'null' || filter.kind === 'notNull') {
    return [[newFilterSyntax && filter.kind === 'null' ? `${name}[]` : name, filter.kind === 'null' ? '__null__' : '__notnull__']];
  }
  if (filter.kind === 'in') {
    if (!newFilterSyntax) return [[name, filter.values.join(',')]];
    // One value alone goes in the plain form, which the new syntax also reads as a value.
    if (filter.values.length === 1) return [[name, filter.values[0]!]];
    return filter.values.map((v) => [`${name}[]`, v]);
  }
  if (!newFilterSyntax) return [[name, `${filter.gte ?? 'neginf'}..${filter.lte ?? 'inf'}`]];
  const params: [string, string][] = [];
  if (filter.gte !== undefined) params.push([`${name}[gte]`, filter.gte]);
  if (filter.lte !== undefined) params.push([`${name}[lte]`, filter.lte]);
  return params;
}

/** The query string parameters, in the classic or the new filter syntax. */
export function queryParams(query: ListQuery): [string, string][] {
  const params: [string, string][] = [];
  if (query.newFilterSyntax) params.push(['newFilterSyntax', 'true']);
  for (const { attribute, filter } of query.filters) params.push(...filterParams(attribute, filter, query.newFilterSyntax));
  if (query.sort.length) params.push(['sort', sortParam(query.sort)]);
  params.push(['page[size]', String(query.pageSize)]);
  return params;
}

export function pathOf(collection: string, params: readonly [string, string][]): string {
  return `${collection}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}
