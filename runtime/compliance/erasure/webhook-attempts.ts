import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * Delivery attempts (runtime/webhooks/deliver-task.ts): `error` is the only text a row holds
 * (a network error's message, a host check's reason), and it can quote a receiver's answer or
 * a URL with the address in it. The rest are ids, numbers and times. The delivery log's records
 * hold the same error and the event's name; the payload is the event's, which the events step scrubs.
 */
export const webhookAttemptsStep: ErasureStep = {
  kind: 'webhookAttempts',
  tables: ['webhook_attempts', 'webhook_deliveries'],
  async run({ sql, subject, log }) {
    const pattern = addressPattern(subject.email);
    const count = await redactColumns(sql, subject.orgId, pattern, { table: 'webhook_attempts', text: ['error'] });
    // The delivery log (runtime/webhooks/delivery-log.ts) copies its last attempt's error.
    const logged = await redactColumns(sql, subject.orgId, pattern, { table: 'webhook_deliveries', text: ['error'] });
    log.info({ step: 'webhookAttempts', count, logged }, 'webhook attempts redacted');
  },
};
