import { randomUUID } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { encodeWord, encodeWords, foldLines, hasLongerLines, isPlainText } from 'nodemailer/lib/mime-funcs/index.js';
import { encode as encodeQuotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp/index.js';
import type { Address, OutgoingMessage } from './transports.js';

/**
 * A message's MIME text, built in one pass as one string: headers (RFC 5322, non-ASCII words
 * encoded per RFC 2047, folded at 76 characters) and a multipart/alternative body of the text and
 * the HTML, each 7bit when it is short-lined ASCII, else quoted-printable. nodemailer then sends
 * it as `raw`: composing through its MIME tree streamed every header block and encoded slice to
 * the socket as a write of its own, which cost the worker more CPU than anything else it did
 * while sending. The encoders are nodemailer's own (mime-funcs, qp), so the bytes read as its did.
 */

const CRLF = '\r\n';
const LINE_LENGTH = 76;

/** A header value is one line: a line break in a value would start a header of the sender's choosing. */
function oneLine(value: string): string {
  return value.replace(/\r\n|[\r\n]/g, ' ');
}

/** An unstructured header (Subject, List-Unsubscribe): encoded words where it is not ASCII, folded. */
function unstructuredHeader(name: string, value: string): string {
  const line = oneLine(value);
  const encoded = isPlainText(line) ? line : encodeWords(line, 'Q', 52);
  return foldLines(`${name}: ${encoded}`, LINE_LENGTH);
}

/** An address as it goes on the envelope and in headers: no control characters or brackets, an ASCII domain where the local part is ASCII. */
export function normalizedAddress(address: string): string {
  // Control characters are what this removes and what it tests for: the point, not a mistake.
  /* eslint-disable no-control-regex */
  const cleaned = address.replace(/[\x00-\x1F\x7F<>]+/g, ' ').trim();
  const at = cleaned.lastIndexOf('@');
  if (at < 0 || !/[^\x00-\x7F]/.test(cleaned.slice(at + 1)) || /[^\x00-\x7F]/.test(cleaned.slice(0, at))) return cleaned;
  /* eslint-enable no-control-regex */
  const domain = domainToASCII(cleaned.slice(at + 1));
  return domain === '' ? cleaned : `${cleaned.slice(0, at)}@${domain}`;
}

/** A display name: as it is when words and spaces, a quoted string when other ASCII, else an encoded word. */
function displayName(name: string): string {
  const line = oneLine(name);
  if (/^[\w ]*$/.test(line)) return line;
  if (/^[\x20-\x7e]*$/.test(line)) return `"${line.replace(/[\\"]/g, '\\$&')}"`;
  return encodeWord(line, 'Q', 52);
}

function addressHeader(name: string, address: Address): string {
  const mailbox = normalizedAddress(address.address);
  const value = address.name ? `${displayName(address.name)} <${mailbox}>` : `<${mailbox}>`;
  return foldLines(`${name}: ${value}`, LINE_LENGTH);
}

/** A header name is printable ASCII without a colon (RFC 5322 ftext); anything else is a programming error. */
function checkedHeaderName(name: string): string {
  if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) throw new Error(`not a header name: ${JSON.stringify(name)}`);
  return name;
}

/** RFC 5322's date: `Sat, 28 Nov 2026 02:31:25 +0000`. */
function dateHeader(at: Date): string {
  return `Date: ${at.toUTCString().replace(/GMT$/, '+0000')}`;
}

/** A part of the alternative: its headers and its content, lines ending in CRLF. */
function part(contentType: string, content: string): string {
  const lines = content.replace(/\r\n|[\r\n]/g, CRLF);
  const plain = isPlainText(lines) && !hasLongerLines(lines, LINE_LENGTH);
  const encoding = plain ? '7bit' : 'quoted-printable';
  const body = plain ? lines : wrapQuotedPrintable(encodeQuotedPrintable(lines), LINE_LENGTH);
  return `Content-Type: ${contentType}; charset=utf-8${CRLF}Content-Transfer-Encoding: ${encoding}${CRLF}${CRLF}${body}${CRLF}`;
}

/** A boundary no encoded part can contain: 7bit and quoted-printable lines never hold this random run after `--_`. */
export function newBoundary(): string {
  // randomUUID draws from a cached pool of random bytes, where randomBytes asks the system each time.
  return `--_Cadence-${randomUUID().replace(/-/g, '')}`;
}

export interface MimeOptions {
  /** The Date header. */
  readonly date: Date;
  /** The multipart boundary; a random one when unset. */
  readonly boundary?: string;
}

/** The whole message, CRLF line endings, ready to go as nodemailer's `raw`. */
export function mimeMessage(message: OutgoingMessage, options: MimeOptions): string {
  const boundary = options.boundary ?? newBoundary();
  const headers = [
    addressHeader('From', message.from),
    addressHeader('To', message.to),
    unstructuredHeader('Subject', message.subject),
    `Message-ID: ${oneLine(message.messageId)}`,
    dateHeader(options.date),
    'MIME-Version: 1.0',
    ...Object.entries(message.headers ?? {}).map(([name, value]) => unstructuredHeader(checkedHeaderName(name), value)),
    `Content-Type: multipart/alternative;${CRLF} boundary="${boundary}"`,
  ];
  return [
    headers.join(CRLF),
    CRLF,
    CRLF,
    `--${boundary}${CRLF}`,
    part('text/plain', message.text),
    `--${boundary}${CRLF}`,
    part('text/html', message.html),
    `--${boundary}--${CRLF}`,
  ].join('');
}

/** The SMTP envelope of a message: its From and To addresses, as the headers name them. */
export function envelopeOf(message: OutgoingMessage): { from: string; to: string[] } {
  return { from: normalizedAddress(message.from.address), to: [normalizedAddress(message.to.address)] };
}
