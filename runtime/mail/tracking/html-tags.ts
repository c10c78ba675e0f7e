/**
 * Just enough of HTML's tokenizer to find the `href` of every `<a>` start tag and the closing
 * `</body>`, as a browser would: comments, CDATA, doctypes, end tags and the raw text of
 * script, style, textarea and title are passed over, and attribute values may be double-,
 * single- or unquoted, with names in any case. Everything not rewritten is kept byte for byte.
 */

export interface LinkHref {
  /** The value as written, entities and all. */
  readonly raw: string;
  /** The value as a browser reads it: entities decoded. */
  readonly value: string;
  /** Where the value (with its quotes, if any) starts and ends in the document. */
  readonly start: number;
  readonly end: number;
}

export interface HtmlOutline {
  readonly links: readonly LinkHref[];
  /** Where the last `</body>` end tag starts, if there is one. */
  readonly bodyEnd: number | undefined;
}

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const SPACE = /[\t\n\f\r ]/;

export function outlineHtml(html: string): HtmlOutline {
  const links: LinkHref[] = [];
  let bodyEnd: number | undefined;
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open < 0) break;
    if (html.startsWith('<!--', open)) i = after(html, '-->', open + 4);
    else if (html.startsWith('<![CDATA[', open)) i = after(html, ']]>', open + 9);
    else if (html[open + 1] === '!' || html[open + 1] === '?') i = after(html, '>', open + 2);
    else if (html[open + 1] === '/' && /[A-Za-z]/.test(html[open + 2] ?? '')) {
      if (/^body[\t\n\f\r />]/i.test(html.slice(open + 2, open + 7))) bodyEnd = open;
      i = after(html, '>', open + 2);
    } else if (/[A-Za-z]/.test(html[open + 1] ?? '')) {
      const tag = startTag(html, open + 1);
      if (tag.name === 'a' && tag.href) links.push(tag.href);
      i = tag.end;
      if (RAW_TEXT.has(tag.name)) i = rawTextEnd(html, tag.name, i);
    } else i = open + 1;
  }
  return { links, bodyEnd };
}

/** The index just past the next `token` from `from`, or the end of the text. */
function after(html: string, token: string, from: number): number {
  const at = html.indexOf(token, from);
  return at < 0 ? html.length : at + token.length;
}

function rawTextEnd(html: string, name: string, from: number): number {
  const closing = new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'ig');
  closing.lastIndex = from;
  const found = closing.exec(html);
  return found ? found.index : html.length;
}

/** A start tag from just after its `<`: its lower-case name, its first href, and the index past its `>`. */
function startTag(html: string, from: number): { name: string; href: LinkHref | undefined; end: number } {
  let i = from;
  while (i < html.length && !SPACE.test(html[i]!) && html[i] !== '/' && html[i] !== '>') i++;
  const name = html.slice(from, i).toLowerCase();
  let href: LinkHref | undefined;
  while (i < html.length) {
    while (i < html.length && (SPACE.test(html[i]!) || html[i] === '/')) i++;
    if (i >= html.length || html[i] === '>') break;
    const nameStart = i;
    // An attribute name may begin with "="; it ends at space, "/", ">" or "=".
    i++;
    while (i < html.length && !SPACE.test(html[i]!) && !'/>='.includes(html[i]!)) i++;
    const attribute = html.slice(nameStart, i).toLowerCase();
    let j = i;
    while (j < html.length && SPACE.test(html[j]!)) j++;
    if (html[j] !== '=') continue;
    j++;
    while (j < html.length && SPACE.test(html[j]!)) j++;
    const value = attributeValue(html, j);
    // A browser keeps the first of repeated attributes.
    if (attribute === 'href' && !href) href = { raw: value.raw, value: decodeEntities(value.raw), start: j, end: value.end };
    i = value.end;
  }
  return { name, href, end: Math.min(i + 1, html.length) };
}

function attributeValue(html: string, start: number): { raw: string; end: number } {
  const quote = html[start];
  if (quote === '"' || quote === "'") {
    const close = html.indexOf(quote, start + 1);
    const end = close < 0 ? html.length : close + 1;
    return { raw: html.slice(start + 1, close < 0 ? html.length : close), end };
  }
  let end = start;
  while (end < html.length && !SPACE.test(html[end]!) && html[end] !== '>') end++;
  return { raw: html.slice(start, end), end };
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', tab: '\t', newline: '\n' };

/**
 * Character references as they occur in URLs: the common named ones and numeric ones. Other
 * named references stay as written (a URL with `&copy;` in it is tracked as spelled).
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]+);/g, (whole, body: string) => {
    if (body[0] !== '#') return NAMED[body] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
