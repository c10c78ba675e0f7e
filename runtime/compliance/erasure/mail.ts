import { addressPattern, holdsAddressSql } from './address.js';
import { changeInSlices } from './slices.js';
import type { ErasureStep } from './step.js';

/**
 * Mail kept apart from the mailings. The local transport stores every message whole
 * (mail_messages, runtime/mail): a message sent to, from or about the address is deleted, not
 * scrubbed, since its MIME text may carry the address encoded (quoted-printable, base64) where
 * no pattern finds it; so is a stored copy whose mailing is gone, the per-prospect phase having
 * deleted the subject's mailings. mail_sync_messages remembers replies and bounces applied to a
 * mailing (runtime/mail/sync): rows whose mailing is gone tell who answered whom, and go too.
 * Both are deleted a slice of keys at a time (slices.ts).
 */
export const mailStep: ErasureStep = {
  kind: 'mail',
  tables: ['mail_messages', 'mail_sync_messages'],
  async run({ sql, subject, log }) {
    const pattern = addressPattern(subject.email);
    const holds = (value: string) => holdsAddressSql(value, '$2', '$3');
    const messages = await changeInSlices(sql, subject.orgId, {
      table: 'mail_messages',
      key: 'id',
      change: (inSlice) => `delete from mail_messages m
                where m.org_id = $1 and ${inSlice('m.id')}
                  and (${holds('m.envelope_from')} or ${holds('m.subject')} or ${holds('m.raw')}
                       or exists (select 1 from unnest(m.envelope_to) as t(address) where ${holds('t.address')})
                       or (m.mailing_id is not null and not exists (select 1 from mailings g where g.org_id = $1 and g.id = m.mailing_id)))
                returning 1`,
      parameters: [pattern.sql, pattern.prefilter],
      firstKey: 0,
    });
    const synced = await changeInSlices(sql, subject.orgId, {
      table: 'mail_sync_messages',
      key: 'message_key',
      change: (inSlice) => `delete from mail_sync_messages s
                where s.org_id = $1 and ${inSlice('s.message_key')}
                  and not exists (select 1 from mailings g where g.org_id = $1 and g.id = s.mailing_id)
                returning 1`,
      parameters: [],
      firstKey: '',
    });
    log.info({ step: 'mail', messages, synced }, 'stored mail deleted');
  },
};
