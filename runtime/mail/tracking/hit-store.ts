import type postgres from 'postgres';
import { enqueueJobs, type JobSpec } from '../../jobs/enqueue.js';
import { API_ROLE, type Transaction } from '../../tenancy/index.js';

/**
 * The statements on tracking_hits: the append of a flush of hits (any number of orgs, one
 * transaction, with each org's fold job), and the fold's claim of a set of one org's hits.
 */

export type HitKind = 'open' | 'click';

/** An open or a click, as the API answered it. */
export interface TrackingHit {
  readonly orgId: number;
  readonly mailingId: number;
  readonly kind: HitKind;
  /** When it was answered, by the service's clock. */
  readonly at: Date;
}

export const FOLD_HITS_TASK = 'fold_tracking_hits';

/** How long after the first unfolded hit of an org its fold runs: the hits of that second are counted together. */
export const FOLD_DELAY_MS = 1000;

/** The fold job of an org: one waiting per org whatever the hits since, at the run-at of the first (preserveRunAt). */
export function foldJob(orgId: number, runAt?: Date): JobSpec {
  return { task: FOLD_HITS_TASK, payload: { orgId }, jobKey: `${FOLD_HITS_TASK}:${orgId}`, preserveRunAt: true, ...(runAt && { runAt }) };
}

/**
 * Appends `hits` with one statement (cadence_system.append_tracking_hits, migration 0029_tracking_hits: it
 * sets each org for row-level security as it inserts that org's rows) and enqueues each org's
 * fold job, FOLD_DELAY_MS ahead by the database's clock, in the same transaction. The
 * transaction runs as the API role, like every API transaction. Hits of orgs that do not exist
 * are dropped. Answers the orgs appended to.
 */
export async function appendHits(sql: postgres.Sql, hits: readonly TrackingHit[]): Promise<number[]> {
  if (hits.length === 0) return [];
  return sql.begin(async (tx) => {
    await tx.unsafe(`select set_config('role', '${API_ROLE}', true)`);
    const orgs = await tx<{ org: number; run_at: Date }[]>`
      select org, clock_timestamp() + ${FOLD_DELAY_MS} * interval '1 millisecond' as run_at
        from cadence_system.append_tracking_hits(${hits.map((h) => h.orgId)}::int8[], ${hits.map((h) => h.mailingId)}::int8[],
                                                 ${hits.map((h) => h.kind)}::text[], ${hits.map((h) => h.at.toISOString())}::timestamptz[]) as org`;
    await enqueueJobs(
      tx,
      orgs.map((o) => foldJob(o.org, o.run_at)),
    );
    return orgs.map((o) => o.org);
  });
}

/** The hits of one mailing in a claimed set, counted. */
export interface MailingHits {
  readonly mailingId: number;
  readonly opens: number;
  readonly clicks: number;
  /** The first open's and the first click's time (ISO 8601), when the set has one. */
  readonly firstOpenAt: string | undefined;
  readonly firstClickAt: string | undefined;
  /** The kind of the set's first hit on the mailing: a click first may be the mailing's open. */
  readonly firstKind: HitKind;
}

interface ClaimedRow {
  mailing_id: number;
  opens: number;
  clicks: number;
  first_open_at: Date | null;
  first_click_at: Date | null;
  first_kind: HitKind;
}

/**
 * Claims and deletes up to `limit` of the org's oldest hits, in the caller's org-scoped
 * transaction, and answers them counted per mailing (in mailing id order). Rows another fold
 * has claimed are skipped, not waited for. The delete commits with the counts written from it,
 * or rolls back with them: a hit is counted exactly once. The claimed ids are deleted by key
 * (`= any(array(...))`), not by a semi-join, whose plan a young org's statistics can make
 * quadratic (see claimDueSteps).
 */
export async function claimHits(tx: Transaction, orgId: number, limit: number): Promise<MailingHits[]> {
  const rows = await tx<ClaimedRow[]>`
    with claimed as (
      delete from tracking_hits h
       where h.org_id = ${orgId}
         and h.id = any(array(select id from tracking_hits where org_id = ${orgId} order by id limit ${limit} for update skip locked))
      returning h.id, h.mailing_id, h.kind, h.hit_at
    )
    select mailing_id,
           (count(*) filter (where kind = 'open'))::int as opens,
           (count(*) filter (where kind = 'click'))::int as clicks,
           min(hit_at) filter (where kind = 'open') as first_open_at,
           min(hit_at) filter (where kind = 'click') as first_click_at,
           (array_agg(kind order by hit_at, id))[1] as first_kind
      from claimed group by mailing_id order by mailing_id`;
  return rows.map((r) => ({
    mailingId: r.mailing_id,
    opens: r.opens,
    clicks: r.clicks,
    firstOpenAt: r.first_open_at?.toISOString(),
    firstClickAt: r.first_click_at?.toISOString(),
    firstKind: r.first_kind,
  }));
}

/**
 * When hits of the org are left that the caller's transaction did not claim (held by another
 * fold's transaction, which may yet roll back, or appended since), the run-at of a fold to pick
 * them up: FOLD_DELAY_MS ahead by the database's clock, as appendHits schedules. Undefined when
 * none are left. The caller's own claimed hits are deleted, so it does not see them.
 */
export async function foldAgainAt(tx: Transaction, orgId: number): Promise<Date | undefined> {
  const [row] = await tx<{ run_at: Date }[]>`
    select clock_timestamp() + ${FOLD_DELAY_MS} * interval '1 millisecond' as run_at
     where exists (select 1 from tracking_hits where org_id = ${orgId})`;
  return row?.run_at;
}
