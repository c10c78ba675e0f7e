import type { Transaction } from '../tenancy/index.js';
import type { RecordPresence } from './behaviour.js';
import type { PolymorphicToOneDescriptor, ResourceDescriptor, ToOneDescriptor } from '../model/descriptor.js';
import type { Row } from './render.js';
import type { ResourceStatements } from './statements.js';

/**
 * What the engine knows of the resources a write or read may touch: the catalog of
 * descriptors and statements, the references to clear on delete, and single-record reads.
 * Writes go through the record writer (record-writer/).
 */

/**
 * Finds references no schema declares (custom objects' relationships), inside the transaction,
 * with the catalog their resources resolve in; undefined when there are none.
 */
export type DynamicReferences = (tx: Transaction, orgId: number, type: string) => Promise<DynamicReferenceSet | undefined>;

/** References to a type that the org's own resources make, and the catalog that has those resources. */
export interface DynamicReferenceSet {
  readonly references: readonly Reference[];
  readonly catalog: ResourceCatalog;
}

/** Whether a record of a type no descriptor declares (a custom object) exists, inside the transaction. */
export type DynamicRecords = (tx: Transaction, orgId: number, type: string, id: number) => Promise<RecordPresence>;

/** Descriptors and statements of every resource, so one write can touch another resource. */
export interface ResourceCatalog {
  has(type: string): boolean;
  entry(type: string): { readonly descriptor: ResourceDescriptor; readonly statements: ResourceStatements };
}

/**
 * A to-one relationship of a resource that points at a type: when records of the type are
 * deleted, the records referring to them are updated to point at nothing (record-writer/references.ts).
 */
export interface Reference {
  /** The referring resource. */
  readonly descriptor: ResourceDescriptor;
  /** A polymorphic to-one refers to the type when its type column names it. */
  readonly relationship: ToOneDescriptor | PolymorphicToOneDescriptor;
}

/** Reads one record of the org, or undefined. */
export async function findRecord(tx: Transaction, orgId: number, statements: ResourceStatements, id: number): Promise<Row | undefined> {
  const [row] = await tx.unsafe<Row[]>(statements.getOne, [orgId, id], { prepare: true });
  return row;
}
