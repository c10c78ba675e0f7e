import type { Snapshot } from '../engine/records.js';

/** An event as stored: what a delivery is built from. */
export interface StoredEvent {
  readonly resourceType: string;
  readonly resourceId: number;
  readonly action: string;
  readonly payload: { data: Snapshot; beforeUpdate?: Snapshot };
}

/**
 * The delivery body. Version 1: `{data: {type, id, attributes}, meta: {deliveredAt, eventName}}`;
 * destroyed deliveries also carry the last known relationships. Version 2 adds top-level
 * `beforeUpdate` with the previous values of the changed attributes.
 */
export function deliveryBody(event: StoredEvent, payloadVersion: number, deliveredAt: Date): string {
  const { data, beforeUpdate } = event.payload;
  const resource = {
    type: event.resourceType,
    id: event.resourceId,
    attributes: data.attributes,
    ...(event.action === 'destroyed' && { relationships: data.relationships }),
  };
  const document = {
    data: resource,
    ...(payloadVersion >= 2 &&
      beforeUpdate && { beforeUpdate: { type: event.resourceType, id: event.resourceId, attributes: beforeUpdate.attributes } }),
    meta: { deliveredAt: deliveredAt.toISOString(), eventName: `${event.resourceType}.${event.action}` },
  };
  return JSON.stringify(document);
}
