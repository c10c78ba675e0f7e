import type postgres from 'postgres';

/**
 * The rate limit's statements on cadence_system.request_counts: the settle, which adds what a
 * process admitted since its last settle for every holder at once, and the read of one holder's
 * count before a process first decides for it. Both answer with the org's own limit too.
 */

export interface CounterKey {
  readonly orgId: number;
  readonly holder: string;
  /** Epoch seconds of the window's start. */
  readonly windowStart: number;
}

export interface CounterDelta extends CounterKey {
  /** Requests admitted since the last settle; 0: only read the count. */
  readonly delta: number;
}

export interface CounterRow extends CounterKey {
  /** Every process's admissions as settled so far, this settle's included. */
  readonly count: number;
  /** The org's own limit (`cadence org set-rate-limit`); null: the deployment's. */
  readonly orgLimit: number | null;
}

interface SettledRow {
  org_id: number;
  holder: string;
  window_start: number;
  count: number;
  org_limit: number | null;
}

/**
 * One statement for every holder that changed: an upsert of the deltas that adds to whatever the
 * other processes have settled, returning the new totals, and for holders that were asked about
 * but admitted nothing (delta 0), the stored count as it is, without writing. Rows go in key
 * order, so two processes settling the same holders lock their rows in the same order and never
 * deadlock.
 */
export async function settleCounts(sql: postgres.Sql, deltas: readonly CounterDelta[]): Promise<CounterRow[]> {
  const sorted = [...deltas].sort((a, b) => a.orgId - b.orgId || (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : 0) || a.windowStart - b.windowStart);
  const rows = await sql<SettledRow[]>`
    with deltas as (
      select d.org_id, d.holder, to_timestamp(d.window_start) as window_start, d.delta
        from unnest(${sorted.map((d) => d.orgId)}::int8[], ${sorted.map((d) => d.holder)}::text[],
                    ${sorted.map((d) => d.windowStart)}::int8[], ${sorted.map((d) => d.delta)}::int4[]) as d(org_id, holder, window_start, delta)
    ), added as (
      insert into cadence_system.request_counts as c (org_id, holder, window_start, count)
      select org_id, holder, window_start, delta from deltas where delta > 0 order by org_id, holder, window_start
      on conflict (org_id, holder, window_start) do update set count = c.count + excluded.count
      returning c.org_id, c.holder, c.window_start, c.count
    ), counted as (
      select org_id, holder, window_start, count from added
      union all
      select d.org_id, d.holder, d.window_start, coalesce(c.count, 0)
        from deltas d left join cadence_system.request_counts c using (org_id, holder, window_start)
       where d.delta = 0
    )
    select k.org_id, k.holder, extract(epoch from k.window_start)::int8 as window_start, k.count, o.request_limit_per_hour as org_limit
      from counted k join cadence_system.orgs o on o.id = k.org_id`;
  return rows.map((r) => ({ orgId: r.org_id, holder: r.holder, windowStart: r.window_start, count: r.count, orgLimit: r.org_limit }));
}

/** One holder's settled count in a window (0 before anyone settled it), and its org's limit: a read, no write. */
export async function readCount(sql: postgres.Sql, key: CounterKey): Promise<{ count: number; orgLimit: number | null }> {
  const [row] = await sql<{ count: number; org_limit: number | null }[]>`
    select coalesce((select c.count from cadence_system.request_counts c
                      where c.org_id = o.id and c.holder = ${key.holder} and c.window_start = to_timestamp(${key.windowStart})), 0) as count,
           o.request_limit_per_hour as org_limit
      from cadence_system.orgs o where o.id = ${key.orgId}`;
  return { count: row?.count ?? 0, orgLimit: row?.org_limit ?? null };
}
