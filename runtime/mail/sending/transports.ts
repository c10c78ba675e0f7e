import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type postgres from 'postgres';
import type { Row } from '../../engine/render.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { mailServerAddress, type MailServerRule } from '../server-address.js';

/**
 * Where messages go. A mailbox with `smtpHost` sends through its own server (`smtpPort`,
 * `smtpUsername`, write-only `smtpPassword`, `smtpSsl`); any other message goes through the
 * deployment's default: SMTP_URL when set, else the local transport, which keeps the whole
 * MIME message in PostgreSQL (mail_messages) and accepts it, so a deployment without a mail
 * server loses nothing. Every transport composes the message with nodemailer. A mailbox's own
 * server is a host its tenant names: it is checked (server-address.ts) before each connection.
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
}

/** The SMTP settings of a mailbox, read from its row. */
export interface SmtpSettings {
  readonly host: string;
  readonly port: number | null;
  readonly username: string | null;
  readonly password: string | null;
  readonly ssl: boolean;
}

/** The transport for a mailbox's messages; null: the deployment's default (invitations). */
export type TransportFactory = (mailbox: Row | null) => MailTransport;

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

/** What nodemailer is given: the same for every transport, so stored and sent messages are alike. */
function mailOptions(message: OutgoingMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
    messageId: message.messageId,
    ...(message.headers && { headers: { ...message.headers } }),
  };
}

async function sendAndClose(transport: Transporter<SMTPTransport.SentMessageInfo>, message: OutgoingMessage): Promise<SentMessage> {
  try {
    const info = await transport.sendMail(mailOptions(message));
    return { response: info.response };
  } finally {
    transport.close();
  }
}

/**
 * A transport to a mailbox's SMTP server. Each send resolves and checks the host first and
 * connects to the checked address, so no later lookup (DNS rebinding) can send it elsewhere;
 * the certificate is still checked against the host's name.
 */
export function smtpTransport(settings: SmtpSettings, servers: MailServerRule): MailTransport {
  return {
    async send(message) {
      const server = await mailServerAddress('smtpHost', settings.host, servers);
      const transport = nodemailer.createTransport({
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
      });
      return sendAndClose(transport, message);
    },
  };
}

/**
 * The deployment's SMTP server, from SMTP_URL (smtp://user:pass@host:port, smtps:// for TLS).
 * Not checked against the address rule: the operator sets it, so it is configuration, not a
 * tenant's input, and is often a relay on the operator's own network.
 */
export function smtpUrlTransport(url: string): MailTransport {
  return {
    send: (message) => sendAndClose(nodemailer.createTransport(url), message),
  };
}

/** Composes the MIME message as nodemailer would send it. */
export async function composeMime(message: OutgoingMessage): Promise<string> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await composer.sendMail(mailOptions(message));
  return (info.message as Buffer).toString('utf8');
}

/**
 * The local transport: the composed message is stored in mail_messages, in the org's own
 * transaction, and counts as accepted.
 */
export function localTransport(sql: postgres.Sql, clock: () => Date): MailTransport {
  return {
    async send(message) {
      const raw = await composeMime(message);
      const id = await storeMessage(sql, message, raw, clock());
      return { response: `250 stored locally as mail message ${id}` };
    },
  };
}

async function storeMessage(sql: postgres.Sql, message: OutgoingMessage, raw: string, now: Date): Promise<number> {
  return orgScopedTransaction(sql, message.orgId, async (tx) => {
    const [row] = await tx.unsafe<{ id: string }[]>(
      `insert into mail_messages (org_id, mailing_id, envelope_from, envelope_to, message_id, subject, raw, stored_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [message.orgId, message.mailingId, message.from.address, [message.to.address], message.messageId, message.subject, raw, now.toISOString()] as never[],
      { prepare: true },
    );
    return Number(row!.id);
  });
}

/** Whether the local transport holds a message with this Message-ID (a send interrupted after storing it). */
export async function storedLocally(tx: postgres.TransactionSql | postgres.ReservedSql, orgId: number, messageId: string): Promise<boolean> {
  const rows = await tx.unsafe(`select 1 from mail_messages where org_id = $1 and message_id = $2 limit 1`, [orgId, messageId], { prepare: true });
  return rows.length > 0;
}

export interface DefaultTransportOptions {
  readonly sql: postgres.Sql;
  readonly clock: () => Date;
  /** SMTP_URL; unset: the local transport. */
  readonly smtpUrl: string | undefined;
  /** Where mailboxes' own SMTP servers may be (MAIL_ALLOWED_HOSTS). */
  readonly mailServers: MailServerRule;
}

/** The transports of a deployment: the mailbox's SMTP server, else SMTP_URL, else local. */
export function defaultTransports(options: DefaultTransportOptions): TransportFactory {
  return (mailbox) => {
    const own = smtpSettingsOf(mailbox);
    if (own) return smtpTransport(own, options.mailServers);
    if (options.smtpUrl) return smtpUrlTransport(options.smtpUrl);
    return localTransport(options.sql, options.clock);
  };
}
