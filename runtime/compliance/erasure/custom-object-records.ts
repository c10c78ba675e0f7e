import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/** The string fields of a custom object record (runtime/custom-objects): s01 to s10. */
const STRING_FIELDS = Array.from({ length: 10 }, (_, i) => `s${String(i + 1).padStart(2, '0')}`);

/**
 * Custom object records whose string fields hold the address (an e-mail field, a note). The
 * record is another party's, so it stays with the address redacted and `updatedAt` moved. This
 * is not a write through the record writer: its `updated` event would carry the address again
 * in `beforeUpdate`, to every webhook.
 */
export const customObjectRecordsStep: ErasureStep = {
  kind: 'customObjectRecords',
  tables: ['custom_object_records'],
  async run({ sql, subject, log }) {
    const count = await redactColumns(sql, subject.orgId, addressPattern(subject.email), {
      table: 'custom_object_records',
      text: STRING_FIELDS,
      touch: 'updated_at',
    });
    log.info({ step: 'customObjectRecords', count }, 'custom object records redacted');
  },
};
