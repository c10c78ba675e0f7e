import { ApiError, validationError, type FieldError } from '../../jsonapi/index.js';
import type { AttributeDescriptor, ResourceDescriptor } from '../../model/descriptor.js';
import { relationshipAlias, toOnes } from '../../model/sql-text.js';
import type { Transaction } from '../../tenancy/index.js';
import type { Behaviours, RecordReader, RecordPresence, ReviewedWrite, WriteEffects, WrittenRecord } from '../behaviour.js';
import { declaredChanges } from '../behaviour-check.js';
import { apiErrorOfWrite } from '../database-errors.js';
import { recordEvents, type ChangeEvent, type EventSink } from '../event-log.js';
import {
  behaviourProblems,
  changedNames,
  changesByName,
  columnValuesOf,
  relationshipIdsOf,
  nextValues,
  snapshot,
  withDerived,
  type ColumnValue,
  type RuleContext,
} from '../record-rules.js';
import type { DynamicRecords, DynamicReferences, Reference, ResourceCatalog } from '../records.js';
import type { Row } from '../render.js';
import { deleteRows, existingTargets, insertRows, lockRows, selectRows, updateRows } from '../set-statements.js';
import type { Changes, RecordWriter, UpdateChanges, UpdateOperation, WriteOperation, WriteOutcome, WriteScope } from '../write-operations.js';

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
    effects(scope) {
      return writeEffects({ ...scope, options, writer, catalog: scope.catalog ?? options.catalog, now: options.clock(), isolated: scope.isolated ?? true });
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

const NOTHING_CHANGED: ReadonlySet<string> = new Set();

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
  const written = new Map<string, WrittenRecord[]>();
  for (const [type, indexes] of byType) {
    const group = await writeGroup(set, set.catalog.entry(type).descriptor, operations, indexes, outcomes);
    events.push(...group.events);
    created.push(...group.created);
    written.set(type, group.written);
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
  for (const [type, records] of written) {
    const hook = set.options.behaviours.get(type)?.afterWrite;
    if (!hook || records.length === 0) continue;
    const descriptor = set.catalog.entry(type).descriptor;
    await hook(
      records.map((r) => ({ ...r, row: namedRow(descriptor, { ...r.row }), previous: r.previous && namedRow(descriptor, { ...r.previous }) })),
      writeEffects(set),
    );
  }
}

/** Writes the operations of one resource type in one wave; their outcomes go into `outcomes`. */
async function writeGroup(
  set: SetWrite,
  descriptor: ResourceDescriptor,
  operations: readonly WriteOperation[],
  indexes: readonly number[],
  outcomes: WriteOutcome[],
): Promise<{ events: PendingEvent[]; created: { descriptor: ResourceDescriptor; row: Row; changes: Changes }[]; written: WrittenRecord[] }> {
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
      else
        prepared.push({
          index,
          op,
          current,
          changes: {
            ...withDerived(rules, given, current),
            ...(given.domainEvent && { domainEvent: given.domainEvent }),
            ...(given.action && { action: given.action }),
            ...(given.effect && { effect: given.effect }),
          },
        });
    }
  }

  const problems = await problemsOf(set, rules, prepared);
  const checked = prepared.filter((p) => {
    const found = problems.get(p.index);
    if (found?.length) outcomes[p.index] = { status: 'refused', error: validationError(found) };
    return !found?.length;
  });
  const accepted = await reviewed(set, rules, checked, outcomes);
  const beforeDelete = set.options.behaviours.get(descriptor.type)?.beforeDelete;
  const deleting = accepted.filter((p) => p.op.kind === 'delete');
  if (beforeDelete && deleting.length > 0) {
    await beforeDelete(
      deleting.map((p) => namedRow(descriptor, { ...p.current! })),
      writeEffects(set),
    );
  }
  const rows = await applyIsolated(set, descriptor, accepted, outcomes);

  const events: PendingEvent[] = [];
  const created: { descriptor: ResourceDescriptor; row: Row; changes: Changes }[] = [];
  const written: WrittenRecord[] = [];
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
      const meta = p.op.changes.meta;
      written.push({ kind: 'create', row, previous: null, changed: NOTHING_CHANGED, ...(meta && { meta }) });
    } else if (p.op.kind === 'delete') {
      if (recorded) events.push(eventOf(p, 'destroyed', snapshot(rules, row)));
      written.push({ kind: 'delete', row, previous: p.current, changed: NOTHING_CHANGED });
    } else {
      const changes = p.changes as UpdateChanges;
      const changed = changedNames(changes, p.current!, row);
      const domainEvent = changes.domainEvent;
      if (recorded && (changed.size > 0 || domainEvent)) events.push(eventOf(p, 'updated', snapshot(rules, row, changed), snapshot(rules, p.current!, changed)));
      if (recorded && domainEvent) events.push(eventOf(p, domainEvent, snapshot(rules, row)));
      written.push({
        kind: 'update',
        row,
        previous: p.current,
        changed,
        ...(changes.action && { action: changes.action }),
        ...(changes.effect && { effect: changes.effect }),
      });
    }
  }
  return { events, created, written };
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
  const lookup = recordReader(set);
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

