import type { ResourceBehaviour } from '../engine/index.js';

/** Locking is idempotent: locking a locked sequence keeps its original lockedAt. */
export const sequenceBehaviour: ResourceBehaviour = {
  actions: {
    lock: ({ record, now }) => ({ changes: record.locked ? {} : { locked: true, lockedAt: now.toISOString() } }),
    unlock: () => ({ changes: { locked: false, lockedAt: null } }),
  },
};
