// The ceilings of the mail part: the messages Cadence's worker sent, sent again to the same SMTP
// sink from the benchmark process by a bare pooled nodemailer transport (the same pool size and
// login as the worker's, no database, no rendering), in two ways, since "the same messages" can
// be read two ways:
// - raw (the target's): the bytes the sink received, handed over as nodemailer's `raw`. Cadence
//   builds each message's MIME text itself and sends it the same way, so this ceiling does the
//   same SMTP work minus Cadence's reading, rendering, composing and writing: the stricter bar.
// - composed (for reference): the same messages as their parts (From, To, Subject, Message-ID,
//   the other headers, the text and the HTML), which nodemailer composes, as an application that
//   hands nodemailer its messages would. The parts are taken from the received bytes before the
//   clock starts.
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { DEFAULT_SMTP_POOL_LIMITS } from '../runtime/mail/index.js';
import type { SmtpSink, SunkMessage } from './smtp-sink.js';

export interface CeilingRun {
  readonly messages: number;
  readonly seconds: number;
  readonly messagesPerSecond: number;
  /** TCP connections the sink saw. */
  readonly connections: number;
}

export interface Ceilings {
  /** The received bytes sent again as they are: the target's ceiling. */
  readonly raw: CeilingRun;
  /** The same messages from their parts, composed by nodemailer. */
  readonly composed: CeilingRun;
}

export async function measureSmtpCeilings(sink: SmtpSink, login: { username: string; password: string }, messages: readonly SunkMessage[]): Promise<Ceilings> {
  if (messages.length === 0) throw new Error('the worker sent no message for the ceiling to send again');
  const parts = messages.map(partsOf);
  const raw = await timedSends(
    sink,
    login,
    messages.map((m) => ({ envelope: { from: m.from, to: m.to }, raw: m.raw })),
  );
  const composed = await timedSends(sink, login, parts);
  return { raw, composed };
}

async function timedSends(sink: SmtpSink, login: { username: string; password: string }, sends: readonly Mail.Options[]): Promise<CeilingRun> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    auth: { user: login.username, pass: login.password },
    pool: true,
    maxConnections: DEFAULT_SMTP_POOL_LIMITS.maxConnections,
    maxMessages: DEFAULT_SMTP_POOL_LIMITS.maxMessages,
    logger: false,
  });
  sink.reset();
  const started = performance.now();
  try {
    await Promise.all(sends.map((send) => transport.sendMail(send)));
  } finally {
    transport.close();
  }
  const seconds = (performance.now() - started) / 1000;
  if (sink.received() !== sends.length) throw new Error(`the ceiling sent ${sends.length} messages but the sink received ${sink.received()}`);
  return { messages: sends.length, seconds, messagesPerSecond: sends.length / seconds, connections: sink.connections() };
}

/** Headers of a block, unfolded, by lower-case name. */
function headersOf(block: string): Map<string, { name: string; value: string }> {
  const headers = new Map<string, { name: string; value: string }>();
  for (const line of block.replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), { name: line.slice(0, colon), value: line.slice(colon + 1).trim() });
  }
  return headers;
}

function decodedBody(encoding: string | undefined, body: string): string {
  if (encoding?.toLowerCase() !== 'quoted-printable') return body;
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The headers Cadence sets apart from the ones every message has; nodemailer writes those itself. */
const COMPOSED_HEADERS = new Set(['from', 'to', 'subject', 'message-id', 'date', 'mime-version', 'content-type']);

/**
 * A message of Cadence's (mime-message.ts: ASCII headers in the benchmark's mailings, a
 * multipart/alternative of text and HTML) as the parts nodemailer composes it from.
 */
function partsOf(message: SunkMessage): Mail.Options {
  const raw = message.raw.toString('utf8');
  const split = raw.indexOf('\r\n\r\n');
  const headers = headersOf(raw.slice(0, split));
  const boundary = /boundary="([^"]+)"/.exec(headers.get('content-type')?.value ?? '')?.[1];
  if (!boundary) throw new Error('the ceiling expects multipart/alternative messages');
  const bodies: Record<string, string> = {};
  for (const part of raw.slice(split + 4).split(new RegExp(`(?:^|\\r\\n)--${boundary}(?:--)?\\r\\n`))) {
    const at = part.indexOf('\r\n\r\n');
    if (at < 0) continue;
    const partHeaders = headersOf(part.slice(0, at));
    const type = partHeaders.get('content-type')?.value.split(';')[0];
    if (type) bodies[type] = decodedBody(partHeaders.get('content-transfer-encoding')?.value, part.slice(at + 4));
  }
  const extra = [...headers].filter(([key]) => !COMPOSED_HEADERS.has(key)).map(([, h]): [string, string] => [h.name, h.value]);
  return {
    envelope: { from: message.from, to: message.to },
    from: headers.get('from')?.value,
    to: headers.get('to')?.value,
    subject: headers.get('subject')?.value,
    messageId: headers.get('message-id')?.value,
    headers: Object.fromEntries(extra),
    text: bodies['text/plain'],
    html: bodies['text/html'],
  };
}
