// The mail part's SMTP server: the smtp-server package on 127.0.0.1 in the benchmark process. It
// takes a login, accepts every message and keeps what the figures need: how many arrived, their
// Message-IDs (to find duplicates), the open-pixel token each carries (for the tracking-pixel
// load), the TCP connections opened, and the messages themselves (for the ceiling, which sends
// the same ones again). Nothing leaves the machine.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

export interface SmtpSink {
  readonly port: number;
  /** Messages accepted since the last reset. */
  received(): number;
  /** Distinct Message-ID headers among them. */
  distinctMessageIds(): number;
  /** The open-pixel tokens of the messages received since the last reset, one per message that had one. */
  pixelTokens(): string[];
  /** The messages received since the last reset, envelope and bytes. */
  messages(): SunkMessage[];
  /** TCP connections opened since the last reset. */
  connections(): number;
  /** Forgets what was received so far (after a warm-up). */
  reset(): void;
  close(): Promise<void>;
}

export interface SunkMessage {
  readonly from: string;
  readonly to: string[];
  readonly raw: Buffer;
}

/** The Message-ID header in a message's header block. */
function messageIdOf(raw: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return head.match(/^Message-ID:\s*(\S+)/im)?.[1];
}

/**
 * The token of the `/t/o/<token>.gif` pixel in the HTML part. Nodemailer writes long HTML as
 * quoted-printable: its soft line breaks (`=` at a line end) are taken out first; a token is
 * base64url, so nothing in it is otherwise encoded.
 */
function pixelTokenOf(raw: string): string | undefined {
  return raw.replace(/=\r\n/g, '').match(/\/t\/o\/([A-Za-z0-9_-]+)\.gif/)?.[1];
}

/**
 * smtp-server holds its 220 greeting for a fixed 100 ms on every connection (to catch clients
 * that talk before it; `init` in smtp-connection.js, not an option). A client that opens a
 * connection per message would measure that pause, not itself: the sink greets at once
 * instead, as `init` does after its pause.
 * (smtp-server 3.21; no maxClients is set, so its check there has nothing to do.)
 */
function greetAtOnce(): void {
  SMTPConnection.prototype.init = function init(this: SMTPConnection) {
    this._setListeners(() => this.connectionReady());
  };
}

export async function startSmtpSink(login: { username: string; password: string }): Promise<SmtpSink> {
  greetAtOnce();
  let count = 0;
  let ids = new Set<string>();
  let tokens: string[] = [];
  let messages: SunkMessage[] = [];
  let connections = 0;
  const server = new SMTPServer({
    // Plain SMTP on loopback, with a login as a real mailbox's server asks for one. No reverse DNS
    // lookup of the client: on some machines it waits for a resolver, which is not what is measured.
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.username && auth.password === login.password) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const raw = bytes.toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: bytes });
        count++;
        const id = messageIdOf(raw);
        if (id) ids.add(id);
        const token = pixelTokenOf(raw);
        if (token) tokens.push(token);
        callback(null, 'OK: queued');
      });
    },
  });
  server.server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received: () => count,
    distinctMessageIds: () => ids.size,
    pixelTokens: () => [...tokens],
    messages: () => [...messages],
    connections: () => connections,
    reset() {
      count = 0;
      ids = new Set();
      tokens = [];
      messages = [];
      connections = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
