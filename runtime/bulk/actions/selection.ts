import type { ResourceDescriptor } from '../../engine/index.js';
import { ApiError } from '../../jsonapi/index.js';
import { partitionPredicate, quoteIdent } from '../../model/sql-text.js';
import { compileFilters, SqlParams } from '../../query/index.js';
import { parseFilters } from '../../query/parse-filters.js';

/**
 * Which records a bulk action applies to (SPEC.md "Bulk actions" rules 1 and 2): the records
 * `GET <collection>?newFilterSyntax=true&filter[...]` returns for `actionParams[filter][...]`,
 * parsed and compiled by the collection query's own parser and compiler, narrowed by the body's
 * `ids`. Read once, when the batch is made: the batch applies to that snapshot of ids.
 */

/** SPEC.md "Limits": a bulk action over more records than this fails as a whole. */
export const MAX_BULK_ACTION_RECORDS = 100_000;

const FILTER_PREFIX = 'actionParams[filter]';

/** `actionParams[filter][...]` parameters as the collection's `filter[...]` ones; the rest left out. */
export function filterParams(params: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const filters = new Map<string, string[]>();
  for (const [name, values] of params) {
    if (name.startsWith(`${FILTER_PREFIX}[`)) filters.set(`filter${name.slice(FILTER_PREFIX.length)}`, [...values]);
  }
  return filters;
}

/** Checks the filters against the subject's schema; errors name the parameters as the client sent them. */
export function parseSelection(descriptor: ResourceDescriptor, filters: Map<string, string[]>, descriptorOf: (type: string) => ResourceDescriptor | undefined) {
  try {
    return parseFilters(descriptor, filters, true, descriptorOf);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const renamed = error.errors.map((e) => {
      const parameter = e.source?.parameter;
      if (!parameter?.startsWith('filter[')) return e;
      const sent = `${FILTER_PREFIX}${parameter.slice('filter'.length)}`;
      return { ...e, detail: e.detail.replaceAll(parameter, sent), source: { parameter: sent } };
    });
    throw new ApiError(error.status, renamed, error.headers);
  }
}

/**
 * The selection as SQL: `select t."id" as id from <table> t where …`, its values added to
 * `params`, whose `$1` must be the org id. The caller counts it and copies it into batch items
 * without the ids leaving PostgreSQL.
 */
export function selectionSql(
  params: SqlParams,
  descriptor: ResourceDescriptor,
  filters: ReturnType<typeof parseSelection>,
  ids: readonly number[] | undefined,
  descriptorOf: (type: string) => ResourceDescriptor,
): string {
  const where = [`t."org_id" = $1${partitionPredicate(descriptor, 't')}`, ...compileFilters(filters, descriptor, 't', params, '$1', descriptorOf)];
  if (ids) where.push(`t."id" = any(${params.add(ids)}::bigint[])`);
  return `select t."id" as id from ${quoteIdent(descriptor.table)} t where ${where.join(' and ')}`;
}
