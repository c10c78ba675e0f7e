import { descriptors } from '../../generated/routes/index.js';
import type { Behaviours } from '../engine/index.js';
import { withMailAutomation } from '../mail/index.js';
import { withSequenceAutomation } from '../sequences/index.js';
import { withActorStamps } from './actor-stamps.js';
import { batchBehaviour } from './batch.js';
import { callBehaviour } from './call.js';
import { eventBehaviour } from './event.js';
import { favoriteBehaviour } from './favorite.js';
import { phoneNumberBehaviour } from './phone-number.js';
import { prospectBehaviour } from './prospect.js';
import { sequenceBehaviour } from './sequence.js';
import { sequenceStateBehaviour } from './sequence-state.js';
import { sequenceTemplateBehaviour } from './sequence-template.js';
import { taskBehaviour } from './task.js';
import { userBehaviour } from './user.js';
import { webhookBehaviour } from './webhook.js';

/**
 * Behaviour of the standard resources that do more than store what clients send, and creator
 * and updater wherever a resource has them, the sequence automation (runtime/sequences) and the
 * mail automation (runtime/mail: sending scheduled mailings, invitations).
 */
export const standardBehaviours: Behaviours = withActorStamps(
  withMailAutomation(
    withSequenceAutomation(
      new Map([
        ['batch', batchBehaviour],
        ['call', callBehaviour],
        ['event', eventBehaviour],
        ['favorite', favoriteBehaviour],
        ['phoneNumber', phoneNumberBehaviour],
        ['prospect', prospectBehaviour],
        ['sequence', sequenceBehaviour],
        ['sequenceState', sequenceStateBehaviour],
        ['sequenceTemplate', sequenceTemplateBehaviour],
        ['task', taskBehaviour],
        ['user', userBehaviour],
        ['webhook', webhookBehaviour],
      ]),
    ),
  ),
  descriptors.values(),
);
