import type postgres from 'postgres';
import type { OrgTime } from '../tenancy/org-time.js';

/**
 * The test clock of sandbox mode (issue #28): each org's time can be moved forward, so that an
 * integration sees in seconds what a sequence, a send or a resume does days later. An org's time
 * is real time plus its offset (cadence_system.sandbox_clocks, 0 without a row); requests and jobs
 * for the org run in it (tenancy/org-time.ts), so the times the service writes for the org and
 * what it finds due are by it. Stored due times are in the org's time; graphile-worker's run_at
 * is real time, which is why advancing moves the org's pending jobs earlier too.
 */

/** The longest one advance may move an org's clock: ten years. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 60 * 60;

export interface SandboxClockState {
  readonly orgId: number;
  /** The org's time when read. */
  readonly now: Date;
  readonly offsetSeconds: number;
}

/** The org's offset, one indexed read (sandbox mode only: outside it no one asks). */
export async function orgOffsetSeconds(sql: postgres.Sql | postgres.TransactionSql, orgId: number): Promise<number> {
  const [row] = await sql<{ offset_seconds: string }[]>`select offset_seconds from cadence_system.sandbox_clocks where org_id = ${orgId}`;
  return row ? Number(row.offset_seconds) : 0;
}

/** What `runInOrgTime` needs to work for the org in its time. */
export async function orgTimeOf(sql: postgres.Sql, orgId: number): Promise<OrgTime> {
  return { orgId, offsetMs: (await orgOffsetSeconds(sql, orgId)) * 1000 };
}

/** The org's clock as shown by GET /api/v2/sandbox/clock and `cadence clock show`. */
export async function readSandboxClock(sql: postgres.Sql, orgId: number, realNow: Date): Promise<SandboxClockState> {
  const offsetSeconds = await orgOffsetSeconds(sql, orgId);
  return { orgId, offsetSeconds, now: new Date(realNow.getTime() + offsetSeconds * 1000) };
}

/**
 * Moves the org's clock `seconds` forward, in one transaction: its offset grows, and its jobs
 * waiting for a time (sequence step runners, sends, out-of-office resumes, compliance retries: every
 * job whose payload names the org) move as much earlier, never before now, so that what is due by
 * the new time runs at once. A job that is running keeps its run-at. Jobs of other orgs, and the
 * deployment's own (crontab), are left alone. Workers are woken as for new jobs.
 */
export async function advanceSandboxClock(sql: postgres.Sql, orgId: number, seconds: number, realNow: Date): Promise<SandboxClockState> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ offset_seconds: string }[]>`
      insert into cadence_system.sandbox_clocks (org_id, offset_seconds) values (${orgId}, ${seconds})
      on conflict (org_id) do update set offset_seconds = sandbox_clocks.offset_seconds + excluded.offset_seconds
      returning offset_seconds`;
    const moved = await tx`
      update graphile_worker._private_jobs
         set run_at = greatest(now(), run_at - ${seconds} * interval '1 second')
       where locked_at is null and run_at > now() and json_typeof(payload) = 'object' and payload ->> 'orgId' = ${String(orgId)}`;
    if (moved.count > 0) await tx`select pg_notify('jobs:insert', ${JSON.stringify({ r: Math.random(), count: moved.count })})`;
    const offsetSeconds = Number(row!.offset_seconds);
    return { orgId, offsetSeconds, now: new Date(realNow.getTime() + offsetSeconds * 1000) };
  });
}
