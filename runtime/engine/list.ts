import { COUNT_CAP, compileFilters, encodeCursor, keysetCondition, orderBy, SqlParams, type ListRequest } from '../query/index.js';
import type { Transaction } from '../tenancy/index.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import type { Row } from './render.js';
import { partitionPredicate, quoteIdent } from '../model/sql-text.js';
import type { ResourceStatements } from './statements.js';
import { withinTimeBudget } from './count-budget.js';

/**
 * Runs a collection query: one statement for the page (one extra row says whether another page
 * follows), one for the count when asked. Filters, sort and keyset come from the same compiler
 * that bulk actions will use.
 */

export interface ListResult {
  readonly rows: Row[];
  /** Whether a page exists after the last row / before the first row. */
  readonly hasNext: boolean;
  readonly hasPrev: boolean;
  readonly count?: ListCount;
}

function whereClause(request: ListRequest, descriptor: ResourceDescriptor, params: SqlParams, tables: (type: string) => ResourceDescriptor): string[] {
  return [
    `t."org_id" = $1${partitionPredicate(descriptor, 't')}`,
    ...listedConditions(descriptor),
    ...compileFilters(request.filters, descriptor, 't', params, '$1', tables),
  ];
}

/**
 * The descriptor's `listedWhen`: records without a value for one of its attributes (null, or
 * empty text) are left out of every collection read and its count, whatever the filters say.
 */
function listedConditions(descriptor: ResourceDescriptor): string[] {
  return (descriptor.listedWhen?.present ?? []).map((name) => {
    const attribute = descriptor.attributes.find((a) => a.name === name);
    if (!attribute) throw new Error(`${descriptor.type} is listed when ${name} is present, which is not one of its attributes`);
    const column = `t.${quoteIdent(attribute.column)}`;
    return attribute.type === 'string' && attribute.format === undefined ? `(${column} is not null and ${column} <> '')` : `${column} is not null`;
  });
}

/** What a count came to: SPEC.md's count cap and count throttling both end in `truncated`. */
export interface ListCount {
  readonly value: number;
  readonly truncated: boolean;
}

/** SPEC.md's "Count throttling": a count that takes longer than its budget is given up. */
const THROTTLED_COUNT: ListCount = { value: 0, truncated: true };

/**
 * Counts the matches up to the cap. With a budget (COUNT_TIME_BUDGET_MS), a count that takes
 * longer is cancelled by PostgreSQL and answered as throttled, instead of holding the request
 * (and its connection) for as long as a count over millions of rows takes.
 */
async function countMatches(
  tx: Transaction,
  request: ListRequest,
  descriptor: ResourceDescriptor,
  orgId: number,
  tables: (type: string) => ResourceDescriptor,
  budgetMs: number | undefined,
): Promise<ListCount> {
  const params = new SqlParams([orgId]);
  const where = whereClause(request, descriptor, params, tables);
  const limit = COUNT_CAP + 1;
  const count = () =>
    tx.unsafe<{ n: number }[]>(
      `select count(*)::int as n from (select 1 from ${quoteIdent(descriptor.table)} t where ${where.join(' and ')} limit ${limit}) matches`,
      params.values as never[],
      { prepare: true },
    );
  const rows = budgetMs ? await withinTimeBudget(tx, budgetMs, count) : await count();
  if (!rows) return THROTTLED_COUNT;
  const n = rows[0]!.n;
  return n > COUNT_CAP ? { value: COUNT_CAP, truncated: true } : { value: n, truncated: false };
}

export async function runList(
  tx: Transaction,
  descriptor: ResourceDescriptor,
  statements: ResourceStatements,
  request: ListRequest,
  orgId: number,
  tables: (type: string) => ResourceDescriptor,
  /** COUNT_TIME_BUDGET_MS; undefined or 0: counts take as long as they take. */
  countBudgetMs?: number,
): Promise<ListResult> {
  const params = new SqlParams([orgId]);
  const where = whereClause(request, descriptor, params, tables);
  const page = request.page;
  const reverse = page.kind === 'cursor' && page.before !== undefined;
  if (page.kind === 'cursor' && (page.after ?? page.before)) {
    where.push(keysetCondition(request.sort, (page.after ?? page.before)!, 't', params, reverse));
  }
  const size = page.kind === 'cursor' ? page.size : page.limit;
  // LIMIT and OFFSET are checked integers written as literals: with a parameter there, PostgreSQL
  // plans every execution anew instead of settling on a generic plan.
  let text = `select ${statements.selectList} from ${quoteIdent(descriptor.table)} t where ${where.join(' and ')} order by ${orderBy(request.sort, 't', reverse)} limit ${Math.trunc(size) + 1}`;
  if (page.kind === 'offset') text += ` offset ${Math.trunc(page.offset)}`;
  const fetched = await tx.unsafe<Row[]>(text, params.values as never[], { prepare: true });
  const more = fetched.length > size;
  const rows = fetched.slice(0, size);
  if (reverse) rows.reverse();
  const count = request.count || page.kind === 'offset' ? await countMatches(tx, request, descriptor, orgId, tables, countBudgetMs) : undefined;
  if (page.kind === 'offset') {
    return { rows, hasNext: more, hasPrev: page.offset > 0, ...(count && { count }) };
  }
  return {
    rows,
    // Coming back with page[before], the rows after this page are the ones we came from.
    hasNext: reverse ? rows.length > 0 : more,
    hasPrev: reverse ? more : page.after !== undefined && rows.length > 0,
    ...(count && { count }),
  };
}

/** The keyset position of a row under the request's sort, for its cursor. */
export function positionOf(request: ListRequest, row: Row): unknown[] {
  return request.sort.map((k) => (k.attribute.name === 'id' ? row.id : (row[k.attribute.name] ?? null)));
}

export function cursorFor(secret: string, request: ListRequest, row: Row): string {
  return encodeCursor(secret, request.cursorScope, positionOf(request, row));
}
