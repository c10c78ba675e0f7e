// The requests the benchmark sends, chosen from the seeded data of one org.
import type postgres from 'postgres';

export interface Scenario {
  readonly name: string;
  /** Collection requests; the other kind is a single-resource GET. */
  readonly list: boolean;
  /** Paths under the server's origin, sent in turn by each connection. */
  readonly paths: readonly string[];
}

const PROSPECTS = '/api/v2/prospects';
/** How many different prospects the single-resource scenario cycles through. */
const SINGLE_IDS = 200;
/** The deep cursor points this many rows before the end of the org's collection. */
const ROWS_AFTER_DEEP_CURSOR = 1000;

/** `page[after]=...`-style names with their brackets percent-encoded, as links carry them. */
function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/** Middle 10% of the org's prospects by updatedAt, in the API's timestamp format. */
async function updatedAtRange(sql: postgres.Sql, orgId: number): Promise<[string, string]> {
  const [row] = await sql<{ from: string; to: string }[]>`
    select to_char(percentile_disc(0.45) within group (order by updated_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as from,
           to_char(percentile_disc(0.55) within group (order by updated_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as to
      from prospects where org_id = ${orgId}`;
  return [row!.from, row!.to];
}

/**
 * A real cursor deep in the collection: the server's own next link from a page that a filter
 * starts near the end. A cursor is bound to the org, type and sort, not to the filters, so
 * the link without its filter is the page of the unfiltered collection after that row.
 */
async function deepCursorPath(sql: postgres.Sql, orgId: number, server: { url: string; token: string }): Promise<string> {
  const [row] = await sql<{ id: number }[]>`
    select id from prospects where org_id = ${orgId} order by id desc offset ${ROWS_AFTER_DEEP_CURSOR} limit 1`;
  const response = await fetch(`${server.url}${PROSPECTS}?${query({ 'filter[id]': `${row!.id}..inf` })}`, {
    headers: { authorization: `Bearer ${server.token}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`the deep cursor request answered ${response.status}: ${await response.text()}`);
  const next = ((await response.json()) as { links: { next?: string } }).links.next;
  if (!next) throw new Error('the deep cursor request has no next link');
  const link = new URL(next);
  link.searchParams.delete('filter[id]');
  return `${link.pathname}?${link.searchParams.toString()}`;
}

export async function buildScenarios(sql: postgres.Sql, orgId: number, server: { url: string; token: string }): Promise<Scenario[]> {
  const ids = await sql<{ id: number }[]>`
    select id from prospects where org_id = ${orgId} order by md5(id::text) limit ${SINGLE_IDS}`;
  const [from, to] = await updatedAtRange(sql, orgId);
  return [
    { name: 'GET one prospect', list: false, paths: ids.map(({ id }) => `${PROSPECTS}/${id}`) },
    { name: 'list, page of 50', list: true, paths: [PROSPECTS] },
    { name: 'list, page of 50, include=account', list: true, paths: [`${PROSPECTS}?${query({ include: 'account' })}`] },
    {
      name: 'filter[updatedAt] (10% of org), sort=-updatedAt',
      list: true,
      paths: [`${PROSPECTS}?${query({ 'filter[updatedAt]': `${from}..${to}`, sort: '-updatedAt' })}`],
    },
    { name: `deep cursor page (${ROWS_AFTER_DEEP_CURSOR} rows before the end)`, list: true, paths: [await deepCursorPath(sql, orgId, server)] },
    { name: 'list, count=true (whole org)', list: true, paths: [`${PROSPECTS}?${query({ count: 'true' })}`] },
  ];
}
