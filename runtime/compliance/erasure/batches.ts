import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * What the bulk module keeps (runtime/bulk/batch-store.ts): each item's input as JSON text
 * (`data`; a bulk upsert's attributes, an import's CSV row), its outcome (`info`, `errors`), and
 * each batch's request (`payload`, `external_start_payload`: a bulk action's filters may name the
 * address), failure `summary` and `actor`. Batches and their items are read through the API, so
 * they are scrubbed, not deleted: counts and states stay right.
 */
export const batchesStep: ErasureStep = {
  kind: 'batches',
  tables: ['batch_items', 'batches'],
  async run({ sql, subject, log }) {
    const pattern = addressPattern(subject.email);
    const items = await redactColumns(sql, subject.orgId, pattern, {
      table: 'batch_items',
      text: ['data', 'info'],
      json: ['errors'],
      touch: 'updated_at',
    });
    const batches = await redactColumns(sql, subject.orgId, pattern, {
      table: 'batches',
      json: ['payload', 'external_start_payload', 'summary', 'actor'],
      touch: 'updated_at',
    });
    log.info({ step: 'batches', items, batches }, 'batches redacted');
  },
};
