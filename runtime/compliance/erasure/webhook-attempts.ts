import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * Delivery attempts (runtime/webhooks/deliver-task.ts): `error` is the only text a row holds
 * (a network error's message, a host check's reason), and it can quote a receiver's answer or
 * a URL with the address in it. The rest are ids, numbers and times.
 */
export const webhookAttemptsStep: ErasureStep = {
  kind: 'webhookAttempts',
  tables: ['webhook_attempts'],
  async run({ sql, subject, log }) {
    const count = await redactColumns(sql, subject.orgId, addressPattern(subject.email), { table: 'webhook_attempts', text: ['error'] });
    log.info({ step: 'webhookAttempts', count }, 'webhook attempts redacted');
  },
};
