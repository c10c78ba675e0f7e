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
  /**
   * LIKE patterns, one of which every text holding the address matches once `lower()`ed: a
   * cheap test that spares the regular expression (ten times slower, for its look-arounds)
   * the rows that cannot hold the address. `%` alone for an address that is not ASCII, whose
   * case mappings `lower()` and `~*` need not agree on.
   */
  readonly prefilter: readonly string[];
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
  return { address, sql: `${SQL_BEFORE}${body}${SQL_AFTER}`, js: new RegExp(`${JS_BEFORE}${body}${JS_AFTER}`, 'giu'), prefilter: prefilterOf(address) };
}

/** The plain and JSON-escaped forms of an ASCII address as LIKE patterns (`\` escapes). */
function prefilterOf(address: string): string[] {
  // eslint-disable-next-line no-control-regex -- ASCII is exactly the range U+0000 to U+007F
  if (!/^[\x00-\x7f]*$/.test(address)) return ['%'];
  const literal = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
  return [...new Set([address, JSON.stringify(address).slice(1, -1)])].map(literal);
}

/**
 * The SQL test of whether `value` (a text expression) holds the address, with the pattern's
 * `sql` and `prefilter` given as the parameters named.
 */
export function holdsAddressSql(value: string, patternParameter: string, prefilterParameter: string): string {
  return `(lower(${value}) like any(${prefilterParameter}::text[]) and ${value} ~* ${patternParameter})`;
}

/** Whether `text` holds the address (the RegExp is global: its lastIndex is reset first). */
export function holdsAddress(pattern: AddressPattern, text: string): boolean {
  pattern.js.lastIndex = 0;
  return pattern.js.test(text);
}
