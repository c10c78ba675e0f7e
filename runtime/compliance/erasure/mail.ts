import { addressPattern } from './address.js';
import type { ErasureStep } from './step.js';

/**
 * Mail kept apart from the mailings. The local transport stores every message whole
 * (mail_messages, runtime/mail): a message sent to, from or about the address is deleted, not
 * scrubbed, since its MIME text may carry the address encoded (quoted-printable, base64) where
 * no pattern finds it; so is a stored copy whose mailing is gone, the per-prospect phase having
 * deleted the subject's mailings. mail_sync_messages remembers replies and bounces applied to a
 * mailing (runtime/mail/sync): rows whose mailing is gone tell who answered whom, and go too.
 */
export const mailStep: ErasureStep = {
  kind: 'mail',
  async run({ tx, subject, log }) {
    const pattern = addressPattern(subject.email);
    const messages = await tx.unsafe(
      `delete from mail_messages m
        where m.org_id = $1
          and (m.envelope_from ~* $2 or m.subject ~* $2 or m.raw ~* $2
               or exists (select 1 from unnest(m.envelope_to) as t(address) where t.address ~* $2)
               or (m.mailing_id is not null and not exists (select 1 from mailings g where g.org_id = $1 and g.id = m.mailing_id)))`,
      [subject.orgId, pattern.sql],
    );
    const synced = await tx.unsafe(
      `delete from mail_sync_messages s
        where s.org_id = $1 and not exists (select 1 from mailings g where g.org_id = $1 and g.id = s.mailing_id)`,
      [subject.orgId],
    );
    log.info({ step: 'mail', messages: messages.count, synced: synced.count }, 'stored mail deleted');
  },
};
