import { invalidQueryParameter } from '../jsonapi/index.js';
import type { ResourceBehaviour } from '../engine/index.js';

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

export const taskBehaviour: ResourceBehaviour = {
  actions: {
    /** Completes the task; `completionNote` replaces its note. Emits task.completed. */
    markComplete({ params, now }) {
      const note = params.get('completionNote');
      return {
        changes: { completed: true, state: 'completed', completedAt: now.toISOString(), ...(note !== undefined && { note }) },
        event: 'completed',
      };
    },
    /** Moves dueAt to `actionParams[dueAt]`, or one day from now when not given. */
    snooze({ params, now }) {
      const given = params.get('dueAt');
      if (given !== undefined && Number.isNaN(Date.parse(given))) {
        throw invalidQueryParameter('actionParams[dueAt]', 'actionParams[dueAt] must be an ISO 8601 timestamp');
      }
      const dueAt = given !== undefined ? new Date(given) : new Date(now.getTime() + ONE_DAY_MS);
      return { changes: { dueAt: dueAt.toISOString() } };
    },
  },
};
