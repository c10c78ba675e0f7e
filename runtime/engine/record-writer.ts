import { ApiError, validationError, type FieldError } from '../jsonapi/index.js';
import type { ResourceDescriptor } from '../model/descriptor.js';
import type { Transaction } from '../tenancy/index.js';
import type { Behaviours, RecordLookup, RecordPresence } from './behaviour.js';
import { declaredChanges } from './behaviour-check.js';
import { apiErrorOfWrite } from './database-errors.js';
import { recordEvents, type ChangeEvent, type EventSink } from './event-log.js';
import {
  behaviourProblems,
  changedNames,
  changesByName,
  columnValuesOf,
  relationshipIdsOf,
  snapshot,
  withDerived,
  type ColumnValue,
  type RuleContext,
} from './record-rules.js';
import type { DynamicRecords, DynamicReferences, Reference, ResourceCatalog } from './records.js';
import type { Row } from './render.js';
import { deleteRows, existingTargets, insertRows, lockRows, updateRows } from './set-statements.js';
import type { Changes, RecordWriter, UpdateChanges, UpdateOperation, WriteOperation, WriteOutcome, WriteScope } from './write-operations.js';

/**
 * The one write path. Every record written, by an HTTP request (a set of one), a bulk job or
 * another record's behaviour, goes through `write`: per set, the records' current rows are
 * read and locked with one statement, referenced ids checked with one, each table written with
 * one statement per column set, the events recorded with one, and their jobs enqueued with
 * one call. A record that breaks a rule is refused alone; its neighbours are written.
 */
export interface RecordWriterOptions {
  /** The standard resources; a write for an org with custom objects passes its own catalog. */
  readonly catalog: ResourceCatalog;
  readonly behaviours: Behaviours;
  /** The time every write is made at; injectable so time-dependent rules can be tested. */
  readonly clock: () => Date;
  /** Told of deliverable events in the write's transaction (webhook deliveries). */
  readonly eventSink: EventSink;
  /** Columns of standard resources that point at a type, cleared when its records are deleted. */
  readonly referencesTo: (type: string) => readonly Reference[];
  /** References no schema declares (custom objects' relationships), cleared on delete too. */
  readonly dynamicReferences?: DynamicReferences;
  /** Records of types no catalog declares (custom objects), for behaviours' checks. */
  readonly dynamicRecords?: DynamicRecords;
}

export function createRecordWriter(options: RecordWriterOptions): RecordWriter {
  const writer: RecordWriter = {
    async write(scope, operations) {
      const set: SetWrite = {
        ...scope,
        options,
        writer,
        catalog: scope.catalog ?? options.catalog,
        now: options.clock(),
        isolated: scope.isolated ?? operations.length > 1,
      };
      const outcomes: WriteOutcome[] = new Array<WriteOutcome>(operations.length);
      for (const wave of wavesOf(operations)) await writeWave(set, operations, wave, outcomes);
      return outcomes;
    },
  };
  return writer;
}

/** One call of `write`: the scope, the catalog its types resolve in, and its time. */
interface SetWrite extends WriteScope {
  readonly options: RecordWriterOptions;
  readonly writer: RecordWriter;
  readonly catalog: ResourceCatalog;
  readonly now: Date;
  readonly isolated: boolean;
}

/** A record ready to be written: its operation, its row before, and its changes with derived values. */
interface Prepared {
  readonly index: number;
  readonly op: WriteOperation;
  readonly current: Row | null;
  readonly changes: UpdateChanges | null;
}

/** An event of the record at `index`, recorded once the wave's rows are written. */
interface PendingEvent {
  readonly index: number;
  readonly event: ChangeEvent;
}

/**
 * Splits operations into waves in which each record appears at most once (a set statement
 * cannot apply two changes to one row); a record's second operation goes in the next wave.
 * Most sets are one wave.
 */
function wavesOf(operations: readonly WriteOperation[]): number[][] {
  const waves: number[][] = [];
  const seen = new Map<string, number>();
  operations.forEach((op, index) => {
    let wave = 0;
    if (op.kind !== 'create') {
      const key = `${op.type}:${op.id}`;
      wave = seen.get(key) ?? 0;
      seen.set(key, wave + 1);
    }
    (waves[wave] ??= []).push(index);
  });
  return waves;
}

