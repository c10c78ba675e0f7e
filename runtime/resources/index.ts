import type { Behaviours } from '../engine/index.js';
import { callBehaviour } from './call.js';
import { favoriteBehaviour } from './favorite.js';
import { prospectBehaviour } from './prospect.js';
import { sequenceBehaviour } from './sequence.js';
import { sequenceStateBehaviour } from './sequence-state.js';
import { taskBehaviour } from './task.js';
import { webhookBehaviour } from './webhook.js';

/** Behaviour of the standard resources that do more than store what clients send. */
export const standardBehaviours: Behaviours = new Map([
  ['call', callBehaviour],
  ['favorite', favoriteBehaviour],
  ['prospect', prospectBehaviour],
  ['sequence', sequenceBehaviour],
  ['sequenceState', sequenceStateBehaviour],
  ['task', taskBehaviour],
  ['webhook', webhookBehaviour],
]);
