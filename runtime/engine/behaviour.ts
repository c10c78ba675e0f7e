import type { FieldError } from '../jsonapi/index.js';
import type { AttributeDescriptor } from '../model/descriptor.js';
import type { Transaction } from '../tenancy/index.js';
import type { Row } from './render.js';
import type { CreateOperation, UpdateOperation, WriteOperation, WriteOutcome } from './write-operations.js';

/**
 * What a resource does beyond storing what clients send: values the service maintains and
 * actions. Behaviours live in runtime/behaviours/, keyed by type; a resource without one is
 * plain storage. Behaviours speak attribute names, never SQL.
 */
export interface ResourceBehaviour {
  /**
   * Values the service maintains, computed from the record as it will be after the write
   * (`next`: attributes and to-one relationship ids by name) and before it (`previous`, null on
   * create). A derived key naming a to-one relationship sets that relationship.
   */
  readonly derive?: (next: Readonly<Record<string, unknown>>, previous: Row | null, write: WriteContext) => Record<string, unknown>;
  /**
   * The attributes and to-one relationships `derive` may set: checked against the schema at
   * start-up, and a derived name not listed here is a programming error.
   */
  readonly derives?: readonly string[];
  /**
   * Checks a create or update against other records of the org, in the write's transaction and
   * before anything is stored (`next` and `previous` as for `derive`). Each problem found is a
   * field error; any makes the request a 422.
   */
  readonly check?: (next: Readonly<Record<string, unknown>>, previous: Row | null, records: RecordLookup) => Promise<readonly FieldError[]>;
  /** Shapes a row for one viewer before it is rendered, e.g. redacting secrets. */
  readonly present?: (row: Row, viewer: Viewer) => Row;
  readonly actions?: Readonly<Record<string, ActionHandler>>;
  /** Attributes never copied into events (their value shows as "[REDACTED]"). */
  readonly sensitiveAttributes?: readonly string[];
  /** Runs after a create in the same transaction, e.g. a call completing its task. */
  readonly afterCreate?: (created: AfterCreate) => Promise<void>;
  /**
   * Rules over a whole set of writes of this resource, with other records in view: runs once
   * per set, after the per-record checks, with the records those passed (creates, updates and
   * deletes alike). Answers one review per write, in order: problems refuse that record alone
   * (422), changes are added to it (names from `derives`). Reads one statement per question, not
   * per record: a bulk write brings a thousand records at once.
   */
  readonly review?: (writes: readonly ReviewedWrite[], records: RecordReader, write: WriteContext) => Promise<readonly Review[]>;
  /**
   * What a written set sets in motion, in the same transaction and after its events: other
   * records' writes through the same writer, jobs. Runs once per set with the written records,
   * whose rows are views to read by name (record-writer/record-reader.ts namedView).
   */
  readonly afterWrite?: (written: readonly WrittenRecord[], effects: WriteEffects) => Promise<void>;
  /**
   * Runs before records of this resource are deleted, with their rows, in the same transaction:
   * what depends on them and cannot simply lose the reference (a prospect's running sequence
   * states finish).
   */
  readonly beforeDelete?: (rows: readonly Row[], effects: WriteEffects) => Promise<void>;
  /** Writes of this resource record no event: the events resource, whose records are events. */
  readonly unrecorded?: boolean;
}

export interface AfterCreate {
  readonly row: Row;
  /** The created record's to-one relationship ids, by relationship name. */
  readonly relationshipIds: Readonly<Record<string, number | null>>;
  /** Relationship objects' `meta` as sent, by relationship name. */
  readonly relationshipMeta: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly now: Date;
  /** Applies an action of another resource to one of its records, through the same write path. */
  readonly runAction: (type: string, id: number, action: string) => Promise<void>;
}

/** Whether a record exists in the org; `unknownType` when the org has no resource of that type. */
export type RecordPresence = 'found' | 'missing' | 'unknownType';

/** What a behaviour's check may ask about other records, inside the write's transaction. */
export interface RecordLookup {
  presence(type: string, id: number): Promise<RecordPresence>;
  /** The webhook actions records of `type` emit; undefined when the org has no such type. */
  webhookActions(type: string): Promise<readonly string[] | undefined>;
}

/** One write of a set as `review` sees it; `next` is null for a delete. */
/** `next` and `previous` are views over the stored row (record-writer/record-reader.ts namedView): read them by name. */
export interface ReviewedWrite {
  readonly kind: 'create' | 'update' | 'delete';
  readonly next: Readonly<Record<string, unknown>> | null;
  readonly previous: Row | null;
  /** The action being applied, for updates made by one (`lock`, `markComplete`). */
  readonly action?: string;
}

export interface Review {
  readonly problems?: readonly FieldError[];
  /** Values to store besides the write's own, by attribute or to-one relationship name. */
  readonly changes?: Readonly<Record<string, unknown>>;
}

