import type { Transaction } from '../tenancy/index.js';

/** What changed, as the outbox records it and webhooks (later) deliver it. */
export interface ChangeEvent {
  readonly orgId: number;
  readonly resourceType: string;
  readonly resourceId: number;
  /** `created`, `updated`, `destroyed` or a domain action such as `completed`. */
  readonly action: string;
  /** Created/updated: the written attributes; destroyed: the last known attributes and relationships. */
  readonly data: Record<string, unknown>;
  /** Updated only: the previous values of the changed attributes. */
  readonly before?: Record<string, unknown>;
}

/**
 * Writes the event in the caller's transaction, so a change and its event commit or roll back
 * together (the transactional outbox). Events are themselves the `event` resource.
 */
export async function recordEvent(tx: Transaction, event: ChangeEvent): Promise<void> {
  const payload = { data: event.data, ...(event.before && { beforeUpdate: event.before }) };
  await tx.unsafe(
    `insert into "events" ("org_id", "name", "action", "resource_type", "resource_id", "payload") values ($1, $2, $3, $4, $5, $6::jsonb)`,
    [event.orgId, `${event.resourceType}_${event.action}`, event.action, event.resourceType, event.resourceId, payload] as never[],
    { prepare: true },
  );
}