/**
 * The resource's set-level review of the records that passed their own checks: refuses some,
 * adds changes to others (a sequence state's first step). Returns the records to write.
 */
async function reviewed(set: SetWrite, rules: RuleContext, checked: readonly Prepared[], outcomes: WriteOutcome[]): Promise<Prepared[]> {
  const behaviour = set.options.behaviours.get(rules.descriptor.type);
  if (!behaviour?.review || checked.length === 0) return [...checked];
  const writes: ReviewedWrite[] = checked.map((p) => ({
    kind: p.op.kind,
    next: p.changes ? nextValues(rules.descriptor, p.changes, p.current) : null,
    previous: p.current && namedRow(rules.descriptor, { ...p.current }),
    ...(p.changes?.action && { action: p.changes.action }),
  }));
  const reviews = await behaviour.review(writes, recordReader(set), { orgId: set.orgId, now: set.now, actor: set.actor });
  const accepted: Prepared[] = [];
  checked.forEach((p, i) => {
    const review = reviews[i] ?? {};
    if (review.problems?.length) {
      outcomes[p.index] = { status: 'refused', error: validationError(review.problems) };
      return;
    }
    if (!review.changes || !p.changes || Object.keys(review.changes).length === 0) {
      accepted.push(p);
      return;
    }
    const added = changesByName(rules.descriptor, declaredChanges(`${rules.descriptor.type} review`, behaviour.derives, review.changes));
    accepted.push({
      ...p,
      changes: {
        ...p.changes,
        attributes: new Map([...p.changes.attributes, ...added.attributes]),
        relationships: new Map([...p.changes.relationships, ...added.relationships]),
      },
    });
  });
  return accepted;
}

/** How many records `writeInChunks` writes per set: a bulk job's chunk. */
const EFFECT_CHUNK = 1000;

/** What `afterWrite` hooks may do, within the set's transaction and through the same writer. */
function writeEffects(set: SetWrite): WriteEffects {
  const write: WriteEffects['write'] = (operations) => set.writer.write({ tx: set.tx, orgId: set.orgId, actor: set.actor, catalog: set.catalog }, operations);
  return {
    orgId: set.orgId,
    now: set.now,
    actor: set.actor,
    tx: set.tx,
    records: recordReader(set),
    write,
    async writeInChunks(operations) {
      for (let i = 0; i < operations.length; i += EFFECT_CHUNK) await write(operations.slice(i, i + EFFECT_CHUNK));
    },
    action: (type, id, action, params, effect) => actionOperation(set.options.behaviours, set.catalog.entry(type).descriptor, id, action, params, effect),
    update: (type, id, values, domainEvent) => ({
      kind: 'update',
      type,
      id,
      changes: { ...changesByName(set.catalog.entry(type).descriptor, values), ...(domainEvent && { domainEvent }) },
    }),
    create: (type, values) => ({ kind: 'create', type, changes: changesByName(set.catalog.entry(type).descriptor, values) }),
  };
}

