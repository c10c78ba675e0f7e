import type { Snapshot } from '../engine/record-rules.js';

/** An event as stored: what a delivery is built from. */
export interface StoredEvent {
  /** The event's id in the `events` table (GET /api/v2/events/<id>). */
  readonly id: number;
  readonly resourceType: string;
  readonly resourceId: number;
  readonly action: string;
  readonly payload: { data: Snapshot; beforeUpdate?: Snapshot };
}

/**
 * The delivery body. Version 1: `{data: {type, id, attributes}, meta: {deliveredAt, eventName,
 * eventId}}`; destroyed deliveries also carry the last known relationships. Version 2 adds
 * top-level `beforeUpdate` with the previous values of the changed attributes. `eventId` (not in
 * SPEC.md, which leaves receivers no way to spot a repeat) is the same on every retry and on a
 * re-run after a worker crash, while `deliveredAt` is not: receivers deduplicate by it.
 * `jobId` names the delivery (this event to this webhook) just as stably; clients of the real
 * service's webhooks deduplicate by it.
 */
export function deliveryJobId(eventId: number, webhookId: number): string {
  return `${eventId}-${webhookId}`;
}

export function deliveryBody(event: StoredEvent, payloadVersion: number, deliveredAt: Date, jobId: string): string {
  const { data, beforeUpdate } = event.payload;
  const resource = {
    type: event.resourceType,
    id: event.resourceId,
    attributes: data.attributes,
    ...(event.action === 'destroyed' && { relationships: data.relationships }),
  };
  const document = {
    data: resource,
    ...(payloadVersion >= 2 && beforeUpdate && { beforeUpdate: { type: event.resourceType, id: event.resourceId, attributes: beforeUpdate.attributes } }),
    meta: { deliveredAt: deliveredAt.toISOString(), eventName: `${event.resourceType}.${event.action}`, eventId: event.id, jobId },
  };
  return JSON.stringify(document);
}
