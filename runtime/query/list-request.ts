import { invalidQueryParameter } from '../jsonapi/index.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import { decodeCursor, type CursorScope } from './cursor.js';
import { isFieldsParam, parseFields, type Fieldsets } from './fields.js';
import type { FilterCondition } from './filters.js';
import { parseInclude, type IncludeNode } from './include.js';
import { parseFilters } from './parse-filters.js';
import { parseSort, sortSignature, type SortKey } from './sort.js';

/** A collection GET's query, parsed and checked: everything the SQL and the links need. */
export interface ListRequest {
  readonly filters: readonly FilterCondition[];
  readonly sort: readonly SortKey[];
  readonly page: CursorPage | OffsetPage;
  readonly count: boolean;
  readonly include: readonly IncludeNode[];
  readonly fields: Fieldsets;
  readonly cursorScope: CursorScope;
}

export interface CursorPage {
  readonly kind: 'cursor';
  readonly size: number;
  readonly after?: readonly unknown[];
  readonly before?: readonly unknown[];
}

export interface OffsetPage {
  readonly kind: 'offset';
  readonly offset: number;
  readonly limit: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
export const MAX_OFFSET = 10000;

export interface ListContext {
  readonly orgId: number;
  readonly cursorSecret: string;
  readonly countByDefault: boolean;
  readonly descriptorOf: (type: string) => ResourceDescriptor | undefined;
}

const LIST_PARAMS = new Set(['sort', 'count', 'include', 'newFilterSyntax', 'page[size]', 'page[after]', 'page[before]', 'page[offset]', 'page[limit]']);

/**
 * The single value of a parameter. A repeated parameter is accepted when every copy says the
 * same (clients re-send parameters when following links), refused when they disagree.
 */
export function singleValue(params: Map<string, string[]>, name: string): string | undefined {
  const values = params.get(name);
  if (!values) return undefined;
  if (new Set(values).size > 1) throw invalidQueryParameter(name, `${name} is given more than once with different values`);
  return values[0];
}

function integerParam(params: Map<string, string[]>, name: string, min: number, max: number): number | undefined {
  const text = singleValue(params, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw invalidQueryParameter(name, `${name} must be an integer from ${min} to ${max}`);
  }
  return Number(text);
}

function booleanParam(params: Map<string, string[]>, name: string): boolean | undefined {
  const text = singleValue(params, name);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw invalidQueryParameter(name, `${name} must be true or false`);
  return text === 'true';
}

function pageOf(params: Map<string, string[]>, context: ListContext, scope: CursorScope): CursorPage | OffsetPage {
  const offset = integerParam(params, 'page[offset]', 0, MAX_OFFSET);
  const limit = integerParam(params, 'page[limit]', 1, MAX_PAGE_SIZE);
  const size = integerParam(params, 'page[size]', 1, MAX_PAGE_SIZE);
  const after = singleValue(params, 'page[after]');
  const before = singleValue(params, 'page[before]');
  if (offset !== undefined || limit !== undefined) {
    const cursorParam = ['page[size]', 'page[after]', 'page[before]'].find((p) => params.has(p));
    if (cursorParam) throw invalidQueryParameter(cursorParam, `${cursorParam} cannot be combined with offset pagination`);
    return { kind: 'offset', offset: offset ?? 0, limit: limit ?? DEFAULT_PAGE_SIZE };
  }
  if (after !== undefined && before !== undefined) throw invalidQueryParameter('page[before]', 'page[after] and page[before] cannot be combined');
  return {
    kind: 'cursor',
    size: size ?? DEFAULT_PAGE_SIZE,
    ...(after !== undefined && { after: decodeCursor(context.cursorSecret, scope, 'page[after]', after) }),
    ...(before !== undefined && { before: decodeCursor(context.cursorSecret, scope, 'page[before]', before) }),
  };
}

export function parseListRequest(descriptor: ResourceDescriptor, params: Map<string, string[]>, context: ListContext): ListRequest {
  for (const name of params.keys()) {
    if (!LIST_PARAMS.has(name) && !name.startsWith('filter[') && !isFieldsParam(name)) {
      throw invalidQueryParameter(name, `${name} is not a supported query parameter on this collection`);
    }
  }
  const newSyntax = booleanParam(params, 'newFilterSyntax') ?? false;
  const sort = parseSort(descriptor, singleValue(params, 'sort'));
  const cursorScope = { orgId: context.orgId, type: descriptor.type, sort: sortSignature(sort) };
  const page = pageOf(params, context, cursorScope);
  if (page.kind === 'cursor') {
    const position = page.after ?? page.before;
    if (position && position.length !== sort.length) throw invalidQueryParameter(page.after ? 'page[after]' : 'page[before]', 'the cursor does not fit this sort');
  }
  return {
    filters: parseFilters(descriptor, params, newSyntax, context.descriptorOf),
    sort,
    page,
    count: booleanParam(params, 'count') ?? context.countByDefault,
    include: parseInclude(descriptor, singleValue(params, 'include'), context.descriptorOf),
    fields: parseFields(params, context.descriptorOf),
    cursorScope,
  };
}

/** include and fields: what a single GET (and, fields only, a write) accepts. */
export function parseSingleRequest(
  descriptor: ResourceDescriptor,
  params: Map<string, string[]>,
  context: Pick<ListContext, 'descriptorOf'>,
  allowInclude: boolean,
): { include: IncludeNode[]; fields: Fieldsets } {
  for (const name of params.keys()) {
    if (name === 'include' && !allowInclude) {
      throw invalidQueryParameter('include', 'include is not supported in create and update responses; GET the resource instead');
    }
    if (name !== 'include' && !isFieldsParam(name)) throw invalidQueryParameter(name, `${name} is not a supported query parameter here`);
  }
  return {
    include: parseInclude(descriptor, singleValue(params, 'include'), context.descriptorOf),
    fields: parseFields(params, context.descriptorOf),
  };
}
