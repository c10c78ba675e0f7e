/**
 * What every step of the record writer shares: the writer's options, and one call of `write`
 * as the steps see it (its scope, the catalog its types resolve in, its time), and a record on
 * its way through them.
 */
import type { Behaviours } from '../behaviour.js';
import type { EventSink } from '../event-log.js';
import type { DynamicRecords, DynamicReferences, Reference, ResourceCatalog } from '../records.js';
import type { Row } from '../render.js';
import type { RecordWriter, UpdateChanges, WriteOperation, WriteScope } from '../write-operations.js';

export interface RecordWriterOptions {
  /** The standard resources; a write for an org with custom objects passes its own catalog. */
  readonly catalog: ResourceCatalog;
  readonly behaviours: Behaviours;
  /** The time every write is made at; injectable so time-dependent rules can be tested. */
  readonly clock: () => Date;
  /** Told of deliverable events in the write's transaction (webhook deliveries). */
  readonly eventSink: EventSink;
  /** The standard resources' to-one relationships to a type: cleared, with events, when its records are deleted. */
  readonly referencesTo: (type: string) => readonly Reference[];
  /** References no schema declares (custom objects' relationships), cleared the same way. */
  readonly dynamicReferences?: DynamicReferences;
  /** Records of types no catalog declares (custom objects), for behaviours' checks. */
  readonly dynamicRecords?: DynamicRecords;
}

/** One call of `write`: the scope, the catalog its types resolve in, and its time. */
export interface SetWrite extends WriteScope {
  readonly options: RecordWriterOptions;
  readonly writer: RecordWriter;
  readonly catalog: ResourceCatalog;
  readonly now: Date;
  readonly isolated: boolean;
}

/** A set write in `scope`, made now; `isolated` unless the scope says otherwise when `isolatedByDefault`. */
export function setWriteOf(options: RecordWriterOptions, writer: RecordWriter, scope: WriteScope, isolatedByDefault: boolean): SetWrite {
  return { ...scope, options, writer, catalog: scope.catalog ?? options.catalog, now: options.clock(), isolated: scope.isolated ?? isolatedByDefault };
}

/** The scope of a write that behaviours make from within this one: its transaction, org, actor and catalog. */
export function innerScope(set: SetWrite): WriteScope {
  return { tx: set.tx, orgId: set.orgId, actor: set.actor, catalog: set.catalog };
}

/** A record ready to be written: its operation, its row before, and its changes with derived values. */
export interface Prepared {
  readonly index: number;
  readonly op: WriteOperation;
  readonly current: Row | null;
  readonly changes: UpdateChanges | null;
}
