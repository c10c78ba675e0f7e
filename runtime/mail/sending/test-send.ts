import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import type postgres from 'postgres';
import { descriptors } from '../../../generated/resources/index.js';
import { requireScope } from '../../auth/index.js';
import { recordResponder } from '../../bulk/batch-response.js';
import { SERVICE_ACTOR, type ApiEnv, type Behaviours, type RecordWriter } from '../../engine/index.js';
import { actionParams, queryParams } from '../../engine/query-params.js';
import type { Row } from '../../engine/render.js';
import { pathRecordId } from '../../engine/responses.js';
import { actionFailed, jsonApi, resourceNotFound } from '../../jsonapi/index.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { MailServerRefused } from '../server-address.js';
import { outcomeOfError } from './smtp-outcome.js';
import type { TransportFactory } from './transports.js';

export interface TestSendOptions {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly behaviours: Behaviours;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
  readonly transports: TransportFactory;
}

export const TEST_SEND_PATH = '/mailboxes/:id/actions/testSend';

/**
 * POST /api/v2/mailboxes/<id>/actions/testSend: a real message, through the mailbox's
 * transport, to the mailbox's own address. The engine's action handlers run inside the write's
 * transaction, and no transaction may stay open while an SMTP server answers, so this route is
 * served here, ahead of the engine: the mailbox is read in a short read-only transaction, the
 * message sent with none open. The answer is the mailbox, with the server's reply in
 * `meta.smtpResponse`; a refusal (or no answer) is 422 with what went wrong in `detail` (see
 * outcomeOfError for what of the server's words it keeps), and an smtpHost the address rule
 * refuses is 422 before any connection. Nothing is written: a test is not the mailbox's sending
 * record.
 */
export function mountTestSend(api: Hono<ApiEnv>, options: TestSendOptions): void {
  const mailboxes = recordResponder('mailbox', options);
  const declared = descriptors.get('mailbox')!.actions.find((a) => a.name === 'testSend')!;
  api.post(TEST_SEND_PATH, async (c) => {
    const auth = c.get('auth');
    requireScope(auth.scopes, descriptors.get('mailbox')!.scope, 'write');
    actionParams(queryParams(c.req.url), declared);
    const id = pathRecordId(c, 'mailbox');
    const found = await orgScopedTransaction(
      options.sql,
      auth.orgId,
      async (tx) => {
        const effects = options.writer.effects({ tx, orgId: auth.orgId, actor: SERVICE_ACTOR });
        const mailbox = (await effects.records.rows('mailbox', [id])).get(id);
        // Each statement sees what has committed by then: a delete between the two is a 404 too.
        const shown = mailbox && (await mailboxes.find(tx, auth.orgId, id));
        return shown && { mailbox, shown };
      },
      { readOnly: true },
    );
    if (!found) throw resourceNotFound(`No mailbox with id ${id} exists`);
    const smtpResponse = await sendTestMessage(options.transports, auth.orgId, found.mailbox, options.clock());
    return jsonApi(c, 200, { data: mailboxes.render(c, found.shown), meta: { smtpResponse } });
  });
}

async function sendTestMessage(transports: TransportFactory, orgId: number, mailbox: Row, now: Date): Promise<string> {
  const address = typeof mailbox.email === 'string' ? mailbox.email : '';
  if (address === '') throw actionFailed('mailboxWithoutEmail', `Mailbox ${String(mailbox.id)} has no email to send a test message to`);
  try {
    const sent = await transports(mailbox).send({
      orgId,
      mailingId: null,
      from: { address },
      to: { address },
      subject: 'Cadence test message',
      html: `<p>This test message was sent by Cadence through mailbox ${String(mailbox.id)} at ${now.toISOString()}.</p>`,
      text: `This test message was sent by Cadence through mailbox ${String(mailbox.id)} at ${now.toISOString()}.`,
      messageId: `<${randomUUID()}@${address.slice(address.lastIndexOf('@') + 1)}>`,
    });
    return sent.response;
  } catch (error) {
    if (error instanceof MailServerRefused) throw actionFailed('mailServerRefused', error.message, { pointer: `/data/attributes/${error.field}` });
    throw actionFailed('testSendFailed', `The test message was not sent: ${outcomeOfError(error).answer}`);
  }
}
