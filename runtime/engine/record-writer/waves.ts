/**
 * Splits a set into waves and writes a wave: each resource type's group of records, then the
 * wave's events in one statement, then the behaviours' afterCreate and afterWrite hooks.
 */
import type { WrittenRecord } from '../behaviour.js';
import { recordEvents } from '../event-log.js';
import type { WriteOperation, WriteOutcome } from '../write-operations.js';
import { writeGroup } from './group.js';
import { afterCreate, afterWrite } from './hooks.js';
import type { CreatedRecord, PendingEvent } from './outcomes.js';
import type { SetWrite } from './set-write.js';

/**
 * Splits operations into waves in which each record appears at most once (a set statement
 * cannot apply two changes to one row); a record's second operation goes in the next wave.
 * Most sets are one wave.
 */
export function wavesOf(operations: readonly WriteOperation[]): number[][] {
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

/** Writes the operations at `wave`'s indexes; their outcomes go into `outcomes`. */
export async function writeWave(set: SetWrite, operations: readonly WriteOperation[], wave: readonly number[], outcomes: WriteOutcome[]): Promise<void> {
  const events: PendingEvent[] = [];
  const created: CreatedRecord[] = [];
  const written = new Map<string, WrittenRecord[]>();
  for (const [type, indexes] of indexesByType(set, operations, wave)) {
    const group = await writeGroup(set, set.catalog.entry(type).descriptor, operations, indexes, outcomes);
    events.push(...group.events);
    created.push(...group.created);
    written.set(type, group.written);
  }
  await recordWaveEvents(set, events);
  for (const c of created) await afterCreate(set, c.descriptor, c.row, c.changes);
  await afterWrite(set, written);
}

/** The wave's operation indexes by resource type; a type the catalog lacks fails the whole set before anything is written. */
function indexesByType(set: SetWrite, operations: readonly WriteOperation[], wave: readonly number[]): Map<string, number[]> {
  const byType = new Map<string, number[]>();
  for (const index of wave) {
    const type = operations[index]!.type;
    if (!set.catalog.has(type)) throw new Error(`the record writer has no resource type ${type}`);
    const indexes = byType.get(type);
    if (indexes) indexes.push(index);
    else byType.set(type, [index]);
  }
  return byType;
}

/** Records the wave's events in operation order with one statement, and tells the sink of the deliverable ones. */
async function recordWaveEvents(set: SetWrite, events: PendingEvent[]): Promise<void> {
  events.sort((a, b) => a.index - b.index);
  const ids = await recordEvents(
    set.tx,
    set.orgId,
    events.map((e) => e.event),
  );
  const deliverable = events.flatMap(({ event }, i) => (event.deliverable ? [{ ...event, id: ids[i]! }] : []));
  if (deliverable.length) await set.options.eventSink(set.tx, set.orgId, set.now, deliverable);
}
