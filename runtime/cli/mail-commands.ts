import { AdminError } from '../admin/index.js';
import { listMailMessages, showMailMessage } from '../mail/index.js';
import { mailViewerLink } from '../mail/viewer/index.js';
import { ORG_OPTION, positiveInteger } from './arguments.js';
import { defineCommand, UsageError } from './command.js';
import { print, withDatabase } from './operator-io.js';

/** The messages the local mail transport stored (when SMTP_URL is not set). */

export const mailCommands = [
  defineCommand({
    name: 'mail list',
    synopsis: '--org ID [--limit N]',
    summary: 'messages the local transport stored (no SMTP_URL), newest first',
    options: { org: ORG_OPTION, limit: { type: 'string', value: 'N', help: 'at most this many (100 if not given)' } },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      const limit = values.limit === undefined ? undefined : positiveInteger('limit', values.limit);
      return withDatabase(config, async (sql) => print(await listMailMessages(sql, orgId, limit)));
    },
  }),
  defineCommand({
    name: 'mail show',
    synopsis: 'ID --org ID',
    summary: 'one of them, with its whole MIME text',
    options: { org: ORG_OPTION },
    positionals: { name: 'ID', count: 1 },
    run: ({ config, values, positionals }) => {
      const orgId = positiveInteger('org', values.org);
      if (positionals.length !== 1 || !/^[1-9][0-9]*$/.test(positionals[0]!)) throw new UsageError('mail show takes one message id, e.g. cadence mail show 7 --org 1');
      const id = Number(positionals[0]);
      return withDatabase(config, async (sql) => {
        const message = await showMailMessage(sql, orgId, id);
        if (!message) throw new AdminError(`org ${orgId} has no mail message ${id}`);
        print(message);
      });
    },
  }),
  defineCommand({
    name: 'mail viewer',
    synopsis: '--org ID',
    summary: 'prints a link (1 hour) to web pages of them, each rendered with its headers',
    options: { org: ORG_OPTION },
    run: ({ config, values }) => {
      const orgId = positiveInteger('org', values.org);
      return withDatabase(config, async (sql) => print(await mailViewerLink(sql, { orgId, server: config, now: new Date() })));
    },
  }),
];
