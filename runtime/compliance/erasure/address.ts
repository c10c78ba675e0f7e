/**
 * Finding an erased address in stored text, the same way in SQL (PostgreSQL's advanced regular
 * expressions, `~*` and `regexp_replace(..., 'gi')`) and in JavaScript (CSV uploads).
 *
 * The address matches case-insensitively, inside longer text ("Jane <jane@x.com>",
 * "mailto:jane@x.com"), and in its JSON-escaped form, but not as the tail or head of another
 * address: "mary.jane@x.com" and "jane@x.com.au" are someone else. A JSON escape such as `\n`
 * right before it counts as a boundary, since the letter of the escape is not part of it.
 */

/** What replaces the address wherever it is scrubbed rather than deleted. */
export const REDACTED = '[redacted]';

export interface AddressPattern {
  /** The address as the request named it, trimmed and lower-cased. */
  readonly address: string;
  /** A PostgreSQL ARE for `~*` and `regexp_replace(col, pattern, REDACTED, 'gi')`. */
  readonly sql: string;
  /** The same pattern for JavaScript, with the `giu` flags. */
  readonly js: RegExp;
}

// Characters of a local part before the address, or of a domain after it, that make it another address.
const SQL_BEFORE = '(?:(?<![[:alnum:]._%+-])|(?<=\\\\[nrtbf]))';
const SQL_AFTER = '(?![[:alnum:]-]|\\.[[:alnum:]])';
const JS_BEFORE = '(?:(?<![\\p{L}\\p{N}._%+-])|(?<=\\\\[nrtbf]))';
const JS_AFTER = '(?![\\p{L}\\p{N}-]|\\.[\\p{L}\\p{N}])';

/** Escapes every character that is special in a PostgreSQL ARE or a JavaScript RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}/]/g, '\\$&');
}

/**
 * The pattern of `email`: its plain form, and, when JSON writes it differently (an address
 * with a quote or backslash in a quoted local part), its JSON-escaped form too.
 */
export function addressPattern(email: string): AddressPattern {
  const address = email.trim().toLowerCase();
  if (!address.includes('@')) throw new TypeError(`an erasure needs an e-mail address, not ${JSON.stringify(email)}`);
  const forms = [...new Set([address, JSON.stringify(address).slice(1, -1)])].map(escapeRegExp);
  const body = forms.length === 1 ? forms[0]! : `(?:${forms.join('|')})`;
  return { address, sql: `${SQL_BEFORE}${body}${SQL_AFTER}`, js: new RegExp(`${JS_BEFORE}${body}${JS_AFTER}`, 'giu') };
}

/** Whether `text` holds the address (the RegExp is global: its lastIndex is reset first). */
export function holdsAddress(pattern: AddressPattern, text: string): boolean {
  pattern.js.lastIndex = 0;
  return pattern.js.test(text);
}
