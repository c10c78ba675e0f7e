import { actionFailed } from '../jsonapi/index.js';
import type { ActionHandler, ResourceBehaviour } from '../engine/index.js';

/** The states from which each action may move a sequence state, and where it goes. */
const TRANSITIONS: Record<string, { from: readonly string[]; to: string; event?: string }> = {
  finish: { from: ['pending', 'active', 'paused'], to: 'finished', event: 'finished' },
  pause: { from: ['pending', 'active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
};

function transition(action: string): ActionHandler {
  const rule = TRANSITIONS[action]!;
  return {
    changes: ['state', 'stateChangedAt'],
    handle({ record, now }) {
      if (!rule.from.includes(String(record.state))) {
        throw actionFailed('invalidStateTransition', `A sequence state in state "${String(record.state)}" cannot ${action}`);
      }
      return { changes: { state: rule.to, stateChangedAt: now.toISOString() }, ...(rule.event && { event: rule.event }) };
    },
  };
}

export const sequenceStateBehaviour: ResourceBehaviour = {
  /**
   * stateChangedAt follows every change of state, whoever makes it. The enrolment review
   * (runtime/sequences/enrolment.ts) sets state, the first step, activeAt and the account.
   */
  derives: ['stateChangedAt', 'state', 'sequenceStep', 'activeAt', 'account'],
  derive(next, previous, write) {
    return previous && next.state === previous.state ? {} : { stateChangedAt: write.now.toISOString() };
  },
  actions: { finish: transition('finish'), pause: transition('pause'), resume: transition('resume') },
};
