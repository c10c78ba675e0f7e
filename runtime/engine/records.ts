import type { Transaction } from '../tenancy/index.js';
import type { RecordPresence } from './behaviour.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import type { Row } from './render.js';
import type { ResourceStatements } from './statements.js';

/**
 * What the engine knows of the resources a write or read may touch: the catalog of
 * descriptors and statements, the references to clear on delete, and single-record reads.
 * Writes go through the record writer (record-writer/).
 */

/** Finds references no schema declares (custom objects' relationships), inside the transaction. */
export type DynamicReferences = (tx: Transaction, orgId: number, type: string) => Promise<readonly Reference[]>;

/** Whether a record of a type no descriptor declares (a custom object) exists, inside the transaction. */
export type DynamicRecords = (tx: Transaction, orgId: number, type: string, id: number) => Promise<RecordPresence>;

/** Descriptors and statements of every resource, so one write can touch another resource. */
export interface ResourceCatalog {
  has(type: string): boolean;
  entry(type: string): { readonly descriptor: ResourceDescriptor; readonly statements: ResourceStatements };
}

/** A table.column that points at a resource type, nulled when its target is deleted. */
export interface Reference {
  readonly table: string;
  readonly column: string;
  readonly touchesUpdatedAt: boolean;
  /** For a shared table: the predicate selecting the referring resource's rows. */
  readonly partition?: { readonly column: string; readonly value: number };
}

/** Reads one record of the org, or undefined. */
export async function findRecord(tx: Transaction, orgId: number, statements: ResourceStatements, id: number): Promise<Row | undefined> {
  const [row] = await tx.unsafe<Row[]>(statements.getOne, [orgId, id], { prepare: true });
  return row;
}
