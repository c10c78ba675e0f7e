// Custom objects against standard resources: the same kind of list request on `booking` (a
// custom object in the shared slot table) and on prospects, measured in turn on `cadence serve`.
import type postgres from 'postgres';
import { quoteIdent } from '../runtime/model/sql-text.js';
import type { BookingSlots } from './custom-seed.js';
import { BOOKING_NAME } from './custom-seed.js';
import { measure, type LoadOptions, type LoadResult, type Target } from './load.js';

const BOOKINGS = `/api/v2/customObjects/${BOOKING_NAME}`;
const PROSPECTS = '/api/v2/prospects';
/** The status the booking scenarios filter on. */
const STATUS = 'confirmed';

/** One request on bookings and its counterpart on prospects. */
export interface CustomPair {
  readonly name: string;
  readonly custom: { readonly label: string; readonly path: string; readonly share: number };
  readonly standard: { readonly label: string; readonly path: string; readonly share: number };
  /** The relationship the include scenario follows, if any: its page must include resources. */
  readonly include: boolean;
}

export interface CustomPairResult {
  readonly pair: CustomPair;
  /** One result per round, in round order. */
  readonly custom: readonly LoadResult[];
  readonly standard: readonly LoadResult[];
  /** What a first request returned, e.g. "50 bookings, 47 included": a check that it works. */
  readonly customBody: string;
  readonly standardBody: string;
  readonly error?: string;
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/**
 * The prospect filter: the org's most common titles, as many as bring its share closest to the
 * share of the booking filter, so that both requests walk about as many index entries per page.
 */
async function matchingTitles(sql: postgres.Sql, orgId: number, share: number): Promise<{ titles: string[]; share: number }> {
  const rows = await sql<{ title: string; n: number }[]>`
    select title, count(*)::int as n from prospects where org_id = ${orgId} and title is not null group by title order by n desc, title`;
  const [counted] = await sql<{ total: number }[]>`select count(*)::int as total from prospects where org_id = ${orgId}`;
  const total = Math.max(counted!.total, 1);
  let best = { titles: [rows[0]!.title], share: rows[0]!.n / total };
  let sum = 0;
  for (let k = 0; k < rows.length; k++) {
    sum += rows[k]!.n;
    if (Math.abs(sum / total - share) < Math.abs(best.share - share)) best = { titles: rows.slice(0, k + 1).map((r) => r.title), share: sum / total };
  }
  return best;
}

export async function buildCustomPairs(sql: postgres.Sql, orgId: number, definitionId: number, slots: BookingSlots): Promise<CustomPair[]> {
  const [row] = await sql.unsafe<{ share: number }[]>(
    `select (count(*) filter (where ${quoteIdent(slots.status)} = $3))::float8 / greatest(count(*), 1) as share
       from custom_object_records where org_id = $1 and definition_id = $2`,
    [orgId, definitionId, STATUS],
  );
  const statusShare = row!.share;
  const { titles, share: titleShare } = await matchingTitles(sql, orgId, statusShare);
  const bookings = { 'filter[status]': STATUS, sort: '-startsAt' };
  const prospects = { 'filter[title]': titles.join(','), sort: '-updatedAt' };
  const titleLabel = titles.length === 1 ? `filter[title]=${titles[0]}` : `filter[title]=<${titles.length} most common titles>`;
  return [
    {
      name: 'list, page of 50, filter + sort',
      custom: { label: `filter[status]=${STATUS}&sort=-startsAt`, path: `${BOOKINGS}?${query(bookings)}`, share: statusShare },
      standard: { label: `${titleLabel}&sort=-updatedAt`, path: `${PROSPECTS}?${query(prospects)}`, share: titleShare },
      include: false,
    },
    {
      name: 'same, with include',
      custom: { label: 'include=prospect', path: `${BOOKINGS}?${query({ ...bookings, include: 'prospect' })}`, share: statusShare },
      standard: { label: 'include=account', path: `${PROSPECTS}?${query({ ...prospects, include: 'account' })}`, share: titleShare },
      include: true,
    },
  ];
}

/** One request, to check the scenario works before it is measured: "50 bookings, 48 included". */
async function probe(target: Target, path: string, include: boolean): Promise<string> {
  const response = await fetch(`${target.baseUrl}${path}`, { headers: target.headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { data: { type: string }[]; included?: unknown[] };
  const type = body.data[0]?.type ?? 'rows';
  const summary = `${body.data.length} ${type}${body.data.length === 1 ? '' : 's'}`;
  if (include && !body.included?.length) throw new Error(`GET ${path} included nothing`);
  return include ? `${summary}, ${body.included!.length} included` : summary;
}

/**
 * Measures each pair in `rounds` rounds, alternating which goes first (ABBA...), so that a
 * drift in the machine's other load weighs on both sides alike.
 */
export async function runCustomPairs(
  pairs: readonly CustomPair[],
  cadence: Target,
  load: LoadOptions,
  rounds: number,
  print: (line: string) => void,
): Promise<CustomPairResult[]> {
  const results: CustomPairResult[] = [];
  for (const pair of pairs) {
    let customBody = '';
    let standardBody = '';
    try {
      customBody = await probe(cadence, pair.custom.path, pair.include);
      standardBody = await probe(cadence, pair.standard.path, pair.include);
    } catch (error) {
      print(`  ${pair.name}: not measured: ${error instanceof Error ? error.message : String(error)}`);
      results.push({ pair, custom: [], standard: [], customBody, standardBody, error: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const custom: LoadResult[] = [];
    const standard: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['standard', 'custom'] as const) : (['custom', 'standard'] as const);
      for (const side of order) {
        const result = await measure({ ...cadence, paths: [pair[side].path] }, load);
        (side === 'custom' ? custom : standard).push(result);
      }
      const last = (list: LoadResult[]) => Math.round(list[list.length - 1]!.requestsPerSecond);
      print(`  ${pair.name}, round ${round + 1}: ${BOOKING_NAME} ${last(custom)} req/s, prospects ${last(standard)} req/s`);
    }
    results.push({ pair, custom, standard, customBody, standardBody });
  }
  return results;
}
