import type { MailMessageSummary } from '../messages.js';
import type { HeaderField, ReadMessage } from './mime-reader.js';

/**
 * The mail viewer's HTML. Everything taken from a message is escaped; its HTML body is shown
 * only inside `<iframe sandbox srcdoc>`: no scripts, no forms, no same origin, and the pages'
 * policy (routes.ts), which the frame inherits, loads no image but data: URLs, so viewing a
 * message records no open.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1d2330; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  p.note { color: #5b6475; margin: 0 0 1.25rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid #e3e6ec; }
  th { color: #5b6475; font-weight: 600; white-space: nowrap; }
  td.when { white-space: nowrap; color: #5b6475; }
  a { color: #1f5fbf; }
  iframe { width: 100%; height: 28rem; border: 1px solid #c9ced8; border-radius: 4px; background: #fff; }
  pre { background: #f5f6f8; padding: .75rem; overflow: auto; white-space: pre-wrap; word-break: break-word; }
  h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Cadence mail viewer</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export interface ListPageView {
  readonly orgId: number;
  readonly messages: readonly MailMessageSummary[];
  /** The href of a message's page. */
  readonly messageHref: (id: number) => string;
  readonly expiresAt: Date;
  readonly limit: number;
}

export function listPage(view: ListPageView): string {
  const rows = view.messages.map(
    (m) => `<tr>
<td class="when"><time datetime="${escapeHtml(m.storedAt)}">${escapeHtml(m.storedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'))}</time></td>
<td>${escapeHtml(m.from)}</td>
<td>${escapeHtml(m.to.join(', '))}</td>
<td><a href="${escapeHtml(view.messageHref(m.id))}">${escapeHtml(m.subject ?? '(no subject)')}</a></td>
</tr>`,
  );
  const table =
    rows.length === 0
      ? '<p>No messages yet. Mail sent without SMTP_URL, through mailboxes without an SMTP server of their own, shows up here.</p>'
      : `<table>
<thead><tr><th>Date</th><th>From</th><th>To</th><th>Subject</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
  const more = view.messages.length === view.limit ? ` The newest ${view.limit} are shown; <code>cadence mail list</code> reads them all.` : '';
  return page(
    `Org ${view.orgId}`,
    `<h1>Mail stored for org ${view.orgId}</h1>
<p class="note">Messages the local transport kept, newest first. This link works until ${escapeHtml(view.expiresAt.toISOString())}.${more}</p>
${table}`,
  );
}

/** The fields named first, in this order; every other field follows as the message has it. */
const LEADING_FIELDS = ['from', 'to', 'subject', 'date', 'message-id'];

function orderedHeaders(headers: readonly HeaderField[]): HeaderField[] {
  const leading = LEADING_FIELDS.flatMap((name) => headers.filter((h) => h.name.toLowerCase() === name));
  return [...leading, ...headers.filter((h) => !LEADING_FIELDS.includes(h.name.toLowerCase()))];
}

export interface MessagePageView {
  readonly message: MailMessageSummary;
  readonly read: ReadMessage;
  readonly raw: string;
  readonly listHref: string;
}

export function messagePage(view: MessagePageView): string {
  const { message, read } = view;
  const headers = orderedHeaders(read.headers)
    .map((h) => `<tr><th>${escapeHtml(h.name)}</th><td>${escapeHtml(h.value)}</td></tr>`)
    .join('\n');
  const html =
    read.html === undefined
      ? '<p>This message has no HTML part.</p>'
      : `<iframe sandbox title="The message's HTML" referrerpolicy="no-referrer" srcdoc="${escapeHtml(withoutRemoteSources(read.html))}"></iframe>`;
  const text = read.text === undefined ? '<p>This message has no text part.</p>' : `<pre class="text-body">${escapeHtml(read.text)}</pre>`;
  return page(
    message.subject ?? '(no subject)',
    `<p><a href="${escapeHtml(view.listHref)}">← All messages</a></p>
<h1>${escapeHtml(message.subject ?? '(no subject)')}</h1>
<p class="note">Stored ${escapeHtml(message.storedAt)} as mail message ${message.id}${message.mailingId === null ? '' : `, mailing ${message.mailingId}`}.</p>
<table class="headers">
${headers}
</table>
<h2>HTML</h2>
${html}
<h2>Text</h2>
${text}
<details>
<summary>The whole MIME message</summary>
<pre>${escapeHtml(view.raw)}</pre>
</details>`,
  );
}

export function errorPage(title: string, detail: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(detail)}</p>`);
}

/**
 * The message's HTML with its remote `src` attributes renamed, so that nothing it names is
 * fetched. The policy blocks such requests too, but Chromium's preload scanner was seen to ask
 * for a message's tracking pixel before the frame's inherited policy applied (once in six test
 * runs), which would record an open for merely viewing the message.
 */
function withoutRemoteSources(html: string): string {
  return html.replace(/\b(src|srcset)(\s*=\s*["']?\s*)(?=(?:https?:)?\/\/)/gi, 'data-blocked-$1$2');
}
