import { describe, expect, it } from 'vitest';
import { MailServerRefused } from '../../../../runtime/mail/server-address.js';
import { outcomeOfError } from '../../../../runtime/mail/sending/smtp-outcome.js';

/** nodemailer's errors as it makes them: its code, the system error's code, and the server's reply. */
const error = (fields: Record<string, unknown>) => Object.assign(new Error('with the server text: SSH-2.0-secret-banner'), fields);

describe('outcomeOfError', () => {
  const table: Array<[what: string, given: unknown, kind: string, answer: string]> = [
    [
      'a refused host',
      new MailServerRefused('smtpHost', 'private', 'smtpHost 10.0.0.1 is a private address (10.0.0.1); …'),
      'failed',
      'smtpHost 10.0.0.1 is a private address (10.0.0.1); …',
    ],
    [
      'a name that did not resolve',
      new MailServerRefused('smtpHost', 'unresolvable', 'smtpHost x could not be resolved to an address'),
      'temporary',
      'smtpHost x could not be resolved to an address',
    ],
    [
      'a refused login',
      error({ code: 'EAUTH', response: '535 5.7.8 Error: authentication failed: secret-banner', responseCode: 535 }),
      'failed',
      "The SMTP server refused the mailbox's login (535 5.7.8)",
    ],
    [
      'a recipient refused',
      error({ code: 'EENVELOPE', response: '550 5.1.1 <ada@acme.test>: Recipient address rejected', responseCode: 550 }),
      'bounced',
      '550 5.1.1 <ada@acme.test>: Recipient address rejected',
    ],
    ['a message deferred', error({ code: 'EMESSAGE', response: '451 4.7.1 Try again later\r\n', responseCode: 451 }), 'temporary', '451 4.7.1 Try again later'],
    ['a greeting that is no SMTP', error({ code: 'EPROTOCOL', response: 'SSH-2.0-secret-banner' }), 'temporary', 'The server did not answer as an SMTP server'],
    [
      'a greeting refusing service',
      error({ code: 'EPROTOCOL', response: '554 secret-banner no service', responseCode: 554 }),
      'bounced',
      'The server did not answer as an SMTP server (554)',
    ],
    ['a closed port', error({ code: 'ECONNECTION', originalCode: 'ECONNREFUSED' }), 'temporary', 'Could not talk to the SMTP server: connection refused'],
    ['a silent server', error({ code: 'ETIMEDOUT' }), 'temporary', 'Could not talk to the SMTP server: timed out'],
    [
      'a bad certificate',
      error({ code: 'ESOCKET', originalCode: 'ERR_TLS_CERT_ALTNAME_INVALID' }),
      'temporary',
      'Could not talk to the SMTP server: TLS failed (ERR_TLS_CERT_ALTNAME_INVALID)',
    ],
    [
      'a failed STARTTLS',
      error({ code: 'ETLS', originalCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      'temporary',
      'TLS with the SMTP server failed (DEPTH_ZERO_SELF_SIGNED_CERT)',
    ],
    ['a connection closed', error({ code: 'ECONNECTION' }), 'temporary', 'Could not talk to the SMTP server: the connection failed'],
  ];
  it.each(table)('%s', (_what, given, kind, answer) => {
    expect(outcomeOfError(given)).toEqual({ kind, answer });
  });

  it('keeps a reply to the message to one line of 300 characters', () => {
    const long = `550 ${'x'.repeat(400)}`;
    expect(outcomeOfError(error({ code: 'EENVELOPE', response: long, responseCode: 550 })).answer).toBe(`${long.slice(0, 300)}…`);
  });
});