/** What behaviours' checks and hooks may read of other records, in the write's transaction. */
function recordReader(set: SetWrite): RecordReader {
  const presence = async (type: string, id: number): Promise<RecordPresence> => {
    if (!set.catalog.has(type)) return (await set.options.dynamicRecords?.(set.tx, set.orgId, type, id)) ?? 'unknownType';
    const target = set.catalog.entry(type).descriptor;
    const found = await existingTargets(set.tx, set.orgId, new Map([[target, new Set([id])]]));
    return found.size > 0 ? 'found' : 'missing';
  };
  const descriptorOf = (type: string): ResourceDescriptor => {
    if (!set.catalog.has(type)) throw new Error(`behaviours read records of ${type}, which the catalog does not have`);
    return set.catalog.entry(type).descriptor;
  };
  return {
    presence,
    async rows(type, ids) {
      const rows = await selectRows(set.tx, descriptorOf(type), set.orgId, [{ column: 'id', cast: 'bigint', values: [...new Set(ids)] }]);
      return new Map(rows.map((row) => [Number(row.id), namedRow(descriptorOf(type), row)]));
    },
    async find(type, where) {
      const descriptor = descriptorOf(type);
      const rows = await selectRows(
        set.tx,
        descriptor,
        set.orgId,
        Object.entries(where).map(([name, values]) => ({ ...columnOf(descriptor, name), values })),
      );
      return rows.map((row) => namedRow(descriptor, row));
    },
    async serialize(scope, keys) {
      const sorted = [...new Set(keys)].sort((a, b) => a - b);
      if (sorted.length === 0) return;
      // One statement takes every key in ascending order, so two sets cannot deadlock.
      await set.tx.unsafe(
        `select pg_advisory_xact_lock(hashtextextended($1 || ':' || k, 0)) from unnest($2::bigint[]) as k order by k`,
        [`${set.orgId}:${scope}`, sorted] as never[],
        { prepare: true },
      );
    },
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

/** A row with its to-one relationship ids under their names too, as behaviours speak. */
function namedRow(descriptor: ResourceDescriptor, row: Row): Row {
  for (const rel of toOnes(descriptor)) row[rel.name] = row[relationshipAlias(rel)] ?? null;
  return row;
}

/** The column behind an attribute or to-one relationship name, and the type its values are compared as. */
function columnOf(descriptor: ResourceDescriptor, name: string): { column: string; cast: 'bigint' | 'text' | 'boolean' } {
  if (name === 'id') return { column: 'id', cast: 'bigint' };
  const rel = toOnes(descriptor).find((r) => r.name === name);
  if (rel) return { column: rel.column, cast: 'bigint' };
  const attribute: AttributeDescriptor | undefined = descriptor.attributes.find((a) => a.name === name);
  if (!attribute || !['string', 'integer', 'boolean'].includes(attribute.type) || attribute.format) {
    throw new Error(`behaviours find ${descriptor.type} records by ${name}, which is no plain attribute or to-one relationship`);
  }
  return { column: attribute.column, cast: attribute.type === 'integer' ? 'bigint' : attribute.type === 'boolean' ? 'boolean' : 'text' };
}

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
  /** The effect to pass on when the handler gives none (an action run for another record's sake). */
  effect?: string,
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
      const passed = result.effect ?? effect;
      return { ...changesByName(descriptor, changes), action, ...(result.event && { domainEvent: result.event }), ...(passed && { effect: passed }) };
    },
  };
}

/** Another record's action run by a behaviour (a call completing its task), in the same write. */
async function runAction(set: SetWrite, type: string, id: number, action: string): Promise<void> {
  const operation = actionOperation(set.options.behaviours, set.catalog.entry(type).descriptor, id, action);
  const [outcome] = await set.writer.write({ tx: set.tx, orgId: set.orgId, actor: set.actor, catalog: set.catalog }, [operation]);
  if (outcome!.status === 'refused') throw outcome!.error;
}
