import type { ResourceBehaviour } from '../engine/index.js';
import { testSyncServedElsewhere } from '../mail/sync/index.js';

/**
 * Mailboxes store what clients send; their actions do network I/O, so each is served by its
 * own module's route ahead of the engine (runtime/mail/...), and named here only so that the
 * start-up check finds a handler for every action the schema declares.
 */
export const mailboxBehaviour: ResourceBehaviour = {
  actions: { testSync: testSyncServedElsewhere },
};
