/**
 * What the mail viewer shows of a stored message: its header fields, decoded (RFC 2047 encoded
 * words), and its first text/html and text/plain parts, decoded (quoted-printable, base64, the
 * part's charset), found through nested multiparts. No MIME parser is among Cadence's
 * dependencies (nodemailer only composes), and the viewer needs this little of one. Pure.
 */

export interface HeaderField {
  readonly name: string;
  readonly value: string;
}

export interface ReadMessage {
  /** The message's own header fields, in their order. */
  readonly headers: readonly HeaderField[];
  readonly html: string | undefined;
  readonly text: string | undefined;
}

interface Entity {
  readonly headers: readonly HeaderField[];
  readonly body: string;
}

function entityOf(raw: string): Entity {
  const blank = /\r?\n\r?\n/.exec(raw);
  const head = blank ? raw.slice(0, blank.index) : raw;
  const body = blank ? raw.slice(blank.index + blank[0].length) : '';
  const headers: HeaderField[] = [];
  // Unfolding (RFC 5322 2.2.3): a line break followed by white space continues the field.
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.push({ name: line.slice(0, colon).trim(), value: decodeEncodedWords(line.slice(colon + 1).trim()) });
  }
  return { headers, body };
}

/** Bytes in a charset a message names; UTF-8 for one Node does not know. */
function decodeCharset(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset.split('*')[0]!.trim() || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** `=XX` escapes as bytes, everything else as its UTF-8 (an 8bit byte stored as text). */
function quotedPrintableBytes(text: string): Buffer {
  return Buffer.concat(
    text.split(/(=[0-9A-Fa-f]{2})/).map((piece) => (/^=[0-9A-Fa-f]{2}$/.test(piece) ? Buffer.from([parseInt(piece.slice(1), 16)]) : Buffer.from(piece, 'utf8'))),
  );
}

/** RFC 2047: `=?charset?B|Q?text?=`; white space between two encoded words is not part of the text. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g, '$1')
    .replace(/=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g, (_word, charset: string, encoding: string, text: string) => {
      const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintableBytes(text.replace(/_/g, ' '));
      return decodeCharset(bytes, charset);
    });
}

interface ContentType {
  readonly type: string;
  readonly parameters: ReadonlyMap<string, string>;
}

function contentTypeOf(value: string | undefined): ContentType {
  const [type = '', ...rest] = (value ?? 'text/plain').split(';');
  const parameters = new Map<string, string>();
  for (const match of `;${rest.join(';')}`.matchAll(/;\s*([^=\s;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
    const raw = match[2]!.trim();
    parameters.set(match[1]!.toLowerCase(), raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
  }
  return { type: type.trim().toLowerCase() || 'text/plain', parameters };
}

function field(entity: Entity, name: string): string | undefined {
  return entity.headers.find((h) => h.name.toLowerCase() === name)?.value;
}

function decodedBody(entity: Entity, charset: string): string {
  const encoding = (field(entity, 'content-transfer-encoding') ?? '7bit').trim().toLowerCase();
  if (encoding === 'base64') return decodeCharset(Buffer.from(entity.body.replace(/\s+/g, ''), 'base64'), charset);
  if (encoding === 'quoted-printable') return decodeCharset(quotedPrintableBytes(entity.body.replace(/=\r?\n/g, '')), charset);
  return entity.body;
}

/** The bodies between a multipart's delimiter lines (RFC 2046 5.1.1), up to its closing one. */
function partsOf(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[][] = [];
  let current: string[] | undefined;
  for (const line of body.split(/\r?\n/)) {
    if (line.startsWith(delimiter)) {
      const rest = line.slice(delimiter.length);
      if (rest.startsWith('--')) break;
      if (rest.trim() === '') {
        current = [];
        parts.push(current);
        continue;
      }
    }
    current?.push(line);
  }
  return parts.map((lines) => lines.join('\r\n'));
}

interface Bodies {
  html?: string;
  text?: string;
}

function collectBodies(entity: Entity, found: Bodies, depth: number): void {
  const contentType = contentTypeOf(field(entity, 'content-type'));
  const boundary = contentType.parameters.get('boundary');
  if (contentType.type.startsWith('multipart/') && boundary) {
    // A message nests a few levels at most; a deeper one is not worth reading further.
    if (depth < 10) for (const part of partsOf(entity.body, boundary)) collectBodies(entityOf(part), found, depth + 1);
    return;
  }
  if (/^\s*attachment/i.test(field(entity, 'content-disposition') ?? '')) return;
  const charset = contentType.parameters.get('charset') ?? 'utf-8';
  if (contentType.type === 'text/html' && found.html === undefined) found.html = decodedBody(entity, charset);
  if (contentType.type === 'text/plain' && found.text === undefined) found.text = decodedBody(entity, charset);
}

export function readMime(raw: string): ReadMessage {
  const message = entityOf(raw);
  const found: Bodies = {};
  collectBodies(message, found, 0);
  return { headers: message.headers, html: found.html, text: found.text };
}
