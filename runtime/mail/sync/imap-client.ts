import { ImapFlow } from 'imapflow';
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

/** A failed connection or login, with the server's answer: no settings, so no password, in it. */
export class ImapFailure extends Error {
  constructor(
    readonly kind: 'login' | 'connection' | 'command',
    readonly answer: string,
  ) {
    super(answer);
    this.name = 'ImapFailure';
  }
}

/**
 * imapflow's errors carry the command they failed on, which for LOGIN holds the password:
 * only the server's answer and the socket's message are kept.
 */
export function imapFailureOf(error: unknown): ImapFailure {
  if (error instanceof ImapFailure) return error;
  const e = (error ?? {}) as { authenticationFailed?: boolean; responseText?: string; code?: string; message?: string };
  if (e.authenticationFailed) return new ImapFailure('login', e.responseText || 'Authentication failed');
  if (e.responseText) return new ImapFailure('command', e.responseText);
  return new ImapFailure('connection', e.code ? `${e.code}: ${e.message ?? ''}`.trim() : (e.message ?? 'the connection failed'));
}

const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/** The connection of a running service: imapflow, with its logging off (it would show commands). */
export const connectImapFlow: ImapConnect = async (settings) => {
  const client = new ImapFlow({
    host: settings.host,
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
