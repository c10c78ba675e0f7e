import type { ResourceBehaviour } from '../engine/index.js';

/** statusChangedAt: when the number was given its current status. */
export const phoneNumberBehaviour: ResourceBehaviour = {
  derives: ['statusChangedAt'],
  derive(next, previous, { now }) {
    const status = next.status ?? null;
    if (previous ? status === (previous.status ?? null) : status === null) return {};
    return { statusChangedAt: now.toISOString() };
  },
};
