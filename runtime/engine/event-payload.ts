/**
 * Created events are stored without their null values and read back with them. A prospect has
 * about 220 attributes, mostly null on create: storing every one made each created event about
 * 6 KB of JSON, the largest single cost of a bulk write (issue #26). The resource's descriptor
 * says which attributes and to-one relationships a snapshot has, so whoever reads an event
 * (GET /api/v2/events, webhook deliveries) gets back exactly the snapshot the write took.
 */
import type { ResourceDescriptor } from '../model/descriptor.js';
import { toOnes } from '../model/sql-text.js';
import type { Snapshot } from './record-rules.js';

/** An event's payload as stored and served: the snapshot, and for updates the previous values. */
export interface EventPayload {
  readonly data: Snapshot;
  readonly beforeUpdate?: Snapshot;
}

/** What a reader knows of a stored event. */
export interface StoredEventPayload {
  readonly resourceType: string | null;
  readonly action: string | null;
  readonly payload: unknown;
}

/** Only created events are stored compact: an update's snapshot holds just what changed, nulls included. */
export const COMPACT_ACTION = 'created';

/**
 * A stored event's payload as it was taken: a created event's snapshot gets back every attribute
 * and to-one relationship of its resource that is not stored, as null. Other events, events of
 * types `descriptorOf` does not know (external ones an app recorded, custom objects, which are
 * stored whole) and payloads that are not snapshots come back as they are.
 */
export function restoredPayload(descriptorOf: (type: string) => ResourceDescriptor | undefined, event: StoredEventPayload): unknown {
  if (event.action !== COMPACT_ACTION || event.resourceType == null) return event.payload;
  const descriptor = descriptorOf(event.resourceType);
  const payload = event.payload as Partial<EventPayload> | null;
  if (!descriptor || !isSnapshot(payload?.data)) return event.payload;
  const shape = restoreShape(descriptor);
  return {
    ...payload,
    data: {
      ...payload.data,
      attributes: filled(shape.attributes, payload.data.attributes, null),
      relationships: filled(shape.relationships, payload.data.relationships, { data: null }),
    },
  };
}

function isSnapshot(value: unknown): value is Snapshot {
  const s = value as Partial<Snapshot> | null | undefined;
  return typeof s?.attributes === 'object' && s.attributes !== null && typeof s.relationships === 'object' && s.relationships !== null;
}

/**
 * Every name of `names` and `stored`, in jsonb's key order, with the stored value or `missing`.
 * jsonb keeps an object's keys shorter first, then bytewise: a snapshot stored whole came back in
 * that order, so a restored one does too, and a delivery's body has the same bytes as before.
 */
function filled<T>(names: readonly string[], stored: Readonly<Record<string, T>>, missing: NoInfer<T>): Record<string, T> {
  const extra = Object.keys(stored).filter((name) => !names.includes(name));
  const ordered = extra.length === 0 ? names : [...names, ...extra].sort(jsonbKeyOrder);
  const result: Record<string, T> = {};
  for (const name of ordered) result[name] = Object.hasOwn(stored, name) ? stored[name]! : missing;
  return result;
}

function jsonbKeyOrder(a: string, b: string): number {
  const byLength = Buffer.byteLength(a) - Buffer.byteLength(b);
  return byLength !== 0 ? byLength : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

interface RestoreShape {
  readonly attributes: readonly string[];
  readonly relationships: readonly string[];
}

/** A snapshot's names (record-rules.ts `snapshot`), in jsonb's order, once per descriptor. */
const restoreShapes = new WeakMap<ResourceDescriptor, RestoreShape>();

function restoreShape(descriptor: ResourceDescriptor): RestoreShape {
  let shape = restoreShapes.get(descriptor);
  if (!shape) {
    shape = {
      attributes: descriptor.attributes
        .filter((a) => !a.writeOnly)
        .map((a) => a.name)
        .sort(jsonbKeyOrder),
      relationships: toOnes(descriptor)
        .map((r) => r.name)
        .sort(jsonbKeyOrder),
    };
    restoreShapes.set(descriptor, shape);
  }
  return shape;
}
