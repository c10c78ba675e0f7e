/**
 * What sync reads of a message: its ids, the ids it answers, and whether a person wrote it.
 * Pure functions over the raw header lines the IMAP server returns.
 */

/** The header fields sync asks the server for. */
export const SYNC_HEADER_FIELDS = ['message-id', 'in-reply-to', 'references', 'auto-submitted', 'x-autoreply', 'x-autorespond', 'precedence'] as const;

/** Header fields by lower-case name (the first of repeated ones), unfolded. */
export function parseHeaderBlock(raw: string): Map<string, string> {
  const fields = new Map<string, string>();
  const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** The Message-IDs in a header value, angle brackets included, as mailings store them. */
export function messageIdsIn(value: string | undefined): string[] {
  return value?.match(/<[^<>\s]+>/g) ?? [];
}

/**
 * `reply`: a person answered. `auto_reply`: an out-of-office or other automatic answer, which
 * pauses rather than ends a sequence. `automated`: other machine mail (notifications, lists),
 * which is neither.
 */
export type MessageKind = 'reply' | 'auto_reply' | 'automated';

const OUT_OF_OFFICE_SUBJECT = /\b(out of (the )?office|automatic reply|auto[- ]?reply|autoreply|auto[- ]?response|abwesenheitsnotiz|réponse automatique)\b/i;

/** RFC 3834's Auto-Submitted, the de-facto X-Autoreply/X-Autorespond and Precedence, then the subject. */
export function classifyMessage(headers: ReadonlyMap<string, string>, subject: string): MessageKind {
  const autoSubmitted = headers.get('auto-submitted')?.toLowerCase().split(';')[0]?.trim();
  const precedence = headers.get('precedence')?.toLowerCase().trim();
  if (autoSubmitted === 'auto-replied' || precedence === 'auto_reply') return 'auto_reply';
  if (headers.has('x-autoreply') || headers.has('x-autorespond')) return 'auto_reply';
  if ((autoSubmitted && autoSubmitted !== 'no') || precedence === 'bulk' || precedence === 'junk' || precedence === 'list') return 'automated';
  return OUT_OF_OFFICE_SUBJECT.test(subject) ? 'auto_reply' : 'reply';
}
