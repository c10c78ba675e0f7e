import type postgres from 'postgres';
import { orgScopedTransaction } from '../tenancy/index.js';

/** An event row as `cadence listen` reads it, payload as stored (restoredPayload puts nulls back). */
export interface ListenedEventRow {
  readonly id: number;
  readonly resourceType: string;
  readonly resourceId: number;
  readonly action: string;
  readonly payload: unknown;
}

/** The most events one poll reads; the rest are read by the next poll, none skipped. */
export const EVENTS_PER_POLL = 500;

/** What a poll learned of the database besides the rows: its snapshot's bounds and the largest id it saw. */
interface PollSnapshot {
  /** The oldest transaction still running when the snapshot was taken (pg_snapshot_xmin). */
  readonly xmin: bigint;
  /** The first transaction id not yet assigned then (pg_snapshot_xmax). */
  readonly xmax: bigint;
  /** The largest event id of the org visible in that snapshot, or null for none. */
  readonly maxId: number | null;
}

interface Row {
  snapshot: string;
  max_id: string | null;
  id: string | null;
  resource_type: string | null;
  resource_id: number | null;
  action: string | null;
  payload: unknown;
}

/** A mark: the largest visible id of a past snapshot, usable as a floor once every transaction then running has ended. */
interface Mark {
  readonly xmax: bigint;
  readonly maxId: number;
}

/**
 * A commit-safe cursor over one org's events, for `cadence listen`: each event that commits
 * after start() is returned by exactly one next(), whatever order transactions commit in.
 *
 * Event ids come from an identity column, drawn when the row is inserted, not when its
 * transaction commits: a write that drew id 10 may commit after one that drew id 11, so "ids
 * above the last one seen" would skip 10. The cursor keeps instead a floor and the ids above it
 * it has already returned. Every poll reads, in one statement and so one snapshot, the org's
 * visible events above the floor that it has not returned yet, the snapshot itself
 * (pg_current_snapshot) and the largest visible id. The floor only rises to a past snapshot's
 * largest visible id once every transaction that was running at that snapshot has ended (the
 * current snapshot's xmin has passed that snapshot's xmax): a transaction that gets its id
 * later cannot insert an event below that id, since a record write writes its record, and so
 * has its transaction id, before it draws its events' ids (runtime/engine/record-writer/waves.ts),
 * and ids are drawn in increasing order. A subtransaction (a savepoint of a bulk write) counts
 * through its top-level transaction, which the snapshot lists.
 *
 * It adds nothing to the write path: no trigger, no extra write per event. What it costs is a
 * window: while any transaction of the database cluster stays open, the floor stays below the
 * events committed since, and each poll re-reads their ids (not their payloads).
 */
export class ListenCursor {
  private floor = 0;
  /** Ids above the floor already returned (or, for those of start(), already there). */
  private readonly seen = new Set<number>();
  /** Past snapshots whose largest id becomes the floor once their running transactions have ended, oldest first. */
  private marks: Mark[] = [];

  constructor(
    private readonly sql: postgres.Sql,
    private readonly orgId: number,
  ) {}

  /**
   * Sets the cursor at "now": events committed before it returns are never returned. It first
   * waits for the transactions running when it was called to end, since events they insert may
   * have ids below those already visible. `waiting` is told once if there are some.
   */
  async start(waiting: (running: number) => void, stopped: () => boolean): Promise<void> {
    const first = await this.poll(0);
    const maxId = first.snapshot.maxId ?? 0;
    let told = false;
    for (let current = first.snapshot; current.xmin < first.snapshot.xmax;) {
      if (stopped()) return;
      if (!told) {
        waiting(Number(first.snapshot.xmax - current.xmin));
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      current = await this.currentSnapshot();
    }
    this.floor = maxId;
    // What committed in the meantime is there already, not news: read its ids and drop them.
    for (;;) {
      const { rows } = await this.poll(this.floor);
      for (const row of rows) this.seen.add(row.id);
      if (rows.length < EVENTS_PER_POLL) break;
    }
    this.marks = [];
  }

  /** The events committed since the last call (or start()), in id order. */
  async next(): Promise<ListenedEventRow[]> {
    const { snapshot, rows } = await this.poll(this.floor);
    for (const row of rows) this.seen.add(row.id);
    this.advance(snapshot, rows.length === EVENTS_PER_POLL ? rows.at(-1)!.id : undefined);
    return rows;
  }

  /** Raises the floor to the newest mark whose running transactions have all ended, and marks this snapshot. */
  private advance(snapshot: PollSnapshot, lastReadOfTruncated: number | undefined): void {
    let floor = this.floor;
    while (this.marks.length > 0 && this.marks[0]!.xmax <= snapshot.xmin) floor = Math.max(floor, this.marks.shift()!.maxId);
    // A poll cut short by EVENTS_PER_POLL left visible events above its last row unread.
    if (lastReadOfTruncated !== undefined) floor = Math.min(floor, lastReadOfTruncated);
    if (floor > this.floor) {
      this.floor = floor;
      for (const id of this.seen) if (id <= floor) this.seen.delete(id);
    }
    // A mark no higher than the last one would only ever raise the floor later to the same id.
    const last = this.marks.at(-1)?.maxId ?? this.floor;
    if (snapshot.maxId !== null && snapshot.maxId > last) this.marks.push({ xmax: snapshot.xmax, maxId: snapshot.maxId });
  }

  private async currentSnapshot(): Promise<PollSnapshot> {
    const [row] = await this.sql<{ snapshot: string }[]>`select pg_current_snapshot()::text as snapshot`;
    return { ...bounds(row!.snapshot), maxId: null };
  }

  /** One statement, so one snapshot: the snapshot, the largest visible id, and the unseen events above `floor`. */
  private poll(floor: number): Promise<{ snapshot: PollSnapshot; rows: ListenedEventRow[] }> {
    return orgScopedTransaction(
      this.sql,
      this.orgId,
      async (tx) => {
        const rows = await tx.unsafe<Row[]>(
          `with s as (select pg_current_snapshot()::text as snapshot, (select max(id) from events where org_id = $1) as max_id)
           select s.snapshot, s.max_id, e.id, e.resource_type, e.resource_id, e.action, e.payload
             from s left join lateral (
               select id, resource_type, resource_id, action, payload from events
                where org_id = $1 and id > $2 and id <> all($3::bigint[])
                order by id limit $4) e on true
            order by e.id`,
          [this.orgId, floor, [...this.seen], EVENTS_PER_POLL] as never[],
          { prepare: true },
        );
        const [first] = rows;
        const snapshot = { ...bounds(first!.snapshot), maxId: first!.max_id === null ? null : Number(first!.max_id) };
        const events = rows
          .filter((r) => r.id !== null)
          .map((r) => ({ id: Number(r.id), resourceType: r.resource_type!, resourceId: Number(r.resource_id), action: r.action!, payload: r.payload }));
        return { snapshot, rows: events };
      },
      { readOnly: true },
    );
  }
}

/** pg_snapshot's text form is `xmin:xmax:xip,…`. */
function bounds(text: string): { xmin: bigint; xmax: bigint } {
  const [xmin, xmax] = text.split(':');
  return { xmin: BigInt(xmin!), xmax: BigInt(xmax!) };
}
