import { descriptors } from '../../generated/resources/index.js';
import { withActivityCounts } from '../activity-counts/index.js';
import type { Behaviours } from '../engine/index.js';
import { withMailTracking } from '../mail/tracking/index.js';
import { withMailAutomation } from '../mail/index.js';
import { withSequenceAutomation } from '../sequences/index.js';
import { withActorStamps } from './actor-stamps.js';
import { batchBehaviour } from './batch.js';
import { callBehaviour } from './call.js';
import { eventBehaviour } from './event.js';
import { favoriteBehaviour } from './favorite.js';
import { mailboxBehaviour } from './mailbox.js';
import { phoneNumberBehaviour } from './phone-number.js';
import { prospectBehaviour } from './prospect.js';
import { sequenceBehaviour } from './sequence.js';
import { sequenceStateBehaviour } from './sequence-state.js';
import { sequenceTemplateBehaviour } from './sequence-template.js';
import { taskBehaviour } from './task.js';
import { userBehaviour } from './user.js';
import { webhookBehaviour } from './webhook.js';
import { webhookDeliveryBehaviour } from './webhook-delivery.js';

/**
 * Behaviour of the standard resources that do more than store what clients send, and creator
 * and updater wherever a resource has them, the sequence automation (runtime/sequences), the
 * mail automation (runtime/mail: sending scheduled mailings, invitations), what mail results
 * set in motion (runtime/mail/tracking) and the activity counts they add to
 * (runtime/activity-counts).
 */
export const standardBehaviours: Behaviours = withActorStamps(
  withActivityCounts(
    withMailTracking(
      withMailAutomation(
        withSequenceAutomation(
          new Map([
            ['batch', batchBehaviour],
            ['call', callBehaviour],
            ['event', eventBehaviour],
            ['favorite', favoriteBehaviour],
            ['mailbox', mailboxBehaviour],
            ['phoneNumber', phoneNumberBehaviour],
            ['prospect', prospectBehaviour],
            ['sequence', sequenceBehaviour],
            ['sequenceState', sequenceStateBehaviour],
            ['sequenceTemplate', sequenceTemplateBehaviour],
            ['task', taskBehaviour],
            ['user', userBehaviour],
            ['webhook', webhookBehaviour],
            ['webhookDelivery', webhookDeliveryBehaviour],
          ]),
        ),
      ),
    ),
  ),
  descriptors.values(),
);
