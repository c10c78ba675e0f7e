import { descriptors } from '../../generated/resources/index.js';
import { restoredPayload, type ResourceBehaviour } from '../engine/index.js';

/**
 * Events are the outbox of every change, and apps may record external activity as events too
 * (SPEC.md's server-to-server example posts a name, a body and an external URL). Recording one
 * records no event about it, and it happened now unless the app says when.
 */
export const eventBehaviour: ResourceBehaviour = {
  unrecorded: true,
  derives: ['eventAt'],
  derive(next, previous, { now }) {
    if (previous || next.eventAt != null) return {};
    return { eventAt: now.toISOString() };
  },
  present(row) {
    // A created event is stored without its nulls (runtime/engine/event-payload.ts); clients see them.
    if (row.action !== 'created' || row.payload == null) return row;
    const payload = restoredPayload((type) => descriptors.get(type), { resourceType: row.resourceType as string | null, action: row.action, payload: row.payload });
    return { ...row, payload };
  },
};
