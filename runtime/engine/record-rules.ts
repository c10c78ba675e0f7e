import type { AttributeDescriptor, PolymorphicToOneDescriptor, ResourceDescriptor, ResourceIdentifier, ToOneDescriptor } from '../model/descriptor.js';
import { polymorphicTarget, polymorphicToOnes, relationshipAlias, relationshipTypeAlias, toOnes } from '../model/sql-text.js';
import type { FieldError } from '../jsonapi/index.js';
import type { Actor, Behaviours, RecordLookup } from './behaviour.js';
import { declaredChanges } from './behaviour-check.js';
import type { Row } from './render.js';
import { overlayView } from './row-view.js';
import type { Changes } from './write-operations.js';

/**
 * The per-record rules of a write, free of SQL: the record as it will be, the values a
 * behaviour derives, its checks, and the snapshots events record. The record writer applies
 * them to every record of a set alike.
 */

/** What the rules of one resource need to know about the write. */
export interface RuleContext {
  readonly orgId: number;
  readonly descriptor: ResourceDescriptor;
  readonly behaviours: Behaviours;
  readonly now: Date;
  readonly actor: Actor;
}

/** A row's to-one relationship ids by relationship name: how behaviours see relationships. */
export function relationshipIdsOf(descriptor: ResourceDescriptor, row: Row | null): Record<string, number | null> {
  const ids: Record<string, number | null> = {};
  for (const rel of toOnes(descriptor)) ids[rel.name] = row ? ((row[relationshipAlias(rel)] as number | null | undefined) ?? null) : null;
  return ids;
}

/** The record as it will be after `changes`: attributes and to-one relationship ids by name. Read it by name only. */
export function nextValues(descriptor: ResourceDescriptor, changes: Changes, previous: Row | null): Record<string, unknown> {
  // A view over the current row, not a copy of its every column (see overlayView in
  // row-view.ts): its own values are the relationships and the changes.
  const next: Record<string, unknown> = relationshipIdsOf(descriptor, previous);
  for (const [a, value] of changes.attributes) next[a.name] = value;
  for (const [rel, id] of changes.relationships) next[rel.name] = id;
  for (const rel of polymorphicToOnes(descriptor))
    next[rel.name] = changes.polymorphic?.has(rel) ? changes.polymorphic.get(rel) : previous && polymorphicTarget(rel, previous);
  return previous ? overlayView(previous, next) : next;
}

/** Adds the values the resource's behaviour derives from the record as it will be. */
export function withDerived(context: RuleContext, changes: Changes, previous: Row | null): Changes {
  const derive = context.behaviours.get(context.descriptor.type)?.derive;
  if (!derive) return changes;
  const next = nextValues(context.descriptor, changes, previous);
  const behaviour = context.behaviours.get(context.descriptor.type)!;
  const derived = declaredChanges(
    `${context.descriptor.type} derive`,
    behaviour.derives,
    derive(next, previous, { orgId: context.orgId, now: context.now, actor: context.actor }),
  );
  const fields = fieldsByName(context.descriptor);
  // In the descriptor's order, as sets are grouped by the order of the columns they write.
  const names = Object.keys(derived).sort((a, b) => (fields.positions.get(a) ?? 0) - (fields.positions.get(b) ?? 0));
  if (names.length === 0) return changes;
  const attributes = new Map(changes.attributes);
  const relationships = new Map(changes.relationships);
  for (const name of names) {
    const attribute = fields.attributes.get(name);
    if (attribute) attributes.set(attribute, derived[name]);
    const rel = fields.toOnes.get(name);
    if (rel) relationships.set(rel, derived[name] as number | null);
  }
  return { ...changes, attributes, relationships };
}

export interface FieldsByName {
  readonly attributes: ReadonlyMap<string, AttributeDescriptor>;
  readonly toOnes: ReadonlyMap<string, ToOneDescriptor>;
  /** Attributes first, then to-one relationships, each in the descriptor's order. */
  readonly positions: ReadonlyMap<string, number>;
}

/** A resource's attributes and to-one relationships by name, once per descriptor: derive runs for every record of a set. */
const fieldsByNameOf = new WeakMap<ResourceDescriptor, FieldsByName>();

