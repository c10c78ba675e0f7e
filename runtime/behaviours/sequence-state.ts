import { actionFailed } from '../jsonapi/index.js';
import type { ActionHandler, ResourceBehaviour } from '../engine/index.js';

/** The pause reason of a state paused by hand (the pause action, bulk prospectsPauseAll). */
export const MANUAL_PAUSE_REASON = 'manual';

/**
 * The states from which each action may move a sequence state, where it goes, and what else it
 * stores: a pause says it was made by hand; resuming clears the reason, as the end of an
 * out-of-office pause does (runtime/mail/sync/out-of-office.ts).
 */
const TRANSITIONS: Record<string, { from: readonly string[]; to: string; event?: string; also?: Record<string, unknown> }> = {
  finish: { from: ['pending', 'active', 'paused'], to: 'finished', event: 'finished' },
  pause: { from: ['pending', 'active'], to: 'paused', also: { pauseReason: MANUAL_PAUSE_REASON } },
  resume: { from: ['paused'], to: 'active', also: { pauseReason: null } },
};

function transition(action: string): ActionHandler {
  const rule = TRANSITIONS[action]!;
  return {
    changes: ['state', 'stateChangedAt', 'pauseReason'],
    handle({ record, now }) {
      if (!rule.from.includes(String(record.state))) {
        throw actionFailed('invalidStateTransition', `A sequence state in state "${String(record.state)}" cannot ${action}`);
      }
      return { changes: { state: rule.to, stateChangedAt: now.toISOString(), ...rule.also }, ...(rule.event && { event: rule.event }) };
    },
  };
}

export const sequenceStateBehaviour: ResourceBehaviour = {
  /**
   * stateChangedAt follows every change of state, whoever makes it; activeAt is the last time
   * the state became active again (resumed, its sequence activated, an out-of-office pause
   * over), as moving to a step sets it (runtime/sequences/advance.ts). The enrolment review
   * (runtime/sequences/enrolment.ts) sets state, the first step, activeAt and the account.
   */
  derives: ['stateChangedAt', 'state', 'sequenceStep', 'activeAt', 'account'],
  derive(next, previous, write) {
    if (previous && next.state === previous.state) return {};
    const now = write.now.toISOString();
    return { stateChangedAt: now, ...(previous && next.state === 'active' && { activeAt: now }) };
  },
  actions: { finish: transition('finish'), pause: transition('pause'), resume: transition('resume') },
};
