import { describe, expect, it } from 'vitest';
import { mimeMessage } from '../../../../runtime/mail/sending/mime-message.js';
import { decodeEncodedWords, readMime } from '../../../../runtime/mail/viewer/mime-reader.js';

const DATE = new Date('2026-11-28T02:31:25Z');

describe('readMime', () => {
  it('reads back what the local transport stores: every header field, decoded, and both alternatives', () => {
    const long = `<p>${'Ünïcode and a long line '.repeat(8)}</p>`;
    const raw = mimeMessage(
      {
        orgId: 1,
        mailingId: 2,
        from: { name: 'Grâce Hopper', address: 'grace@sales.example.test' },
        to: { address: 'ada@acme.example.test' },
        subject: 'Grüße an Ada — a subject long enough to be folded over more than one line of the header block',
        html: long,
        text: 'Hi Ada\nsecond line',
        messageId: '<0d9a@sales.example.test>',
        headers: { 'List-Unsubscribe': '<https://cadence.test/t/u/x>' },
      },
      { date: DATE },
    );
    const read = readMime(raw);
    expect(read.headers.map((h) => [h.name, h.value])).toEqual([
      ['From', 'Grâce Hopper <grace@sales.example.test>'],
      ['To', '<ada@acme.example.test>'],
      ['Subject', 'Grüße an Ada — a subject long enough to be folded over more than one line of the header block'],
      ['Message-ID', '<0d9a@sales.example.test>'],
      ['Date', 'Sat, 28 Nov 2026 02:31:25 +0000'],
      ['MIME-Version', '1.0'],
      ['List-Unsubscribe', '<https://cadence.test/t/u/x>'],
      ['Content-Type', expect.stringMatching(/^multipart\/alternative; boundary="--_Cadence-[0-9a-f]{32}"$/)],
    ]);
    expect(read.html).toBe(long);
    expect(read.text).toBe('Hi Ada\r\nsecond line');
  });

  const cases: { name: string; raw: string; want: { html?: string; text?: string } }[] = [
    { name: 'a single text part, no Content-Type', raw: 'Subject: x\r\n\r\nplain body', want: { text: 'plain body' } },
    {
      name: 'base64 HTML in a charset other than UTF-8',
      raw: `Content-Type: text/html; charset="iso-8859-1"\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from('<p>caf\xe9</p>', 'latin1').toString('base64')}\r\n`,
      want: { html: '<p>café</p>' },
    },
    {
      name: 'nested multiparts, an attachment skipped, LF line endings',
      raw: [
        'Content-Type: multipart/mixed; boundary=outer',
        '',
        'preamble',
        '--outer',
        'Content-Type: multipart/alternative; boundary="inner"',
        '',
        '--inner',
        'Content-Type: text/plain',
        '',
        'the text',
        '--inner',
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        '<p>soft=',
        ' break =C3=A9</p>',
        '--inner--',
        '--outer',
        'Content-Type: text/html',
        'Content-Disposition: attachment; filename=a.html',
        '',
        '<p>attached</p>',
        '--outer--',
        'epilogue',
      ].join('\n'),
      want: { text: 'the text', html: '<p>soft break é</p>' },
    },
  ];
  for (const c of cases) {
    it(`reads ${c.name}`, () => {
      const read = readMime(c.raw);
      expect({ html: read.html, text: read.text }).toEqual({ html: c.want.html, text: c.want.text });
    });
  }
});

describe('decodeEncodedWords', () => {
  it('decodes B and Q words, joining adjacent ones, and leaves other text alone', () => {
    expect(decodeEncodedWords('=?UTF-8?B?R3LDvMOfZQ==?= =?utf-8?Q?_an_Ada?= and plain')).toBe('Grüße an Ada and plain');
    expect(decodeEncodedWords('=?iso-8859-1?Q?caf=E9?=')).toBe('café');
    expect(decodeEncodedWords('=?x-unknown?Q?abc?=')).toBe('abc');
    expect(decodeEncodedWords('no =? words ?= here')).toBe('no =? words ?= here');
  });
});
