import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * Meeting recordings list their participants and host (jsonb, with e-mail addresses) and a
 * title. The recording is the org's and may have other participants, so it stays, redacted.
 */
export const kaiaRecordingsStep: ErasureStep = {
  kind: 'kaiaRecordings',
  async run({ sql, subject, log }) {
    const count = await redactColumns(sql, subject.orgId, addressPattern(subject.email), {
      table: 'kaia_recordings',
      text: ['title'],
      json: ['participants', 'host', 'topics'],
      touch: 'updated_at',
    });
    log.info({ step: 'kaiaRecordings', count }, 'meeting recordings redacted');
  },
};
