import type { Context, Hono } from 'hono';
import type postgres from 'postgres';
import { requireScope } from '../../auth/index.js';
import { recordResponder } from '../../bulk/batch-response.js';
import { SERVICE_ACTOR, type ActionHandler, type ApiEnv, type Behaviours, type RecordWriter } from '../../engine/index.js';
import { actionParams, queryParams } from '../../engine/query-params.js';
import { pathRecordId } from '../../engine/responses.js';
import { actionFailed, jsonApi, resourceNotFound } from '../../jsonapi/index.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { imapFailureOf, imapSettingsOf, type ImapConnect } from './imap-client.js';

export const TEST_SYNC_PATH = '/mailboxes/:id/actions/testSync';

export interface TestSyncOptions {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly behaviours: Behaviours;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
  readonly connect: ImapConnect;
}

/**
 * The engine's action handlers run inside the write's transaction and may not wait on the
 * network; testSync is served by this module's route, mounted ahead of the resource routes.
 * The handler only satisfies the start-up check that every declared action has one.
 */
export const testSyncServedElsewhere: ActionHandler = {
  changes: [],
  handle() {
    throw new Error('testSync is served by runtime/mail/sync, mounted ahead of the resource routes');
  },
};

/**
 * POST /api/v2/mailboxes/<id>/actions/testSync: logs in to the mailbox's IMAP server with its
 * settings and logs out. 200 with the mailbox when the login works; 422 saying what failed (in
 * our words: see imapFailureOf) when it does not, and 422 without connecting when the address
 * rule refuses imapHost. No transaction is open meanwhile.
 */
export function mountTestSyncRoute(api: Hono<ApiEnv>, options: TestSyncOptions): void {
  const mailboxes = recordResponder('mailbox', options);
  api.post(TEST_SYNC_PATH, async (c: Context<ApiEnv>) => {
    const { orgId, scopes } = c.get('auth');
    requireScope(scopes, 'mailboxes', 'write');
    actionParams(queryParams(c.req.url), { requiredParams: [], optionalParams: [] });
    const id = pathRecordId(c, 'mailbox');
    const mailbox = await orgScopedTransaction(
      options.sql,
      orgId,
      async (tx) => (await options.writer.effects({ tx, orgId, actor: SERVICE_ACTOR }).records.rows('mailbox', [id])).get(id),
      { readOnly: true },
    );
    if (!mailbox) throw resourceNotFound(`No mailbox with id ${id} exists`);
    const settings = imapSettingsOf(mailbox);
    if (!settings) throw actionFailed('imapNotConfigured', 'This mailbox has no imapHost: set its IMAP settings first');
    try {
      const session = await options.connect(settings);
      await session.logout();
    } catch (error) {
      const failure = imapFailureOf(error);
      const where = `${settings.host}:${settings.port}`;
      switch (failure.kind) {
        case 'refused':
          throw actionFailed('mailServerRefused', failure.answer, { pointer: '/data/attributes/imapHost' });
        case 'connection':
          throw actionFailed('imapConnectionFailed', `Could not connect to the IMAP server at ${where}: ${failure.answer}`);
        default:
          throw actionFailed('imapLoginFailed', `The IMAP server at ${where} refused the login: ${failure.answer}`);
      }
    }
    // Deleted while the IMAP server was answering: gone, as for any read of a deleted record.
    const shown = await orgScopedTransaction(options.sql, orgId, (tx) => mailboxes.find(tx, orgId, id), { readOnly: true });
    if (!shown) throw resourceNotFound(`No mailbox with id ${id} exists`);
    return jsonApi(c, 200, { data: mailboxes.render(c, shown) });
  });
}
