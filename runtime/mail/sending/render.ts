import type { Row } from '../../engine/render.js';
import { withSignature } from './signature.js';

/**
 * A mailing's subject and body with their `{{variable}}`s filled in, as the reference's templates
 * write them (`{{first_name}}`, `{{account.name}}`, `{{sender.first_name}}`). The body is HTML:
 * values are escaped in it; the subject is a header and takes them as they are. A variable not in
 * TEMPLATE_VARIABLES, or one with no value for this prospect, fails the whole mailing: it is
 * never sent half-filled ("Hi ,").
 */

/** The records a mailing is rendered from: its prospect, the prospect's account, the mailbox and its user. */
export interface RenderSources {
  readonly prospect: Row | undefined;
  readonly account: Row | undefined;
  readonly mailbox: Row;
  readonly sender: Row | undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  return typeof value === 'number' ? String(value) : undefined;
}

function firstEmail(prospect: Row | undefined): string | undefined {
  const emails = prospect?.emails;
  return Array.isArray(emails) ? text(emails[0]) : undefined;
}

/** Every variable a template may use, and where its value comes from. README "E-mail" lists them. */
export const TEMPLATE_VARIABLES: Readonly<Record<string, (sources: RenderSources) => string | undefined>> = {
  first_name: ({ prospect }) => text(prospect?.firstName),
  last_name: ({ prospect }) => text(prospect?.lastName),
  name: ({ prospect }) => text(prospect?.name),
  title: ({ prospect }) => text(prospect?.title),
  email: ({ prospect }) => firstEmail(prospect),
  // The prospect's own company field, else their account's name.
  company: ({ prospect, account }) => text(prospect?.company) ?? text(account?.name),
  'account.name': ({ account }) => text(account?.name),
  'account.domain': ({ account }) => text(account?.domain),
  'sender.first_name': ({ sender }) => text(sender?.firstName),
  'sender.last_name': ({ sender }) => text(sender?.lastName),
  'sender.name': ({ sender }) => text(sender?.name),
  'sender.title': ({ sender }) => text(sender?.title),
  // The address the message goes out from: the mailbox's, which is the sender's for this mail.
  'sender.email': ({ mailbox, sender }) => text(mailbox.email) ?? text(sender?.email),
};

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

export class UnfilledVariable extends Error {}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** `template` with its variables replaced by `escape(value)`; throws UnfilledVariable naming the first that cannot be. */
export function fillVariables(template: string, sources: RenderSources, escape: (value: string) => string = (v) => v): string {
  return template.replace(VARIABLE, (_whole, name: string) => {
    const lookup = TEMPLATE_VARIABLES[name];
    if (!lookup) throw new UnfilledVariable(`Unknown variable {{${name}}}`);
    const value = lookup(sources);
    if (value === undefined) throw new UnfilledVariable(`Variable {{${name}}} has no value for this mailing's prospect or sender`);
    return escape(value);
  });
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/**
 * The plain-text part of an HTML body: block ends and <br> become line breaks, a link keeps its
 * address after its text, tags go, entities are decoded, and runs of blank lines shrink to one.
 */
export function plainTextOf(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\b[^>]*\bhref\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_a, href: string, label: string) => (label.trim() === href ? label : `${label} (${href})`))
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote)>/gi, '\n\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_e, name: string) => ENTITIES[name]!)
    .replace(/&#(\d+);/g, (_e, code: string) => String.fromCodePoint(Number(code)))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface RenderedMailing {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

/**
 * The mailing's subject and HTML body, filled in, with the mailbox's signature after the body,
 * and the text part derived from that HTML (so it carries the signature too).
 */
export function renderMailing(mailing: Row, sources: RenderSources): RenderedMailing {
  const subject = fillVariables(typeof mailing.subject === 'string' ? mailing.subject : '', sources);
  const body = fillVariables(typeof mailing.bodyHtml === 'string' ? mailing.bodyHtml : '', sources, escapeHtml);
  const html = withSignature(body, sources.mailbox.emailSignature);
  return { subject, html, text: plainTextOf(html) };
}
