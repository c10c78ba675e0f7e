import { orgScopedTransaction } from '../../tenancy/index.js';
import { addressPattern } from './address.js';
import { redactColumns } from './redact-columns.js';
import type { ErasureStep } from './step.js';

/**
 * Import records and the CSV dedupe index. import_keys is kept by triggers (migration 0019), so
 * the deleted prospects' keys went with them; a key equal to the address whose record is gone
 * is removed here all the same (belt and braces: it would make a later import of the address
 * skip or overwrite a record that does not exist). Keys of records that still exist are theirs
 * and stay, or the index would no longer match its tables. An import's `error_reason` can quote
 * a row; its file name and other descriptive texts are the client's labels and are kept.
 */
export const importsStep: ErasureStep = {
  kind: 'imports',
  tables: ['import_keys', 'imports'],
  async run({ sql, subject, log }) {
    const pattern = addressPattern(subject.email);
    // One statement: the org's keys are short rows, one per keyed value, read by their index.
    const keys = await orgScopedTransaction(sql, subject.orgId, (tx) =>
      tx.unsafe(
        `delete from import_keys k
        where k.org_id = $1 and k.key = $2
          and not exists (select 1 from prospects p where k.resource_type = 'prospect' and p.org_id = $1 and p.id = k.record_id)
          and not exists (select 1 from accounts a where k.resource_type = 'account' and a.org_id = $1 and a.id = k.record_id)`,
        [subject.orgId, pattern.address],
      ),
    );
    const imports = await redactColumns(sql, subject.orgId, pattern, { table: 'imports', text: ['error_reason'], touch: 'updated_at' });
    log.info({ step: 'imports', keys: keys.count, imports }, 'imports redacted');
  },
};
