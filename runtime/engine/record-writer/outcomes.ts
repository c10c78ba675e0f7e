/**
 * The last step of a group: each stored record's outcome, the events to record for it (in
 * operation order, once the wave is written) and what the behaviours' hooks are told of it.
 */
import type { ResourceDescriptor } from '../../model/descriptor.js';
import type { WrittenRecord } from '../behaviour.js';
import type { ChangeEvent } from '../event-log.js';
import { changedNames, compactSnapshot, snapshot, type RuleContext } from '../record-rules.js';
import type { Row } from '../render.js';
import type { Changes, CreateOperation, UpdateChanges, WriteOutcome } from '../write-operations.js';
import type { Prepared } from './set-write.js';

/** An event of the record at `index`, recorded once the wave's rows are written. */
export interface PendingEvent {
  readonly index: number;
  readonly event: ChangeEvent;
}

/** A created record, for its resource's afterCreate. */
export interface CreatedRecord {
  readonly descriptor: ResourceDescriptor;
  readonly row: Row;
  readonly changes: Changes;
}

/** What a group wrote, for the wave: its events, its creates, and its records for afterWrite. */
export interface GroupWritten {
  readonly events: PendingEvent[];
  readonly created: CreatedRecord[];
  readonly written: WrittenRecord[];
}

/** One record's share of a GroupWritten; events only when the resource records them. */
interface RecordWritten {
  readonly events: PendingEvent[];
  readonly written: WrittenRecord;
}

const NOTHING_CHANGED: ReadonlySet<string> = new Set();

/** How a group's events are stored. */
interface EventStorage {
  /** Created events without their nulls (runtime/engine/event-payload.ts): for types readers can restore. */
  readonly compactCreates: boolean;
}

/** Each stored record's `written` outcome, events and WrittenRecord; a record without a row was refused while applying. */
export function writtenOf(
  rules: RuleContext,
  accepted: readonly Prepared[],
  rows: ReadonlyMap<number, Row>,
  outcomes: WriteOutcome[],
  storage: EventStorage,
): GroupWritten {
  const group: GroupWritten = { events: [], created: [], written: [] };
  const recorded = !rules.behaviours.get(rules.descriptor.type)?.unrecorded;
  for (const p of accepted) {
    const row = rows.get(p.index);
    if (!row) continue;
    outcomes[p.index] = { status: 'written', row };
    const record = recordWritten(rules, p, row, recorded, storage);
    if (p.op.kind === 'create') group.created.push({ descriptor: rules.descriptor, row, changes: p.changes! });
    group.events.push(...record.events);
    group.written.push(record.written);
  }
  return group;
}

function recordWritten(rules: RuleContext, p: Prepared, row: Row, recorded: boolean, storage: EventStorage): RecordWritten {
  switch (p.op.kind) {
    case 'create':
      return created(rules, p, p.op, row, recorded, storage);
    case 'update':
      return updated(rules, p, row, recorded);
    case 'delete':
      return deleted(rules, p, row, recorded);
  }
}

function created(rules: RuleContext, p: Prepared, op: CreateOperation, row: Row, recorded: boolean, storage: EventStorage): RecordWritten {
  const meta = op.changes.meta;
  return {
    events: recorded ? [eventOf(rules, p, row, 'created', storage.compactCreates ? compactSnapshot(rules, row) : snapshot(rules, row))] : [],
    written: { kind: 'create', row, previous: null, changed: NOTHING_CHANGED, ...(meta && { meta }) },
  };
}

function deleted(rules: RuleContext, p: Prepared, row: Row, recorded: boolean): RecordWritten {
  return {
    events: recorded ? [eventOf(rules, p, row, 'destroyed', snapshot(rules, row))] : [],
    written: { kind: 'delete', row, previous: p.current, changed: NOTHING_CHANGED },
  };
}

/** An update records `updated` when it changed something or has a domain event, and then its domain event. */
function updated(rules: RuleContext, p: Prepared, row: Row, recorded: boolean): RecordWritten {
  const changes = p.changes as UpdateChanges;
  const changed = changedNames(changes, p.current!, row);
  const domainEvent = changes.domainEvent;
  const events: PendingEvent[] = [];
  if (recorded && (changed.size > 0 || domainEvent)) events.push(eventOf(rules, p, row, 'updated', snapshot(rules, row, changed), snapshot(rules, p.current!, changed)));
  if (recorded && domainEvent) events.push(eventOf(rules, p, row, domainEvent, snapshot(rules, row)));
  return {
    events,
    written: {
      kind: 'update',
      row,
      previous: p.current,
      changed,
      ...(changes.action && { action: changes.action }),
      ...(changes.effect && { effect: changes.effect }),
    },
  };
}

function eventOf(rules: RuleContext, p: Prepared, row: Row, action: string, data: ChangeEvent['data'], before?: ChangeEvent['data']): PendingEvent {
  return {
    index: p.index,
    event: {
      resourceType: rules.descriptor.type,
      resourceId: Number(p.current?.id ?? row.id),
      action,
      data,
      ...(before && { before }),
      deliverable: rules.descriptor.webhookActions.includes(action),
    },
  };
}
