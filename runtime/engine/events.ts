import type { Transaction } from '../tenancy/index.js';
import type { Snapshot } from './records.js';
import { enqueueDeliveries } from '../webhooks/matching.js';

/** What changed, as the outbox records it and webhooks (later) deliver it. */
export interface ChangeEvent {
  readonly orgId: number;
  readonly resourceType: string;
  readonly resourceId: number;
  /** `created`, `updated`, `destroyed` or a domain action such as `completed`. */
  readonly action: string;
  /** Created: every value; updated: the changed values; destroyed: the last known values. */
  readonly data: Snapshot;
  /** Updated only: the previous values of what changed. */
  readonly before?: Snapshot;
  /** Whether webhooks may be told (the action is one the resource's schema lists). */
  readonly deliverable: boolean;
  readonly now: Date;
}

/**
 * Writes the event in the caller's transaction, so a change and its event commit or roll back
 * together (the transactional outbox). Events are themselves the `event` resource. The change
 * happens as it is recorded, so `eventAt` is the transaction's time, as `createdAt` is.
 */
export async function recordEvent(tx: Transaction, event: ChangeEvent): Promise<void> {
  const payload = { data: event.data, ...(event.before && { beforeUpdate: event.before }) };
  const [row] = await tx.unsafe<{ id: number }[]>(
    `insert into "events" ("org_id", "name", "action", "resource_type", "resource_id", "payload", "event_at") values ($1, $2, $3, $4, $5, $6::jsonb, now()) returning "id"`,
    [event.orgId, `${event.resourceType}_${event.action}`, event.action, event.resourceType, event.resourceId, payload] as never[],
    { prepare: true },
  );
  if (event.deliverable) {
    await enqueueDeliveries(tx, { orgId: event.orgId, eventId: row!.id, resourceType: event.resourceType, action: event.action, now: event.now });
  }
}
