import type { Transaction } from '../tenancy/index.js';
import { validationError } from '../jsonapi/index.js';
import type { ActionHandler, Actor, Behaviours, RecordPresence } from './behaviour.js';
import type { AttributeDescriptor, ResourceDescriptor, ToOneDescriptor } from '../model/descriptor.js';
import { recordEvent, type ChangeEvent } from './events.js';
import type { Row } from './render.js';
import { parameterCast, partitionPredicate, quoteIdent, relationshipAlias, selectList, toOnes } from '../model/sql-text.js';
import type { ResourceStatements } from './statements.js';

/**
 * The per-record write path: insert, update and delete one record with its outbox event, in
 * the caller's transaction. HTTP handlers use it today; bulk actions and imports are meant to
 * call the same functions per record, so validation, derived values and events stay one path.
 */

export interface Changes {
  readonly attributes: ReadonlyMap<AttributeDescriptor, unknown>;
  readonly relationships: ReadonlyMap<ToOneDescriptor, number | null>;
  /** Relationship objects' `meta` as sent (a call's `task` with `meta.complete`). */
  readonly relationshipMeta?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

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

export interface RecordContext {
  readonly tx: Transaction;
  readonly orgId: number;
  readonly descriptor: ResourceDescriptor;
  readonly statements: ResourceStatements;
  readonly behaviours: Behaviours;
  readonly catalog: ResourceCatalog;
  readonly now: Date;
  readonly actor: Actor;
  readonly dynamicReferences?: DynamicReferences;
  readonly dynamicRecords?: DynamicRecords;
}

interface Assignment {
  readonly column: string;
  readonly value: unknown;
  readonly cast: string;
}

/** postgres.js serialises by the parameter type PostgreSQL describes (jsonb included). */
function serialise(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** A row's to-one relationship ids by relationship name: how behaviours see relationships. */
function relationshipIdsOf(descriptor: ResourceDescriptor, row: Row | null): Record<string, number | null> {
  const ids: Record<string, number | null> = {};
  for (const rel of toOnes(descriptor)) ids[rel.name] = row ? ((row[relationshipAlias(rel)] as number | null | undefined) ?? null) : null;
  return ids;
}

/** The record as it will be after `changes`: attributes and to-one relationship ids by name. */
function nextValues(descriptor: ResourceDescriptor, changes: Changes, previous: Row | null): Record<string, unknown> {
  const next: Record<string, unknown> = { ...previous, ...relationshipIdsOf(descriptor, previous) };
  for (const [a, value] of changes.attributes) next[a.name] = value;
  for (const [rel, id] of changes.relationships) next[rel.name] = id;
  return next;
}

/** Adds the values the resource's behaviour derives from the record as it will be. */
function withDerived(context: RecordContext, changes: Changes, previous: Row | null): Changes {
  const derive = context.behaviours.get(context.descriptor.type)?.derive;
  if (!derive) return changes;
  const next = nextValues(context.descriptor, changes, previous);
  const derived = derive(next, previous, { orgId: context.orgId, now: context.now, actor: context.actor });
  if (Object.keys(derived).length === 0) return changes;
  const attributes = new Map(changes.attributes);
  for (const a of context.descriptor.attributes) if (Object.hasOwn(derived, a.name)) attributes.set(a, derived[a.name]);
  const relationships = new Map(changes.relationships);
  for (const rel of toOnes(context.descriptor)) if (Object.hasOwn(derived, rel.name)) relationships.set(rel, derived[rel.name] as number | null);
  return { ...changes, attributes, relationships };
}

function assignmentsOf(changes: Changes): Assignment[] {
  const assignments: Assignment[] = [];
  for (const [a, value] of changes.attributes) {
    if (a.name === 'createdAt' || a.name === 'updatedAt') continue;
    assignments.push({ column: a.column, value: serialise(value), cast: parameterCast(a) });
  }
  for (const [rel, id] of changes.relationships) assignments.push({ column: rel.column, value: id, cast: '' });
  return assignments;
}

/** Attributes and to-one relationships of a row, as events record them. */
export interface Snapshot {
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: { type: string; id: number } | null }>;
}

/**
 * The public view of a row for events, limited to `names` when given. Attributes the resource
 * marks sensitive (a webhook's secret) are never copied into events, write-only ones not at all.
 */
function snapshot(context: RecordContext, row: Row, names?: ReadonlySet<string>): Snapshot {
  const { descriptor } = context;
  const sensitive = new Set(context.behaviours.get(descriptor.type)?.sensitiveAttributes ?? []);
  const result: Snapshot = { attributes: {}, relationships: {} };
  for (const a of descriptor.attributes) {
    if (a.writeOnly || (names && !names.has(a.name))) continue;
    result.attributes[a.name] = sensitive.has(a.name) && row[a.name] != null ? '[REDACTED]' : (row[a.name] ?? null);
  }
  for (const rel of descriptor.relationships) {
    if (rel.kind !== 'toOne' || (names && !names.has(rel.name))) continue;
    const id = row[relationshipAlias(rel)] as number | null | undefined;
    result.relationships[rel.name] = { data: id == null ? null : { type: rel.target, id } };
  }
  return result;
}

/** Records a change in the write's transaction, unless the resource's writes record none. */
async function recordChange(context: RecordContext, event: ChangeEvent): Promise<void> {
  if (context.behaviours.get(context.descriptor.type)?.unrecorded) return;
  await recordEvent(context.tx, event);
}

function eventBase(context: RecordContext, resourceId: number, action: string) {
  const { descriptor } = context;
  return {
    orgId: context.orgId,
    resourceType: descriptor.type,
    resourceId,
    action,
    deliverable: descriptor.webhookActions.includes(action),
    now: context.now,
  };
}

/** Names whose value differs between two rows, among those the change wrote. */
function changedNames(changes: Changes, before: Row, after: Row): Set<string> {
  const names = new Set<string>();
  for (const a of changes.attributes.keys()) if (JSON.stringify(before[a.name] ?? null) !== JSON.stringify(after[a.name] ?? null)) names.add(a.name);
  for (const rel of changes.relationships.keys()) if ((before[relationshipAlias(rel)] ?? null) !== (after[relationshipAlias(rel)] ?? null)) names.add(rel.name);
  return names;
}

/** Whether the org has a record `id` of the resource `target` describes. */
async function recordExists(context: RecordContext, target: ResourceDescriptor, id: number): Promise<boolean> {
  const found = await context.tx.unsafe(
    `select 1 from ${quoteIdent(target.table)} where "org_id" = $1 and "id" = $2${partitionPredicate(target)}`,
    [context.orgId, id],
    { prepare: true },
  );
  return found.length > 0;
}

/**
 * Where relationship columns have no foreign keys (custom objects), checks that each target
 * exists in the org, as a foreign key would.
 */
async function checkTargets(context: RecordContext, changes: Changes): Promise<void> {
  if (context.descriptor.foreignKeys !== false) return;
  for (const [rel, id] of changes.relationships) {
    if (id === null) continue;
    if (!(await recordExists(context, context.catalog.entry(rel.target).descriptor, id))) {
      throw validationError([{ pointer: `/data/relationships/${rel.name}`, detail: `${rel.name} refers to a ${rel.target} that does not exist` }]);
    }
  }
}

/** Whether a record of `type` exists in the org, for behaviours' checks; other engines' types (custom objects) too. */
async function presenceOf(context: RecordContext, type: string, id: number): Promise<RecordPresence> {
  if (!context.catalog.has(type)) return (await context.dynamicRecords?.(context.tx, context.orgId, type, id)) ?? 'unknownType';
  return (await recordExists(context, context.catalog.entry(type).descriptor, id)) ? 'found' : 'missing';
}

/**
 * The webhook actions of `type`. Types another engine serves (custom objects) emit the generic
 * three; whether the org has such a type is asked as the presence of a record that cannot exist.
 */
async function webhookActionsOf(context: RecordContext, type: string): Promise<readonly string[] | undefined> {
  if (context.catalog.has(type)) return context.catalog.entry(type).descriptor.webhookActions;
  const presence = await context.dynamicRecords?.(context.tx, context.orgId, type, 0);
  return presence === undefined || presence === 'unknownType' ? undefined : GENERIC_WEBHOOK_ACTIONS;
}

const GENERIC_WEBHOOK_ACTIONS: readonly string[] = ['created', 'updated', 'destroyed'];

/** Runs the resource's own check of the record as it will be; its problems are a 422. */
async function checkWithBehaviour(context: RecordContext, changes: Changes, previous: Row | null): Promise<void> {
  const check = context.behaviours.get(context.descriptor.type)?.check;
  if (!check) return;
  const problems = await check(nextValues(context.descriptor, changes, previous), previous, {
    presence: (type, id) => presenceOf(context, type, id),
    webhookActions: (type) => webhookActionsOf(context, type),
  });
  if (problems.length) throw validationError(problems);
}

export async function insertRecord(context: RecordContext, given: Changes): Promise<Row> {
  const { tx, orgId, descriptor } = context;
  await checkTargets(context, given);
  const changes = withDerived(context, given, null);
  await checkWithBehaviour(context, changes, null);
  const assignments = assignmentsOf(changes);
  const partition = descriptor.partition;
  const columns = ['"org_id"', ...(partition ? [quoteIdent(partition.column)] : []), ...assignments.map((a) => quoteIdent(a.column))];
  const placeholders = ['$1', ...(partition ? [String(Number(partition.value))] : []), ...assignments.map((a, i) => `$${i + 2}${a.cast}`)];
  const [row] = await tx.unsafe<Row[]>(
    `insert into ${quoteIdent(descriptor.table)} (${columns.join(', ')}) values (${placeholders.join(', ')}) returning ${context.statements.selectList}`,
    [orgId, ...assignments.map((a) => a.value)] as never[],
    { prepare: true },
  );
  await recordChange(context, { ...eventBase(context, row!.id, 'created'), data: snapshot(context, row!) });
  const afterCreate = context.behaviours.get(descriptor.type)?.afterCreate;
  if (afterCreate) {
    await afterCreate({
      row: row!,
      relationshipIds: relationshipIdsOf(descriptor, row!),
      relationshipMeta: given.relationshipMeta ?? new Map(),
      now: context.now,
      runAction: (type, id, action) => runActionOn(context, type, id, action),
    });
  }
  return row!;
}

/** Applies an action handler's changes to one record; undefined when the record is missing. */
export async function applyAction(context: RecordContext, id: number, handler: ActionHandler, params: ReadonlyMap<string, string>): Promise<Row | undefined> {
  const record = await findRecord(context, id, 'update');
  if (!record) return undefined;
  const result = handler.handle({ record, params, now: context.now });
  const attributes = new Map<AttributeDescriptor, unknown>();
  for (const a of context.descriptor.attributes) if (Object.hasOwn(result.changes, a.name)) attributes.set(a, result.changes[a.name]);
  return updateRecord(context, id, { attributes, relationships: new Map() }, result.event);
}

async function runActionOn(context: RecordContext, type: string, id: number, action: string): Promise<void> {
  const handler = context.behaviours.get(type)?.actions?.[action];
  if (!handler) throw new Error(`${type} has no action ${action}`);
  const other = { ...context, ...context.catalog.entry(type) };
  await applyAction(other, id, handler, new Map());
}

/** Reads one record; `lock` takes the row lock that an update or a delete of it will need. */
export async function findRecord(context: RecordContext, id: number, lock?: 'update' | 'delete'): Promise<Row | undefined> {
  const { statements } = context;
  const text = lock === 'update' ? statements.getOneForUpdate : lock === 'delete' ? statements.getOneForDelete : statements.getOne;
  const [row] = await context.tx.unsafe<Row[]>(text, [context.orgId, id], { prepare: true });
  return row;
}

/**
 * Applies changes to an existing record (locked first, so concurrent writers serialise) and
 * records `updated` with the previous values, plus a domain event when one is named.
 * Returns undefined when the record does not exist.
 */
export async function updateRecord(context: RecordContext, id: number, given: Changes, domainEvent?: string): Promise<Row | undefined> {
  const { tx, orgId, descriptor } = context;
  const previous = await findRecord(context, id, 'update');
  if (!previous) return undefined;
  await checkTargets(context, given);
  const changes = withDerived(context, given, previous);
  await checkWithBehaviour(context, changes, previous);
  const assignments = assignmentsOf(changes);
  const hasUpdatedAt = descriptor.attributes.some((a) => a.name === 'updatedAt');
  const sets = assignments.map((a, i) => `${quoteIdent(a.column)} = $${i + 3}${a.cast}`);
  if (hasUpdatedAt) sets.push(`"updated_at" = now()`);
  if (sets.length === 0) return previous;
  const [row] = await tx.unsafe<Row[]>(
    `update ${quoteIdent(descriptor.table)} set ${sets.join(', ')} where "org_id" = $1 and "id" = $2${partitionPredicate(descriptor)} returning ${selectList(descriptor)}`,
    [orgId, id, ...assignments.map((a) => a.value)] as never[],
    { prepare: true },
  );
  const changed = changedNames(changes, previous, row!);
  if (changed.size > 0 || domainEvent) {
    await recordChange(context, {
      ...eventBase(context, id, 'updated'),
      data: snapshot(context, row!, changed),
      before: snapshot(context, previous, changed),
    });
  }
  if (domainEvent) {
    await recordChange(context, { ...eventBase(context, id, domainEvent), data: snapshot(context, row!) });
  }
  return row;
}

/**
 * Deletes a record after clearing every relationship that points at it, in the same
 * transaction (the foreign keys carry org_id, so ON DELETE SET NULL would null org_id too).
 */
export async function deleteRecord(context: RecordContext, id: number, references: readonly Reference[]): Promise<Row | undefined> {
  const { tx, orgId, descriptor } = context;
  const existing = await findRecord(context, id, 'delete');
  if (!existing) return undefined;
  const dynamic = (await context.dynamicReferences?.(tx, orgId, descriptor.type)) ?? [];
  for (const ref of [...references, ...dynamic]) {
    const touch = ref.touchesUpdatedAt ? `, "updated_at" = now()` : '';
    await tx.unsafe(
      `update ${quoteIdent(ref.table)} set ${quoteIdent(ref.column)} = null${touch} where "org_id" = $1 and ${quoteIdent(ref.column)} = $2${ref.partition ? ` and ${quoteIdent(ref.partition.column)} = ${Number(ref.partition.value)}` : ''}`,
      [orgId, id],
      { prepare: true },
    );
  }
  const [row] = await tx.unsafe<Row[]>(context.statements.deleteOne, [orgId, id], { prepare: true });
  await recordChange(context, { ...eventBase(context, id, 'destroyed'), data: snapshot(context, row!) });
  return row;
}
