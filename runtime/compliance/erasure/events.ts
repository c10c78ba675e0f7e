import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * The event log (runtime/engine/event-log.ts): every write's payload, with the last known values
 * of the deleted prospects and the values of any other record that named the address. Webhook
 * deliveries build their bodies from `payload` when they are sent, so a delivery still queued
 * after this step sends the redacted payload. Events are history, not resources: they are
 * rewritten in place, with no event of their own.
 */
export const eventsStep: ErasureStep = {
  kind: 'events',
  tables: ['events'],
  async run({ sql, subject, log }) {
    const count = await redactColumns(sql, subject.orgId, addressPattern(subject.email), { table: 'events', text: ['body'], json: ['payload'] });
    log.info({ step: 'events', count }, 'events redacted');
  },
};
