import { describe, expect, it } from 'vitest';
import { envelopeOf, mimeMessage } from '../../../../runtime/mail/sending/mime-message.js';
import type { OutgoingMessage } from '../../../../runtime/mail/sending/transports.js';
import { decodeQuotedPrintable } from '../../../helpers/smtp.js';

const DATE = new Date('2026-11-28T02:31:25Z');
const BOUNDARY = '--_Cadence-test';

const base: OutgoingMessage = {
  orgId: 1,
  mailingId: 2,
  from: { name: 'Grace Hopper', address: 'grace@sales.example.test' },
  to: { name: 'Ada', address: 'ada@acme.example.test' },
  subject: 'Hello Ada',
  html: '<p>Hi Ada</p>',
  text: 'Hi Ada',
  messageId: '<0d9a@sales.example.test>',
};

function compose(change: Partial<OutgoingMessage>): { head: string; body: string } {
  const raw = mimeMessage({ ...base, ...change }, { date: DATE, boundary: BOUNDARY });
  const at = raw.indexOf('\r\n\r\n');
  return { head: raw.slice(0, at + 2), body: raw.slice(at + 4) };
}

/** The text of an RFC 2047 Q-encoded header, unfolded and decoded. */
function decodeHeader(value: string): string {
  return value
    .replace(/\r\n /g, ' ')
    .replace(/\?= =\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_w, q: string) => decodeQuotedPrintable(q.replace(/_/g, ' ')));
}

describe('mimeMessage', () => {
  it('writes the whole message: headers, then the text and HTML alternatives, CRLF throughout', () => {
    const raw = mimeMessage({ ...base, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }, { date: DATE, boundary: BOUNDARY });
    expect(raw).toBe(
      [
        'From: Grace Hopper <grace@sales.example.test>',
        'To: Ada <ada@acme.example.test>',
        'Subject: Hello Ada',
        'Message-ID: <0d9a@sales.example.test>',
        'Date: Sat, 28 Nov 2026 02:31:25 +0000',
        'MIME-Version: 1.0',
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
        'Content-Type: multipart/alternative;',
        ' boundary="--_Cadence-test"',
        '',
        '----_Cadence-test',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 7bit',
        '',
        'Hi Ada',
        '----_Cadence-test',
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: 7bit',
        '',
        '<p>Hi Ada</p>',
        '----_Cadence-test--',
        '',
      ].join('\r\n'),
    );
  });

  it.each([
    { given: { name: 'Grace Hopper', address: 'grace@example.test' }, want: 'Grace Hopper <grace@example.test>' },
    { given: { name: undefined, address: 'grace@example.test' }, want: '<grace@example.test>' },
    { given: { name: 'Ada <Lovelace>', address: 'ada@example.test' }, want: '"Ada <Lovelace>" <ada@example.test>' },
    { given: { name: 'Ada "the" \\ Countess', address: 'ada@example.test' }, want: '"Ada \\"the\\" \\\\ Countess" <ada@example.test>' },
    { given: { name: 'Ünï', address: 'u@example.test' }, want: '=?UTF-8?Q?=C3=9Cn=C3=AF?= <u@example.test>' },
    { given: { name: 'Ada', address: 'ada@jõgeva.example' }, want: 'Ada <ada@xn--jgeva-dua.example>' },
    { given: { name: 'Ada\r\nBcc: x@evil.test', address: 'ada@example.test' }, want: '"Ada Bcc: x@evil.test" <ada@example.test>' },
  ])('writes the address $given.address named $given.name as $want', ({ given, want }) => {
    expect(compose({ to: given }).head).toContain(`\r\nTo: ${want}\r\n`);
  });

  it.each([
    ['Hello Ada', 'Subject: Hello Ada\r\n'],
    ['Hi Ada at Acme & Sons', 'Subject: Hi Ada at Acme & Sons\r\n'],
    ['Two\r\nBcc: x@evil.test', 'Subject: Two Bcc: x@evil.test\r\n'],
  ])('writes the ASCII subject %j as it is, on one line', (subject, want) => {
    expect(compose({ subject }).head).toContain(want);
  });

  it('encodes a non-ASCII subject in words that decode back, folded at 76 characters', () => {
    const subject = 'Grüße aus Köln — ein sehr langer Betreff, der über mehrere Zeilen gefaltet werden muss';
    const { head } = compose({ subject });
    const header = /^Subject: ([\s\S]*?)\r\n(?! )/m.exec(head)![1]!;
    expect(header).toMatch(/=\?UTF-8\?Q\?/);
    expect(decodeHeader(header)).toBe(subject);
    for (const line of head.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
  });

  it('folds a long header after its name', () => {
    const url = `<https://cadence.example/t/u/${'A'.repeat(80)}>`;
    expect(compose({ headers: { 'List-Unsubscribe': url } }).head).toContain(`\r\nList-Unsubscribe:\r\n ${url}\r\n`);
  });

  it('refuses a header name that is not one', () => {
    expect(() => compose({ headers: { 'X-Bad: injected': 'x' } })).toThrow(/not a header name/);
  });

  it('writes long or non-ASCII parts quoted-printable, lines at most 76, decoding to the content with CRLF line ends', () => {
    const html = `<p>Grüße, ${'lang '.repeat(40)}</p>\n<p><a href="https://cadence.example/t/c/${'x'.repeat(90)}">Preise</a></p>`;
    const text = 'Zeile eins\nGrüße\n';
    const { body } = compose({ html, text });
    // The CRLF before a delimiter belongs to it (RFC 2046).
    const [, textPart, htmlPart, after] = body.split(new RegExp(`(?:^|\\r\\n)--${BOUNDARY}(?:--)?\\r\\n`));
    expect(after).toBe('');
    for (const [partText, content, type] of [
      [textPart!, text, 'text/plain'],
      [htmlPart!, html, 'text/html'],
    ] as const) {
      expect(partText).toContain(`Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n`);
      for (const line of partText.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
      const encoded = partText.slice(partText.indexOf('\r\n\r\n') + 4);
      expect(decodeQuotedPrintable(encoded)).toBe(content.replace(/\n/g, '\r\n'));
    }
  });

  it('gives every message a boundary of its own, which its content cannot know in advance', () => {
    const one = mimeMessage(base, { date: DATE });
    const two = mimeMessage(base, { date: DATE });
    const boundaryOf = (raw: string) => /boundary="([^"]+)"/.exec(raw)![1]!;
    expect(boundaryOf(one)).toMatch(/^--_Cadence-[0-9a-f]{32}$/);
    expect(boundaryOf(one)).not.toBe(boundaryOf(two));
    expect(one.endsWith(`\r\n--${boundaryOf(one)}--\r\n`)).toBe(true);
  });

  it('gives the envelope the header addresses', () => {
    expect(envelopeOf({ ...base, to: { address: 'ada@jõgeva.example' } })).toEqual({ from: 'grace@sales.example.test', to: ['ada@xn--jgeva-dua.example'] });
  });
});
