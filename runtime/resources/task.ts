import { invalidQueryParameter } from '../jsonapi/index.js';
import type { ResourceBehaviour } from '../engine/index.js';
import { parseTimestamp } from '../model/timestamps.js';

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

export const taskBehaviour: ResourceBehaviour = {
  /** stateChangedAt: when the task got its state (created, or moved by markComplete). */
  derives: ['stateChangedAt'],
  derive(next, previous, { now }) {
    if (previous && next.state === previous.state) return {};
    return { stateChangedAt: now.toISOString() };
  },
  actions: {
    /** Completes the task; `completionNote` replaces its note. Emits task.completed. */
    markComplete: {
      changes: ['completed', 'state', 'completedAt', 'note'],
      handle({ params, now }) {
        const note = params.get('completionNote');
        return {
          changes: { completed: true, state: 'completed', completedAt: now.toISOString(), ...(note !== undefined && { note }) },
          event: 'completed',
        };
      },
    },
    /** Moves dueAt to `actionParams[dueAt]`, or one day from now when not given. */
    snooze: {
      changes: ['dueAt'],
      handle({ params, now }) {
        const given = params.get('dueAt');
        const dueAt = given === undefined ? new Date(now.getTime() + ONE_DAY_MS) : parseTimestamp(given);
        if (!dueAt) throw invalidQueryParameter('actionParams[dueAt]', 'actionParams[dueAt] must be an ISO 8601 timestamp that exists');
        return { changes: { dueAt: dueAt.toISOString() } };
      },
    },
  },
};
