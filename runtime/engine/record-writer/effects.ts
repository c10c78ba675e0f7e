/**
 * What behaviours' hooks may do: read the org's records, and write others through the same
 * writer in the same transaction.
 */
import type { WriteEffects } from '../behaviour.js';
import { changesByName } from '../record-rules.js';
import { actionOperation } from './actions.js';
import { recordReader } from './record-reader.js';
import { innerScope, type SetWrite } from './set-write.js';

/** How many records `writeInChunks` writes per set: a bulk job's chunk. */
export const EFFECT_CHUNK = 1000;

/** What `afterWrite` hooks may do, within the set's transaction and through the same writer. */
export function writeEffects(set: SetWrite): WriteEffects {
  const write: WriteEffects['write'] = (operations) => set.writer.write(innerScope(set), operations);
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
