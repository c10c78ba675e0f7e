import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * Meeting recordings list their participants and host (jsonb, with e-mail addresses) and a
 * title. The recording is the org's and may have other participants, so it stays, redacted.
 * A call's voice import carries the partner's free metadata (JSON text a client sends) and the
 * recording's URL, either of which can name a participant; it stays too, redacted.
 */
export const kaiaRecordingsStep: ErasureStep = {
  kind: 'kaiaRecordings',
  tables: ['kaia_recordings', 'kaia_voice_imports'],
  async run({ sql, subject, log }) {
    const pattern = addressPattern(subject.email);
    const recordings = await redactColumns(sql, subject.orgId, pattern, {
      table: 'kaia_recordings',
      text: ['title'],
      json: ['participants', 'host', 'topics'],
      touch: 'updated_at',
    });
    const voiceImports = await redactColumns(sql, subject.orgId, pattern, {
      table: 'kaia_voice_imports',
      text: ['metadata', 'recording_url'],
      touch: 'updated_at',
    });
    log.info({ step: 'kaiaRecordings', recordings, voiceImports }, 'meeting recordings redacted');
  },
};
