import type { ApiError } from '../jsonapi/index.js';
import type { AttributeDescriptor, PolymorphicToOneDescriptor, ResourceIdentifier, ToOneDescriptor } from '../model/descriptor.js';
import type { Transaction } from '../tenancy/index.js';
import type { Actor, WriteEffects } from './behaviour.js';
import type { ResourceCatalog } from './records.js';
import type { Row } from './render.js';

/**
 * The vocabulary of the record writer (runtime/engine/record-writer/): what a caller asks it
 * to write and what it answers per operation. Every writer of records speaks it: HTTP handlers
 * (a set of one), bulk upserts, bulk actions, imports, jobs.
 */

/** Attribute values and to-one relationship ids to store, by descriptor. */
export interface Changes {
  readonly attributes: ReadonlyMap<AttributeDescriptor, unknown>;
  readonly relationships: ReadonlyMap<ToOneDescriptor, number | null>;
  /** Polymorphic to-ones' targets (both columns of each). */
  readonly polymorphic?: ReadonlyMap<PolymorphicToOneDescriptor, ResourceIdentifier | null>;
  /** Relationship objects' `meta` as sent (a call's `task` with `meta.complete`). */
  readonly relationshipMeta?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The resource object's `meta` as sent with a create (a user's `sendInvite`). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** An update's changes, with the domain event to record besides `updated` when there is one. */
export interface UpdateChanges extends Changes {
  readonly domainEvent?: string;
  /** The action that made these changes, and its effect for the resource's afterWrite. */
  readonly action?: string;
  readonly effect?: string;
}

export interface CreateOperation {
  readonly kind: 'create';
  /** The resource type: a standard resource or one of the org's custom objects. */
  readonly type: string;
  readonly changes: Changes;
}

export interface UpdateOperation {
  readonly kind: 'update';
  readonly type: string;
  readonly id: number;
  /**
   * The changes, or a function of the record as it is (locked) and the write's time that
   * returns them: an action's handler, bulk upsert's `missing` (fills only empty fields).
   * Empty changes write nothing and record no event.
   */
  readonly changes: UpdateChanges | ((current: Row, now: Date) => UpdateChanges);
}

export interface DeleteOperation {
  readonly kind: 'delete';
  readonly type: string;
  readonly id: number;
}

export type WriteOperation = CreateOperation | UpdateOperation | DeleteOperation;

/**
 * What happened to one operation, in the order the operations were given.
 * - `written`: the row as stored (for a delete, its last values).
 * - `missing`: an update or delete of an id the org has no record of.
 * - `refused`: the record was not written; `error` is a JSON:API error whose pointers point
 *   into that record's own body (`/data/attributes/<name>`). Its neighbours are unaffected.
 */
export type WriteOutcome = { readonly status: 'written'; readonly row: Row } | { readonly status: 'missing' } | { readonly status: 'refused'; readonly error: ApiError };

/** Who writes, for which org, in which transaction (org-scoped: see runtime/tenancy). */
export interface WriteScope {
  readonly tx: Transaction;
  readonly orgId: number;
  readonly actor: Actor;
  /**
   * The org's resources when it has custom objects (CustomObjectRegistry.forOrg(...).catalog);
   * the standard resources when absent.
   */
  readonly catalog?: ResourceCatalog;
  /**
   * Whether what PostgreSQL refuses (a value out of a column's range) comes back as that
   * record's refusal, found under savepoints, rather than as the write's error. Sets of more
   * than one are isolated by default; a single HTTP write is not, as its failure is the request's.
   */
  readonly isolated?: boolean;
}

/**
 * Writes sets of records with one statement per table per set, their events in one statement
 * and their jobs in one call, all in the caller's transaction. One `write` call is one chunk:
 * callers with many records (bulk jobs) split them into chunks of about a thousand.
 */
export interface RecordWriter {
  write(scope: WriteScope, operations: readonly WriteOperation[]): Promise<WriteOutcome[]>;
  /**
   * What behaviours' afterWrite hooks get, for work that starts outside a write (a sequence
   * step job): reading records by name and writing through this writer, in `scope`'s transaction.
   */
  effects(scope: WriteScope): WriteEffects;
}
