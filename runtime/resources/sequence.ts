import type { ResourceBehaviour } from '../engine/index.js';

/** Locking is idempotent: locking a locked sequence keeps its original lockedAt. */
export const sequenceBehaviour: ResourceBehaviour = {
  actions: {
    lock: {
      changes: ['locked', 'lockedAt'],
      handle: ({ record, now }) => ({ changes: record.locked ? {} : { locked: true, lockedAt: now.toISOString() } }),
    },
    unlock: { changes: ['locked', 'lockedAt'], handle: () => ({ changes: { locked: false, lockedAt: null } }) },
  },
};