async function writeWave(set: SetWrite, operations: readonly WriteOperation[], wave: readonly number[], outcomes: WriteOutcome[]): Promise<void> {
  const byType = new Map<string, number[]>();
  for (const index of wave) {
    const type = operations[index]!.type;
    if (!set.catalog.has(type)) throw new Error(`the record writer has no resource type ${type}`);
    const indexes = byType.get(type);
    if (indexes) indexes.push(index);
    else byType.set(type, [index]);
  }
  const events: PendingEvent[] = [];
  const created: { descriptor: ResourceDescriptor; row: Row; changes: Changes }[] = [];
  for (const [type, indexes] of byType) {
    const group = await writeGroup(set, set.catalog.entry(type).descriptor, operations, indexes, outcomes);
    events.push(...group.events);
    created.push(...group.created);
  }
  events.sort((a, b) => a.index - b.index);
  const ids = await recordEvents(
    set.tx,
    set.orgId,
    events.map((e) => e.event),
  );
  const deliverable = events.flatMap(({ event }, i) => (event.deliverable ? [{ ...event, id: ids[i]! }] : []));
  if (deliverable.length) await set.options.eventSink(set.tx, set.orgId, set.now, deliverable);
  for (const c of created) await afterCreate(set, c.descriptor, c.row, c.changes);
}

/** Writes the operations of one resource type in one wave; their outcomes go into `outcomes`. */
async function writeGroup(
  set: SetWrite,
  descriptor: ResourceDescriptor,
  operations: readonly WriteOperation[],
  indexes: readonly number[],
  outcomes: WriteOutcome[],
): Promise<{ events: PendingEvent[]; created: { descriptor: ResourceDescriptor; row: Row; changes: Changes }[] }> {
  const rules: RuleContext = { orgId: set.orgId, descriptor, behaviours: set.options.behaviours, now: set.now, actor: set.actor };
  const idsOf = (kind: 'update' | 'delete') => indexes.flatMap((i) => (operations[i]!.kind === kind ? [(operations[i] as { id: number }).id] : []));
  const forUpdate = await lockRows(set.tx, descriptor, set.orgId, idsOf('update'), 'update');
  const forDelete = await lockRows(set.tx, descriptor, set.orgId, idsOf('delete'), 'delete');

  const prepared: Prepared[] = [];
  for (const index of indexes) {
    const op = operations[index]!;
    if (op.kind === 'create') {
      prepared.push({ index, op, current: null, changes: withDerived(rules, op.changes, null) });
      continue;
    }
    const current = (op.kind === 'update' ? forUpdate : forDelete).get(op.id);
    if (!current) {
      outcomes[index] = { status: 'missing' };
    } else if (op.kind === 'delete') {
      prepared.push({ index, op, current, changes: null });
    } else {
      const given = changesOf(op, current, set.now);
      if (given instanceof ApiError) outcomes[index] = { status: 'refused', error: given };
      else prepared.push({ index, op, current, changes: { ...withDerived(rules, given, current), ...(given.domainEvent && { domainEvent: given.domainEvent }) } });
    }
  }

  const problems = await problemsOf(set, rules, prepared);
  const accepted = prepared.filter((p) => {
    const found = problems.get(p.index);
    if (found?.length) outcomes[p.index] = { status: 'refused', error: validationError(found) };
    return !found?.length;
  });
  const rows = await applyIsolated(set, descriptor, accepted, outcomes);

  const events: PendingEvent[] = [];
  const created: { descriptor: ResourceDescriptor; row: Row; changes: Changes }[] = [];
  const recorded = !set.options.behaviours.get(descriptor.type)?.unrecorded;
  const eventOf = (p: Prepared, action: string, data: ChangeEvent['data'], before?: ChangeEvent['data']): PendingEvent => ({
    index: p.index,
    event: {
      resourceType: descriptor.type,
      resourceId: Number(p.current?.id ?? rows.get(p.index)!.id),
      action,
      data,
      ...(before && { before }),
      deliverable: descriptor.webhookActions.includes(action),
    },
  });
  for (const p of accepted) {
    const row = rows.get(p.index);
    if (!row) continue; // refused while applying
    outcomes[p.index] = { status: 'written', row };
    if (p.op.kind === 'create') {
      if (recorded) events.push(eventOf(p, 'created', snapshot(rules, row)));
      created.push({ descriptor, row, changes: p.changes! });
    } else if (p.op.kind === 'delete') {
      if (recorded) events.push(eventOf(p, 'destroyed', snapshot(rules, row)));
    } else {
      const changed = changedNames(p.changes!, p.current!, row);
      const domainEvent = p.changes!.domainEvent;
      if (recorded && (changed.size > 0 || domainEvent)) events.push(eventOf(p, 'updated', snapshot(rules, row, changed), snapshot(rules, p.current!, changed)));
      if (recorded && domainEvent) events.push(eventOf(p, domainEvent, snapshot(rules, row)));
    }
  }
  return { events, created };
}

