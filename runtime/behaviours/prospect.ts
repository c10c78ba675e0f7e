import type { ResourceBehaviour } from '../engine/index.js';

/** `name` is maintained as first and last name joined, whenever either is written. */
export const prospectBehaviour: ResourceBehaviour = {
  derives: ['name'],
  derive(next, previous) {
    if (previous && next.firstName === previous.firstName && next.lastName === previous.lastName) return {};
    const name = [next.firstName, next.lastName].filter((part) => typeof part === 'string' && part !== '').join(' ');
    return { name: name === '' ? null : name };
  },
};
