import type { ResourceBehaviour } from '../engine/index.js';
import { testSendServedElsewhere } from '../mail/index.js';
import { testSyncServedElsewhere } from '../mail/sync/index.js';

/**
 * Mailboxes store what clients send; their credentials never reach events. Their actions do
 * network I/O, so each is served by its own module's route ahead of the engine (runtime/mail
 * for testSend, runtime/mail/sync for testSync), and named here only so that the start-up check
 * finds a handler for every action the schema declares.
 */
export const mailboxBehaviour: ResourceBehaviour = {
  sensitiveAttributes: ['smtpPassword', 'password', 'sendgridApiKey'],
  actions: { testSend: testSendServedElsewhere, testSync: testSyncServedElsewhere },
};
