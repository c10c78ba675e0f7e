/**
 * The behaviours' hooks around a written set: beforeDelete before a group's rows are deleted,
 * afterCreate and afterWrite once a wave's rows and events are stored. All run in the write's
 * transaction and write through the same writer.
 */
import type { ResourceDescriptor } from '../../model/descriptor.js';
import type { WrittenRecord } from '../behaviour.js';
import { relationshipIdsOf } from '../record-rules.js';
import type { Row } from '../render.js';
import type { Changes } from '../write-operations.js';
import { runAction } from './actions.js';
import { writeEffects } from './effects.js';
import { namedView } from './record-reader.js';
import type { Prepared, SetWrite } from './set-write.js';

/** Tells the resource of the records it is about to delete, with their rows. */
export async function beforeDelete(set: SetWrite, descriptor: ResourceDescriptor, accepted: readonly Prepared[]): Promise<void> {
  const hook = set.options.behaviours.get(descriptor.type)?.beforeDelete;
  const deleting = accepted.filter((p) => p.op.kind === 'delete');
  if (!hook || deleting.length === 0) return;
  await hook(
    deleting.map((p) => namedView(descriptor, p.current!)),
    writeEffects(set),
  );
}

/** Runs a created record's follow-up (a call completing its task) through the same writer. */
export async function afterCreate(set: SetWrite, descriptor: ResourceDescriptor, row: Row, changes: Changes): Promise<void> {
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

/** Tells each resource with an afterWrite of its records the wave wrote, once per resource. */
export async function afterWrite(set: SetWrite, written: ReadonlyMap<string, readonly WrittenRecord[]>): Promise<void> {
  for (const [type, records] of written) {
    const hook = set.options.behaviours.get(type)?.afterWrite;
    if (!hook || records.length === 0) continue;
    const descriptor = set.catalog.entry(type).descriptor;
    await hook(
      records.map((r) => ({ ...r, row: namedView(descriptor, r.row), previous: r.previous && namedView(descriptor, r.previous) })),
      writeEffects(set),
    );
  }
}