export function fieldsByName(descriptor: ResourceDescriptor): FieldsByName {
  let fields = fieldsByNameOf.get(descriptor);
  if (!fields) {
    const names = [...descriptor.attributes, ...toOnes(descriptor)].map((field) => field.name);
    fields = {
      attributes: new Map(descriptor.attributes.map((a) => [a.name, a])),
      toOnes: new Map(toOnes(descriptor).map((r) => [r.name, r])),
      positions: new Map(names.map((name, position) => [name, position])),
    };
    fieldsByNameOf.set(descriptor, fields);
  }
  return fields;
}

/** Runs the resource's own check of the record as it will be; each problem is a field error. */
export async function behaviourProblems(context: RuleContext, changes: Changes, previous: Row | null, lookup: RecordLookup): Promise<readonly FieldError[]> {
  const check = context.behaviours.get(context.descriptor.type)?.check;
  if (!check) return [];
  return check(nextValues(context.descriptor, changes, previous), previous, lookup);
}

/** A stored value per column: timestamps and JSON as PostgreSQL reads them from JSON. */
export interface ColumnValue {
  readonly column: string;
  readonly value: unknown;
}

/** The columns a change writes; the service keeps createdAt and updatedAt itself. */
export function columnValuesOf(changes: Changes): ColumnValue[] {
  const values: ColumnValue[] = [];
  for (const [a, value] of changes.attributes) {
    if (a.name === 'createdAt' || a.name === 'updatedAt') continue;
    values.push({ column: a.column, value: value === undefined ? null : value });
  }
  for (const [rel, id] of changes.relationships) values.push({ column: rel.column, value: id });
  for (const [rel, target] of changes.polymorphic ?? [])
    values.push({ column: rel.typeColumn, value: target?.type ?? null }, { column: rel.column, value: target?.id ?? null });
  return values;
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
export function snapshot(context: Pick<RuleContext, 'descriptor' | 'behaviours'>, row: Row, names?: ReadonlySet<string>): Snapshot {
  const shape = snapshotShape(context);
  const { toOnes, polymorphic, sensitive } = shape;
  const result: Snapshot = { attributes: {}, relationships: {} };
  for (const name of names ? attributesAmong(shape, names) : shape.attributes) {
    result.attributes[name] = sensitive.has(name) && row[name] != null ? '[REDACTED]' : (row[name] ?? null);
  }
  for (const rel of toOnes) {
    if (names && !names.has(rel.name)) continue;
    const id = row[relationshipAlias(rel)] as number | null | undefined;
    result.relationships[rel.name] = { data: id == null ? null : { type: rel.target, id } };
  }
  for (const rel of polymorphic) {
    if (names && !names.has(rel.name)) continue;
    result.relationships[rel.name] = { data: polymorphicTarget(rel, row) };
  }
  return result;
}

/**
 * The snapshot without its null attributes and empty to-one relationships, as created events
 * are stored (event-payload.ts), taken in one pass: building the full snapshot of a prospect's
 * 220 attributes and then a second object without its nulls was a fifth of a CSV import's
 * worker time (issue #26).
 */
export function compactSnapshot(context: Pick<RuleContext, 'descriptor' | 'behaviours'>, row: Row): Snapshot {
  const { attributes, toOnes, polymorphic, sensitive } = snapshotShape(context);
  const result: Snapshot = { attributes: {}, relationships: {} };
  for (const name of attributes) {
    const value = row[name];
    if (value == null) continue;
    result.attributes[name] = sensitive.has(name) ? '[REDACTED]' : value;
  }
  for (const rel of toOnes) {
    const id = row[relationshipAlias(rel)] as number | null | undefined;
    if (id != null) result.relationships[rel.name] = { data: { type: rel.target, id } };
  }
  for (const rel of polymorphic) {
    const target = polymorphicTarget(rel, row);
    if (target !== null) result.relationships[rel.name] = { data: target };
  }
  return result;
}

interface SnapshotShape {
  readonly attributes: readonly string[];
  /** Each of `attributes` by its position there. */
  readonly attributeOrder: ReadonlyMap<string, number>;
  readonly toOnes: readonly ToOneDescriptor[];
  readonly polymorphic: readonly PolymorphicToOneDescriptor[];
  readonly sensitive: ReadonlySet<string>;
}

/**
 * What a snapshot of the resource copies, worked out once per descriptor and behaviours rather
 * than per record: a bulk write takes a thousand snapshots of a resource with 200 attributes.
 */
const snapshotShapes = new WeakMap<ResourceDescriptor, WeakMap<object, SnapshotShape>>();

function snapshotShape(context: Pick<RuleContext, 'descriptor' | 'behaviours'>): SnapshotShape {
  const { descriptor, behaviours } = context;
  let byBehaviours = snapshotShapes.get(descriptor);
  if (!byBehaviours) snapshotShapes.set(descriptor, (byBehaviours = new WeakMap<object, SnapshotShape>()));
  let shape = byBehaviours.get(behaviours);
  if (!shape) {
    const attributes = descriptor.attributes.filter((a) => !a.writeOnly).map((a) => a.name);
    shape = {
      attributes,
      attributeOrder: new Map(attributes.map((name, i) => [name, i])),
      toOnes: toOnes(descriptor),
      polymorphic: polymorphicToOnes(descriptor),
      sensitive: new Set(behaviours.get(descriptor.type)?.sensitiveAttributes ?? []),
    };
    byBehaviours.set(behaviours, shape);
  }
  return shape;
}

/**
 * The attributes among `names` a snapshot copies, in the resource's order. An update's event
 * names the few attributes it changed: found by going through all 220 of a prospect's, twice a
 * record (after and before), `snapshot` was the largest function of a bulk modify's worker
 * profile after the garbage collector and JSON.
 */
function attributesAmong(shape: SnapshotShape, names: ReadonlySet<string>): string[] {
  const order = shape.attributeOrder;
  return [...names].filter((name) => order.has(name)).sort((a, b) => order.get(a)! - order.get(b)!);
}

/** Names whose value differs between two rows, among those the change wrote. */
export function changedNames(changes: Changes, before: Row, after: Row): Set<string> {
  const names = new Set<string>();
  for (const a of changes.attributes.keys()) if (JSON.stringify(before[a.name] ?? null) !== JSON.stringify(after[a.name] ?? null)) names.add(a.name);
  for (const rel of changes.relationships.keys()) if (differs(before, after, relationshipAlias(rel))) names.add(rel.name);
  for (const rel of changes.polymorphic?.keys() ?? []) {
    if (differs(before, after, relationshipAlias(rel)) || differs(before, after, relationshipTypeAlias(rel))) names.add(rel.name);
  }
  return names;
}

/** Whether a relationship column (an id or a type) holds another value after than before. */
function differs(before: Row, after: Row, alias: string): boolean {
  return (before[alias] ?? null) !== (after[alias] ?? null);
}

/** Changes made of attribute values by name, for writes the service makes itself. */
export function changesOfAttributes(attributes: readonly AttributeDescriptor[], values: Readonly<Record<string, unknown>>): Changes {
  const map = new Map<AttributeDescriptor, unknown>();
  for (const a of attributes) if (Object.hasOwn(values, a.name)) map.set(a, values[a.name]);
  return { attributes: map, relationships: new Map<ToOneDescriptor, number | null>() };
}

/** Changes made of attribute values, to-one relationship ids and polymorphic targets by name (an action's result). */
export function changesByName(descriptor: ResourceDescriptor, values: Readonly<Record<string, unknown>>): Changes {
  const relationships = new Map<ToOneDescriptor, number | null>();
  for (const rel of toOnes(descriptor)) if (Object.hasOwn(values, rel.name)) relationships.set(rel, values[rel.name] as number | null);
  const polymorphic = new Map<PolymorphicToOneDescriptor, ResourceIdentifier | null>();
  for (const rel of polymorphicToOnes(descriptor)) if (Object.hasOwn(values, rel.name)) polymorphic.set(rel, values[rel.name] as ResourceIdentifier | null);
  return { attributes: changesOfAttributes(descriptor.attributes, values).attributes, relationships, ...(polymorphic.size > 0 && { polymorphic }) };
}
