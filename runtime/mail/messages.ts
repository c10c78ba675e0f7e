import type postgres from 'postgres';
import { orgScopedTransaction } from '../tenancy/index.js';

/** What operators read of the local transport's messages (`cadence mail list|show`). */

export interface MailMessageSummary {
  readonly id: number;
  readonly mailingId: number | null;
  readonly from: string;
  readonly to: string[];
  readonly subject: string | null;
  readonly messageId: string;
  readonly storedAt: string;
}

interface MessageRow {
  id: string;
  mailing_id: string | null;
  envelope_from: string;
  envelope_to: string[];
  subject: string | null;
  message_id: string;
  stored_at: Date;
  raw?: string;
}

function summaryOf(row: MessageRow): MailMessageSummary {
  return {
    id: Number(row.id),
    mailingId: row.mailing_id === null ? null : Number(row.mailing_id),
    from: row.envelope_from,
    to: row.envelope_to,
    subject: row.subject,
    messageId: row.message_id,
    storedAt: row.stored_at.toISOString(),
  };
}

const COLUMNS = 'id, mailing_id, envelope_from, envelope_to, subject, message_id, stored_at';

/** The org's stored messages, newest first, at most `limit`. */
export async function listMailMessages(sql: postgres.Sql, orgId: number, limit = 100): Promise<MailMessageSummary[]> {
  const rows = await orgScopedTransaction(
    sql,
    orgId,
    (tx) => tx.unsafe<MessageRow[]>(`select ${COLUMNS} from mail_messages where org_id = $1 order by id desc limit $2`, [orgId, limit], { prepare: true }),
    { readOnly: true },
  );
  return rows.map(summaryOf);
}

/** One stored message with its whole MIME text, or undefined. */
export async function showMailMessage(sql: postgres.Sql, orgId: number, id: number): Promise<(MailMessageSummary & { raw: string }) | undefined> {
  const [row] = await orgScopedTransaction(
    sql,
    orgId,
    (tx) => tx.unsafe<MessageRow[]>(`select ${COLUMNS}, raw from mail_messages where org_id = $1 and id = $2`, [orgId, id], { prepare: true }),
    { readOnly: true },
  );
  return row && { ...summaryOf(row), raw: row.raw! };
}
