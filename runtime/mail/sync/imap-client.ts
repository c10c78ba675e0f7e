import { ImapFlow } from 'imapflow';
import { connectionFailureOf } from '../connection-failures.js';
import { mailServerAddress, MailServerRefused, type MailServerRule } from '../server-address.js';
import { parseHeaderBlock, SYNC_HEADER_FIELDS } from './message-headers.js';

/** Where and as whom to log in; the password goes to the server and nowhere else. */
export interface ImapSettings {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  readonly user: string;
  readonly password: string;
}

/** A message of INBOX as sync sees it: its UID, the header fields it asked for, its subject. */
export interface InboxMessage {
  readonly uid: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly subject: string;
}

export interface InboxBatch {
  readonly uidValidity: string;
  /** The messages after `afterUid` (all when UIDVALIDITY changed), oldest first, at most `limit`. */
  readonly messages: readonly InboxMessage[];
  /** Whether more messages follow the last one given. */
  readonly more: boolean;
}

export interface ImapSession {
  /** INBOX's messages after `afterUid` when its UIDVALIDITY is still `uidValidity`. */
  readInbox(since: { uidValidity: string; afterUid: number } | null, limit: number): Promise<InboxBatch>;
  logout(): Promise<void>;
}

/**
 * Logs in and answers a session; rejects with an ImapFailure. Injected (createApp, the worker)
 * so that tests choose where it may connect.
 */
export type ImapConnect = (settings: ImapSettings) => Promise<ImapSession>;

/**
 * A failed connection or login, in our words: no settings, so no password, and none of the
 * server's text (for a service that is not an IMAP server, that would be its banner). 'refused'
 * is the address rule declining imapHost before any connection.
 */
export class ImapFailure extends Error {
  constructor(
    readonly kind: 'login' | 'connection' | 'command' | 'refused',
    readonly answer: string,
  ) {
    super(answer);
    this.name = 'ImapFailure';
  }
}

/**
 * imapflow's errors carry the command they failed on, which for LOGIN holds the password, and
 * the server's text: only their codes are kept (Node's for the socket, the server's bracketed
 * response code, e.g. AUTHENTICATIONFAILED, for a refusal).
 */
export function imapFailureOf(error: unknown): ImapFailure {
  if (error instanceof ImapFailure) return error;
  if (error instanceof MailServerRefused) return new ImapFailure('refused', error.message);
  const e = (error ?? {}) as { authenticationFailed?: boolean; responseText?: string; serverResponseCode?: unknown; code?: unknown; tlsFailed?: boolean };
  const responseCode = typeof e.serverResponseCode === 'string' && /^[A-Z][A-Z0-9-]{0,39}$/.test(e.serverResponseCode) ? ` [${e.serverResponseCode}]` : '';
  if (e.authenticationFailed) return new ImapFailure('login', `authentication failed${responseCode}`);
  if (e.responseText) return new ImapFailure('command', `a command was refused${responseCode}`);
  const failure = connectionFailureOf(e.code) ?? (e.tlsFailed ? 'TLS failed' : 'the connection failed');
  return new ImapFailure('connection', failure);
}

const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/**
 * The connection of a running service: imapflow, with its logging off (it would show
 * commands). The host is resolved and checked first, and imapflow connects to the checked
 * address (verifying TLS against the host's name), so no later lookup can take it elsewhere.
 */
export function imapFlowConnect(servers: MailServerRule): ImapConnect {
  return async (settings) => {
    const server = await mailServerAddress('imapHost', settings.host, servers).catch((error: unknown) => Promise.reject(imapFailureOf(error)));
    const client = new ImapFlow({
      host: server.address,
      ...(server.servername !== undefined && { servername: server.servername }),
      port: settings.port,
      secure: settings.secure,
      auth: { user: settings.user, pass: settings.password },
      logger: false,
      ...TIMEOUTS,
    });
    // A socket error after connecting would otherwise be an unhandled 'error' event.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      client.close();
      throw imapFailureOf(error);
    }
    return {
      readInbox: (since, limit) => readInbox(client, since, limit).catch((error: unknown) => Promise.reject(imapFailureOf(error))),
      async logout() {
        await client.logout().catch(() => client.close());
      },
    };
  };
}

async function readInbox(client: ImapFlow, since: { uidValidity: string; afterUid: number } | null, limit: number): Promise<InboxBatch> {
  const lock = await client.getMailboxLock('INBOX', { readOnly: true });
  try {
    const opened = client.mailbox;
    if (!opened) throw new ImapFailure('command', 'INBOX could not be opened');
    const uidValidity = String(opened.uidValidity);
    const afterUid = since && since.uidValidity === uidValidity ? since.afterUid : 0;
    // "N:*" names the last message even when its UID is below N: hence the filter.
    const found = (await client.search({ uid: `${afterUid + 1}:*` }, { uid: true })) || [];
    const uids = found.filter((uid) => uid > afterUid).sort((a, b) => a - b);
    const taken = uids.slice(0, limit);
    const messages: InboxMessage[] = [];
    if (taken.length > 0) {
      for await (const message of client.fetch(taken, { uid: true, envelope: true, headers: [...SYNC_HEADER_FIELDS] }, { uid: true })) {
        messages.push({ uid: message.uid, headers: parseHeaderBlock(message.headers?.toString('utf8') ?? ''), subject: message.envelope?.subject ?? '' });
      }
    }
    messages.sort((a, b) => a.uid - b.uid);
    return { uidValidity, messages, more: uids.length > taken.length };
  } finally {
    lock.release();
  }
}

/** The settings of a mailbox row (attributes by name); undefined when it has no IMAP host. */
export function imapSettingsOf(mailbox: Readonly<Record<string, unknown>>): ImapSettings | undefined {
  if (typeof mailbox.imapHost !== 'string' || mailbox.imapHost === '') return undefined;
  const port = typeof mailbox.imapPort === 'number' ? mailbox.imapPort : undefined;
  // Unset, TLS unless the port is IMAP's plain one.
  const secure = typeof mailbox.imapSsl === 'boolean' ? mailbox.imapSsl : port !== 143;
  return {
    host: mailbox.imapHost,
    port: port ?? (secure ? 993 : 143),
    secure,
    user: textOf(mailbox.username) ?? textOf(mailbox.email) ?? '',
    password: textOf(mailbox.password) ?? '',
  };
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
