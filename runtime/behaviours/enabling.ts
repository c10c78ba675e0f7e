import type { ActionHandler, ResourceBehaviour } from '../engine/index.js';

/**
 * `enabled` and `enabledAt` of sequences and sequence templates: the activate and deactivate
 * actions, and enabled from creation, since clients create a sequence and enrol prospects
 * without ever activating it (SPEC.md, Other operations). Activating an active record keeps its
 * enabledAt, as locking a locked sequence keeps its lockedAt.
 */
export const enablingActions: Readonly<Record<'activate' | 'deactivate', ActionHandler>> = {
  activate: {
    changes: ['enabled', 'enabledAt'],
    handle: ({ record, now }) => ({ changes: record.enabled === true ? {} : { enabled: true, enabledAt: now.toISOString() } }),
  },
  deactivate: { changes: ['enabled', 'enabledAt'], handle: () => ({ changes: { enabled: false, enabledAt: null } }) },
};

/** `derive` and `derives` that enable a record when it is created. */
export const enabledOnCreate: Pick<ResourceBehaviour, 'derive' | 'derives'> = {
  derives: ['enabled', 'enabledAt'],
  derive: (_next, previous, { now }) => (previous ? {} : { enabled: true, enabledAt: now.toISOString() }),
};
