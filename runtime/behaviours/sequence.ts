import type { ResourceBehaviour } from '../engine/index.js';
import { enabledOnCreate, enablingActions } from './enabling.js';

/** Locking is idempotent: locking a locked sequence keeps its original lockedAt. A new sequence is enabled. */
export const sequenceBehaviour: ResourceBehaviour = {
  ...enabledOnCreate,
  actions: {
    ...enablingActions,
    lock: {
      changes: ['locked', 'lockedAt'],
      handle: ({ record, now }) => ({ changes: record.locked ? {} : { locked: true, lockedAt: now.toISOString() } }),
    },
    unlock: { changes: ['locked', 'lockedAt'], handle: () => ({ changes: { locked: false, lockedAt: null } }) },
  },
};