/** What a behaviour may read of the org's records, by attribute names, in the write's transaction. */
export interface RecordReader extends RecordLookup {
  /** The records of `type` among `ids`, by id (attributes and to-one relationship ids by name). */
  rows(type: string, ids: Iterable<number>): Promise<Map<number, Row>>;
  /**
   * The records of `type` whose every named attribute or to-one relationship has one of the
   * values given, in id order.
   */
  find(type: string, where: Readonly<Record<string, readonly (string | number | boolean)[]>>): Promise<Row[]>;
  /**
   * Makes concurrent writes that decide on the same keys of `scope` (a prospect's enrolments)
   * take turns: each holds its keys until its transaction ends, so what one reads before
   * writing cannot be changed by another in between.
   */
  serialize(scope: string, keys: Iterable<number>): Promise<void>;
}

/** A record as a set wrote it, for `afterWrite`. */
export interface WrittenRecord {
  readonly kind: 'create' | 'update' | 'delete';
  /** The row as stored; for a delete, its last values. */
  readonly row: Row;
  readonly previous: Row | null;
  /** Names whose values the write changed (updates). */
  readonly changed: ReadonlySet<string>;
  /** The action applied, for updates made by one. */
  readonly action?: string;
  /** The action's `effect`, when it gave one. */
  readonly effect?: string;
  /** A create's resource object `meta` as sent (a user's `sendInvite`); absent when none was. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** What `afterWrite` may do: read, write other records through the same writer, enqueue jobs. */
export interface WriteEffects extends WriteContext {
  /** The write's transaction, for jobs (runtime/jobs) enqueued with what they follow from. */
  readonly tx: Transaction;
  readonly records: RecordReader;
  /** Writes a set through the same writer, in the same transaction; see RecordWriter.write. */
  write(operations: readonly WriteOperation[]): Promise<WriteOutcome[]>;
  /**
   * Writes any number of operations a thousand per set, as bulk jobs write them (a sequence
   * deactivated with 100,000 states), ignoring the outcomes.
   */
  writeInChunks(operations: readonly WriteOperation[]): Promise<void>;
  /** The update applying another resource's action to a record, for `write`. */
  action(type: string, id: number, action: string, params?: ReadonlyMap<string, string>, effect?: string): UpdateOperation;
  /** The update setting values by attribute or to-one relationship name, with a domain event (`advanced`). */
  update(type: string, id: number, values: Readonly<Record<string, unknown>>, domainEvent?: string): UpdateOperation;
  /** The create of a record with values by attribute or to-one relationship name. */
  create(type: string, values: Readonly<Record<string, unknown>>): CreateOperation;
}

/** Who makes a write: a user, or an application acting alone (server-to-server). */
export interface Actor {
  readonly userId: number | null;
  readonly appId: string | null;
  readonly appName: string | null;
}

/** The service itself (CLI, jobs): no user, no app. */
export const SERVICE_ACTOR: Actor = { userId: null, appId: null, appName: null };

export interface WriteContext {
  readonly orgId: number;
  readonly now: Date;
  readonly actor: Actor;
}

/** Who a response is for, and what it answers. */
export interface Viewer {
  readonly admin: boolean;
  readonly userId: number | null;
  /** The application acting, for app tokens; null for users' own tokens. */
  readonly appId: string | null;
  /** When the response is made (the engine's clock), for states that lapse, such as a webhook's disabling. */
  readonly now: Date;
  /** The response to the request that created this record: its creator sees what is returned only on creation. */
  readonly creating?: boolean;
}

export interface ActionRequest {
  readonly record: Row;
  /** `actionParams[<name>]` values, already checked against the action's declared params. */
  readonly params: ReadonlyMap<string, string>;
  readonly now: Date;
}

export interface ActionResult {
  /** Attribute changes to apply through the ordinary update path (read-only ones included). */
  readonly changes: Readonly<Record<string, unknown>>;
  /** A domain event to record besides `updated`, e.g. `completed`. */
  readonly event?: string;
  /**
   * What the resource's `afterWrite` should set in motion beyond the changes, when the action's
   * parameters decide it (markComplete's completionAction: advance or finish the sequence state).
   */
  readonly effect?: string;
}

/** An action of a resource, as the schema declares it (descriptor.actions). */
export interface ActionHandler {
  /** The attributes and to-one relationships `handle` may change, checked like `derives`. */
  readonly changes: readonly string[];
  handle(request: ActionRequest): ActionResult;
}

export type Behaviours = ReadonlyMap<string, ResourceBehaviour>;

/** Looks attribute descriptors up by name for behaviours' changes. */
export function attributeByName(attributes: readonly AttributeDescriptor[], name: string): AttributeDescriptor {
  const found = attributes.find((a) => a.name === name);
  if (!found) throw new Error(`behaviour refers to unknown attribute ${name}`);
  return found;
}
