import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type postgres from 'postgres';
import type { Row } from '../../engine/render.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { mailServerAddress, type MailServerAddress, type MailServerRule } from '../server-address.js';
import { envelopeOf, mimeMessage } from './mime-message.js';
import type { PooledTransport, SmtpPools } from './smtp-pools.js';

/**
 * Where messages go. A mailbox with `smtpHost` sends through its own server (`smtpPort`,
 * `smtpUsername`, write-only `smtpPassword`, `smtpSsl`); any other message goes through the
 * deployment's default: SMTP_URL when set, else the local transport, which keeps the whole
 * MIME message in PostgreSQL (mail_messages) and accepts it, so a deployment without a mail
 * server loses nothing. Every transport sends the same MIME text (mime-message.ts). A mailbox's own
 * server is a host its tenant names: it is checked (server-address.ts) before it is connected to.
 *
 * Given the worker's SmtpPools, SMTP transports send over pooled connections, one pool per
 * endpoint (smtp-pools.ts); without (testSend, invitations: one message now and then), each
 * message has a connection of its own, closed after it.
 */

export interface Address {
  readonly name?: string | undefined;
  readonly address: string;
}

export interface OutgoingMessage {
  readonly orgId: number;
  /** The mailing sent, for the local transport's record; null for test messages and invitations. */
  readonly mailingId: number | null;
  readonly from: Address;
  readonly to: Address;
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** The Message-ID header, angle brackets included: `<uuid@domain>`. */
  readonly messageId: string;
  /** Further headers (List-Unsubscribe). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The server's answer to a message it accepted (`250 OK: queued as …`). */
export interface SentMessage {
  readonly response: string;
}

export interface MailTransport {
  /**
   * Rejects with nodemailer's error (`responseCode`, `response`, `code`) when the server refuses,
   * or with MailServerRefused when the mailbox's server may not be connected to.
   */
  send(message: OutgoingMessage): Promise<SentMessage>;
  /**
   * Many messages at once, for a transport that does that better than one by one (the local
   * one: one insert for the set). Each message settles on its own, as `send` would.
   */
  sendSet?(messages: readonly OutgoingMessage[]): Promise<PromiseSettledResult<SentMessage>[]>;
}

/** The SMTP settings of a mailbox, read from its row. */
export interface SmtpSettings {
  readonly host: string;
  readonly port: number | null;
  readonly username: string | null;
  readonly password: string | null;
  readonly ssl: boolean;
}

/**
 * The transport for a mailbox's messages; null: the deployment's default (invitations). Given
 * `pools`, SMTP transports take their connections from them. The sender asks once per mailbox
 * and set, so a transport may keep what it looked up (the checked address) for its messages.
 */
export type TransportFactory = (mailbox: Row | null, pools?: SmtpPools) => MailTransport;

/** A mailbox's own SMTP settings, when it has `smtpHost`. */
export function smtpSettingsOf(mailbox: Row | null): SmtpSettings | undefined {
  if (!mailbox || typeof mailbox.smtpHost !== 'string' || mailbox.smtpHost === '') return undefined;
  return {
    host: mailbox.smtpHost,
    port: typeof mailbox.smtpPort === 'number' ? mailbox.smtpPort : null,
    username: typeof mailbox.smtpUsername === 'string' ? mailbox.smtpUsername : null,
    password: typeof mailbox.smtpPassword === 'string' ? mailbox.smtpPassword : null,
    ssl: mailbox.smtpSsl === true,
  };
}

/** How long a connection and each SMTP answer may take, so a silent server fails the attempt (a retry) rather than hangs it. */
const SMTP_TIMEOUT_MS = 30_000;

/**
 * What nodemailer is given: the message built once as one string (mime-message.ts), sent as is,
 * and the same for every transport, so stored and sent messages are alike.
 */
function mailOptions(message: OutgoingMessage, date: Date) {
  return { envelope: envelopeOf(message), messageId: message.messageId, raw: mimeMessage(message, { date }) };
}

async function sendAndClose(transport: Transporter<SMTPTransport.SentMessageInfo>, message: OutgoingMessage): Promise<SentMessage> {
  try {
    const info = await transport.sendMail(mailOptions(message, new Date()));
    return { response: info.response };
  } finally {
    transport.close();
  }
}

async function sendOn(transport: Transporter<{ response: string }>, message: OutgoingMessage): Promise<SentMessage> {
  const info = await transport.sendMail(mailOptions(message, new Date()));
  return { response: info.response };
}

/** nodemailer's options for a mailbox's server at its checked address. */
function smtpOptions(settings: SmtpSettings, server: MailServerAddress): SMTPTransport.Options {
  return {
    host: server.address,
    ...(settings.port !== null && { port: settings.port }),
    secure: settings.ssl,
    ...(server.servername !== undefined && { tls: { servername: server.servername } }),
    ...(settings.username !== null && { auth: { user: settings.username, pass: settings.password ?? '' } }),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    // nodemailer logs nothing unless told to; it is never told to, so no credential reaches a log.
    logger: false,
  };
}

/**
 * A transport to a mailbox's SMTP server. Its first send resolves and checks the host, and
 * every connection goes to that checked address, so no later lookup (DNS rebinding) can send
 * it elsewhere; the certificate is still checked against the host's name. With `pools`, the
 * connections are the pool's for that address, port and login.
 */
export function smtpTransport(settings: SmtpSettings, servers: MailServerRule, pools?: SmtpPools): MailTransport {
  let checked: Promise<MailServerAddress> | undefined;
  // The pool is looked up once per transport (a mailbox's set), not hashed again for every message.
  let pooled: Promise<PooledTransport> | undefined;
  return {
    async send(message) {
      checked ??= mailServerAddress('smtpHost', settings.host, servers);
      if (pools) {
        pooled ??= checked.then((server) => pools.transport(smtpOptions(settings, server)));
        return sendOn(await pooled, message);
      }
      return sendAndClose(nodemailer.createTransport(smtpOptions(settings, await checked)), message);
    },
  };
}

/**
 * The deployment's SMTP server, from SMTP_URL (smtp://user:pass@host:port, smtps:// for TLS).
 * Not checked against the address rule: the operator sets it, so it is configuration, not a
 * tenant's input, and is often a relay on the operator's own network.
 */
export function smtpUrlTransport(url: string, pools?: SmtpPools): MailTransport {
  const pooled = pools?.transport({ url });
  return {
    send: (message) => (pooled ? sendOn(pooled, message) : sendAndClose(nodemailer.createTransport(url), message)),
  };
}

/** The MIME message as the SMTP transports send it. */
export function composeMime(message: OutgoingMessage, date: Date): string {
  return mimeMessage(message, { date });
}

/**
 * The local transport: the composed messages are stored in mail_messages, in the org's own
 * transaction, one insert for a set, and count as accepted.
 */
export function localTransport(sql: postgres.Sql, clock: () => Date): MailTransport {
  const sendSet = async (messages: readonly OutgoingMessage[]): Promise<PromiseSettledResult<SentMessage>[]> => {
    if (messages.length === 0) return [];
    const now = clock();
    const raws = messages.map((m) => composeMime(m, now));
    try {
      const ids = await storeMessages(sql, messages, raws, now);
      return ids.map((id) => ({ status: 'fulfilled', value: { response: `250 stored locally as mail message ${id}` } }));
    } catch (reason) {
      return messages.map(() => ({ status: 'rejected', reason }));
    }
  };
  return {
    async send(message) {
      const [result] = await sendSet([message]);
      if (result!.status === 'rejected') throw result!.reason;
      return result!.value;
    },
    sendSet,
  };
}

/** Stores the messages of one org, one statement; their ids in the same order. */
async function storeMessages(sql: postgres.Sql, messages: readonly OutgoingMessage[], raws: readonly string[], now: Date): Promise<number[]> {
  const orgId = messages[0]!.orgId;
  if (messages.some((m) => m.orgId !== orgId)) throw new Error('the local transport stores one org’s messages at a time');
  return orgScopedTransaction(sql, orgId, async (tx) => {
    const rows = await tx.unsafe<{ id: string; n: string }[]>(
      `insert into mail_messages (org_id, mailing_id, envelope_from, envelope_to, message_id, subject, raw, stored_at)
       select $1, m, f, array[t], i, s, r, $8
         from unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) with ordinality as x(m, f, t, i, s, r, n)
        order by n
       returning id`,
      [
        orgId,
        messages.map((m) => m.mailingId),
        messages.map((m) => m.from.address),
        messages.map((m) => m.to.address),
        messages.map((m) => m.messageId),
        messages.map((m) => m.subject),
        raws,
        now.toISOString(),
      ] as never[],
      { prepare: true },
    );
    return rows.map((r) => Number(r.id));
  });
}

/** Which of these Message-IDs the local transport holds (sends interrupted after storing them). */
export async function storedLocally(tx: postgres.TransactionSql | postgres.ReservedSql, orgId: number, messageIds: readonly string[]): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const rows = await tx.unsafe<{ message_id: string }[]>(
    `select distinct message_id from mail_messages where org_id = $1 and message_id = any($2::text[])`,
    [orgId, messageIds] as never[],
    {
      prepare: true,
    },
  );
  return new Set(rows.map((r) => r.message_id));
}

export interface DefaultTransportOptions {
  readonly sql: postgres.Sql;
  readonly clock: () => Date;
  /** SMTP_URL; unset: the local transport. */
  readonly smtpUrl: string | undefined;
  /** Where mailboxes' own SMTP servers may be (MAIL_ALLOWED_HOSTS). */
  readonly mailServers: MailServerRule;
}

/** The transports of a deployment: the mailbox's SMTP server, else SMTP_URL, else local (one for all, so a set is one insert). */
export function defaultTransports(options: DefaultTransportOptions): TransportFactory {
  const local = localTransport(options.sql, options.clock);
  return (mailbox, pools) => {
    const own = smtpSettingsOf(mailbox);
    if (own) return smtpTransport(own, options.mailServers, pools);
    if (options.smtpUrl) return smtpUrlTransport(options.smtpUrl, pools);
    return local;
  };
}
