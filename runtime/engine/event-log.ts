import type { Transaction } from '../tenancy/index.js';
import { orgNowSql } from '../tenancy/org-time.js';
import type { Snapshot } from './record-rules.js';

/** What changed, as the outbox records it and webhooks deliver it. */
export interface ChangeEvent {
  readonly resourceType: string;
  readonly resourceId: number;
  /** `created`, `updated`, `destroyed` or a domain action such as `completed`. */
  readonly action: string;
  /**
   * Created: every value (stored without its nulls for standard resources, see event-payload.ts);
   * updated: the changed values; destroyed: the last known values.
   */
  readonly data: Snapshot;
  /** Updated only: the previous values of what changed. */
  readonly before?: Snapshot;
  /** Whether webhooks may be told (the action is one the resource's schema lists). */
  readonly deliverable: boolean;
}

/** An event as stored: its id is what deliveries refer to. */
export interface RecordedEvent {
  readonly id: number;
  readonly resourceType: string;
  readonly resourceId: number;
  readonly action: string;
}

/**
 * Told of the deliverable events a write recorded, in the write's transaction, so whatever it
 * enqueues commits or rolls back with them. Webhook deliveries are one (runtime/webhooks); the
 * engine does not know who listens.
 */
export type EventSink = (tx: Transaction, orgId: number, now: Date, events: readonly RecordedEvent[]) => Promise<void>;

/**
 * Writes a write's events with one statement, in the caller's transaction (the transactional
 * outbox). Events are themselves the `event` resource; `eventAt` is the transaction's time, as
 * `createdAt` is. Returns the ids in the order of `events`: the rows are inserted in that order
 * (ORDER BY ord), and the id sequence is drawn as rows are inserted, so ascending ids follow it.
 */
export async function recordEvents(tx: Transaction, orgId: number, events: readonly ChangeEvent[]): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = events.map((e) => ({
    name: `${e.resourceType}_${e.action}`,
    action: e.action,
    type: e.resourceType,
    id: e.resourceId,
    payload: { data: e.data, ...(e.before && { beforeUpdate: e.before }) },
  }));
  // The transaction's time; an org's in sandbox mode (tenancy/org-time.ts), which no column default knows of.
  const now = orgNowSql();
  const stamps = now === 'now()' ? '' : `, "created_at", "updated_at"`;
  const inserted = await tx.unsafe<{ id: number }[]>(
    `insert into "events" ("org_id", "name", "action", "resource_type", "resource_id", "payload", "event_at"${stamps})
     select $1, e.value->>'name', e.value->>'action', e.value->>'type', (e.value->>'id')::bigint, e.value->'payload', ${now}${stamps && `, ${now}, ${now}`}
       from jsonb_array_elements($2::jsonb->'rows') with ordinality as e(value, ord)
      order by e.ord
     returning "id"`,
    [orgId, { rows }] as never[],
    { prepare: true },
  );
  return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
}