/**
 * An update's changes; an action refusing the record as it is (a sequence state that cannot
 * pause) is that record's refusal, as a rule problem would be, not the whole set's failure.
 */
function changesOf(op: UpdateOperation, current: Row, now: Date): UpdateChanges | ApiError {
  if (typeof op.changes !== 'function') return op.changes;
  try {
    return op.changes(current, now);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/**
 * Each record's problems: relationships to records the org does not have (asked for the whole
 * set in one statement), then the resource's own check.
 */
async function problemsOf(set: SetWrite, rules: RuleContext, prepared: readonly Prepared[]): Promise<Map<number, FieldError[]>> {
  const problems = new Map<number, FieldError[]>();
  const targets = new Map<ResourceDescriptor, Set<number>>();
  for (const p of prepared) {
    for (const [rel, id] of p.changes?.relationships ?? []) {
      if (id === null || !set.catalog.has(rel.target)) continue;
      const target = set.catalog.entry(rel.target).descriptor;
      targets.set(target, (targets.get(target) ?? new Set()).add(id));
    }
  }
  const existing = await existingTargets(set.tx, set.orgId, targets);
  const lookup = recordLookup(set);
  for (const p of prepared) {
    if (!p.changes) continue;
    const found: FieldError[] = [];
    for (const [rel, id] of p.changes.relationships) {
      if (id !== null && set.catalog.has(rel.target) && !existing.has(`${rel.target}:${id}`)) {
        found.push({ pointer: `/data/relationships/${rel.name}`, detail: `${rel.name} refers to a ${rel.target} that does not exist` });
      }
    }
    if (found.length === 0) found.push(...(await behaviourProblems(rules, p.changes, p.current, lookup)));
    if (found.length) problems.set(p.index, found);
  }
  return problems;
}

/** What behaviours' checks may ask about other records, in the write's transaction. */
function recordLookup(set: SetWrite): RecordLookup {
  const presence = async (type: string, id: number): Promise<RecordPresence> => {
    if (!set.catalog.has(type)) return (await set.options.dynamicRecords?.(set.tx, set.orgId, type, id)) ?? 'unknownType';
    const target = set.catalog.entry(type).descriptor;
    const found = await existingTargets(set.tx, set.orgId, new Map([[target, new Set([id])]]));
    return found.size > 0 ? 'found' : 'missing';
  };
  return {
    presence,
    // Types another engine serves (custom objects) emit the generic three; whether the org has
    // such a type is asked as the presence of a record that cannot exist.
    async webhookActions(type) {
      if (set.catalog.has(type)) return set.catalog.entry(type).descriptor.webhookActions;
      const found = await set.options.dynamicRecords?.(set.tx, set.orgId, type, 0);
      return found === undefined || found === 'unknownType' ? undefined : GENERIC_WEBHOOK_ACTIONS;
    },
  };
}

const GENERIC_WEBHOOK_ACTIONS: readonly string[] = ['created', 'updated', 'destroyed'];

/**
 * Applies the accepted records' rows. In a set, a record PostgreSQL refuses (a value out of a
 * column's range, a unique value taken) must not take its neighbours with it: the set is
 * written under a savepoint and, if refused, written again record by record, each under its
 * own savepoint, so the one at fault is found and refused alone.
 */
async function applyIsolated(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[], outcomes: WriteOutcome[]): Promise<Map<number, Row>> {
  if (!set.isolated || accepted.length === 0) return applyRows(set, descriptor, accepted);
  try {
    return await underSavepoint(set.tx, () => applyRows(set, descriptor, accepted));
  } catch (error) {
    if (!apiErrorOfWrite(descriptor, error)) throw error;
  }
  const rows = new Map<number, Row>();
  for (const p of accepted) {
    try {
      for (const [index, row] of await underSavepoint(set.tx, () => applyRows(set, descriptor, [p]))) rows.set(index, row);
    } catch (error) {
      const refusal = apiErrorOfWrite(descriptor, error);
      if (!refusal) throw error;
      outcomes[p.index] = { status: 'refused', error: refusal };
    }
  }
  return rows;
}

async function underSavepoint<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  await tx.unsafe('savepoint record_set');
  try {
    const result = await work();
    await tx.unsafe('release savepoint record_set');
    return result;
  } catch (error) {
    await tx.unsafe('rollback to savepoint record_set');
    throw error;
  }
}

/** Writes the rows: inserts and updates one statement per set of columns, deletes one. Rows by operation index. */
async function applyRows(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[]): Promise<Map<number, Row>> {
  const rows = new Map<number, Row>();
  const { tx, orgId } = set;
  for (const group of byColumns(accepted.filter((p) => p.op.kind === 'create'))) {
    const inserted = await insertRows(tx, descriptor, orgId, group.columns, group.values);
    group.members.forEach((p, i) => rows.set(p.index, inserted[i]!));
  }
  const updates = accepted.filter((p) => p.op.kind === 'update');
  for (const group of byColumns(updates)) {
    // Nothing to store (a skipped duplicate, say): the record stays as it is.
    if (group.columns.length === 0) {
      for (const p of group.members) rows.set(p.index, p.current!);
      continue;
    }
    const ids = group.members.map((p) => Number(p.current!.id));
    const updated = await updateRows(tx, descriptor, orgId, group.columns, ids, group.values);
    group.members.forEach((p, i) => rows.set(p.index, updated.get(ids[i]!)!));
  }
  const deletes = accepted.filter((p) => p.op.kind === 'delete');
  if (deletes.length) {
    const ids = deletes.map((p) => Number(p.current!.id));
    const references = [...set.options.referencesTo(descriptor.type), ...((await set.options.dynamicReferences?.(tx, orgId, descriptor.type)) ?? [])];
    const deleted = await deleteRows(tx, descriptor, orgId, ids, references);
    deletes.forEach((p, i) => rows.set(p.index, deleted.get(ids[i]!)!));
  }
  return rows;
}

/** Records grouped by the columns they set, so each group is one statement. */
function byColumns(prepared: readonly Prepared[]): { columns: string[]; members: Prepared[]; values: ColumnValue[][] }[] {
  const groups = new Map<string, { columns: string[]; members: Prepared[]; values: ColumnValue[][] }>();
  for (const p of prepared) {
    const values = columnValuesOf(p.changes!);
    const columns = values.map((v) => v.column);
    const key = columns.join(',');
    const group = groups.get(key) ?? { columns, members: [], values: [] };
    group.members.push(p);
    group.values.push(values);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Runs a created record's follow-up (a call completing its task) through the same writer. */
async function afterCreate(set: SetWrite, descriptor: ResourceDescriptor, row: Row, changes: Changes): Promise<void> {
  const hook = set.options.behaviours.get(descriptor.type)?.afterCreate;
  if (!hook) return;
  await hook({
    row,
    relationshipIds: relationshipIdsOf(descriptor, row),
    relationshipMeta: changes.relationshipMeta ?? new Map(),
    now: set.now,
    runAction: (type, id, action) => runAction(set, type, id, action),
  });
}

/**
 * The update that applies a resource's action to one record: the handler sees the record as
 * locked by the write, and its result goes through the ordinary update path.
 */
export function actionOperation(
  behaviours: Behaviours,
  descriptor: ResourceDescriptor,
  id: number,
  action: string,
  params: ReadonlyMap<string, string> = new Map(),
): UpdateOperation {
  const handler = behaviours.get(descriptor.type)?.actions?.[action];
  if (!handler) throw new Error(`${descriptor.type} has no action ${action}`);
  return {
    kind: 'update',
    type: descriptor.type,
    id,
    changes: (record, now) => {
      const result = handler.handle({ record, params, now });
      const changes = declaredChanges(`${descriptor.type} action ${action}`, handler.changes, result.changes);
      return { ...changesByName(descriptor, changes), ...(result.event && { domainEvent: result.event }) };
    },
  };
}

/** Another record's action run by a behaviour (a call completing its task), in the same write. */
async function runAction(set: SetWrite, type: string, id: number, action: string): Promise<void> {
  const operation = actionOperation(set.options.behaviours, set.catalog.entry(type).descriptor, id, action);
  const [outcome] = await set.writer.write({ tx: set.tx, orgId: set.orgId, actor: set.actor, catalog: set.catalog }, [operation]);
  if (outcome!.status === 'refused') throw outcome!.error;
}
