import { connectionFailureOf } from '../connection-failures.js';
import { MailServerRefused } from '../server-address.js';

/** What the server's answer means for the mailing. */
export type Outcome = { readonly kind: 'delivered'; readonly answer: string } | { readonly kind: 'temporary' | 'bounced' | 'failed'; readonly answer: string };

interface NodemailerError {
  readonly code?: unknown;
  /** The system error's code under nodemailer's own (ECONNREFUSED under ECONNECTION). */
  readonly originalCode?: unknown;
  readonly responseCode?: unknown;
  readonly response?: unknown;
}

// A reply line is kept to this length: enough for "550 5.1.1 <x@y>: Recipient address rejected".
const REPLY_CHARS = 300;

/**
 * A transport's refusal: 5xx is permanent (a bounce); a refused login or a mail server the
 * address rule refuses is the mailbox's settings, not the recipient (failed); anything else
 * (4xx, a connection lost or refused, a timeout, a name that did not resolve) is temporary.
 *
 * The answer is what the tenant reads (errorReason, testSend's 422). The server's own words are
 * kept only where they are its verdict on the message (MAIL, RCPT, DATA: the bounce reason a
 * sender needs), which a server gives only after greeting us as SMTP. Everything before that,
 * where any TCP service's banner would show, is said in our words with reply codes only.
 */
export function outcomeOfError(error: unknown): Outcome {
  if (error instanceof MailServerRefused) return { kind: error.reason === 'unresolvable' ? 'temporary' : 'failed', answer: error.message };
  const e = (error ?? {}) as NodemailerError;
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const kind = code !== undefined && code >= 500 ? 'bounced' : 'temporary';
  if (e.code === 'EAUTH') return { kind: 'failed', answer: `The SMTP server refused the mailbox's login${replyCodes(e)}` };
  if ((e.code === 'EENVELOPE' || e.code === 'EMESSAGE') && code !== undefined && typeof e.response === 'string') {
    return { kind, answer: oneLine(e.response) };
  }
  if (e.code === 'EPROTOCOL') return { kind, answer: `The server did not answer as an SMTP server${replyCodes(e)}` };
  if (e.code === 'ETLS')
    return { kind, answer: `TLS with the SMTP server failed${typeof e.originalCode === 'string' && /^[A-Z0-9_]+$/.test(e.originalCode) ? ` (${e.originalCode})` : ''}` };
  const failure = connectionFailureOf(e.originalCode) ?? connectionFailureOf(e.code === 'ECONNECTION' ? undefined : e.code);
  if (failure) return { kind, answer: `Could not talk to the SMTP server: ${failure}` };
  if (code !== undefined) return { kind, answer: `The SMTP server answered ${code}` };
  return { kind, answer: 'Could not talk to the SMTP server: the connection failed' };
}

/** " (535 5.7.8)": the reply code and enhanced status code, without the text after them. */
function replyCodes(e: NodemailerError): string {
  if (typeof e.response !== 'string') return typeof e.responseCode === 'number' ? ` (${e.responseCode})` : '';
  const match = /^(\d{3})(?:[ -]([245]\.\d{1,3}\.\d{1,3}))?/.exec(e.response);
  if (!match) return '';
  return ` (${[match[1], match[2]].filter(Boolean).join(' ')})`;
}

function oneLine(text: string): string {
  const line = text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return line.length > REPLY_CHARS ? `${line.slice(0, REPLY_CHARS)}…` : line;
}
