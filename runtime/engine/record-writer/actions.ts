/**
 * A resource's actions as writes: the update an action makes of one record, and an action run
 * by another record's behaviour within the same write.
 */
import type { ResourceDescriptor } from '../../model/descriptor.js';
import type { Behaviours } from '../behaviour.js';
import { declaredChanges } from '../behaviour-check.js';
import { changesByName } from '../record-rules.js';
import type { UpdateOperation } from '../write-operations.js';
import { innerScope, type SetWrite } from './set-write.js';

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
export async function runAction(set: SetWrite, type: string, id: number, action: string): Promise<void> {
  const operation = actionOperation(set.options.behaviours, set.catalog.entry(type).descriptor, id, action);
  const [outcome] = await set.writer.write(innerScope(set), [operation]);
  if (outcome!.status === 'refused') throw outcome!.error;
}
