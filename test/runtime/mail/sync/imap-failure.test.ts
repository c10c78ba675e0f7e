import { describe, expect, it } from 'vitest';
import { imapFailureOf, ImapFailure } from '../../../../runtime/mail/sync/imap-client.js';
import { MailServerRefused } from '../../../../runtime/mail/server-address.js';

/** imapflow's errors as it makes them: the server's text and the command (with the password) included. */
const error = (fields: Record<string, unknown>) =>
  Object.assign(new Error('secret-banner'), { responseText: undefined, command: 'a LOGIN rep imap-secret-rep', ...fields });

describe('imapFailureOf', () => {
  const table: Array<[what: string, given: unknown, kind: string, answer: string]> = [
    ['a refused host', new MailServerRefused('imapHost', 'private', 'imapHost 10.0.0.1 is …'), 'refused', 'imapHost 10.0.0.1 is …'],
    [
      'a refused login',
      error({ authenticationFailed: true, responseText: 'secret-banner says no', serverResponseCode: 'AUTHENTICATIONFAILED' }),
      'login',
      'authentication failed [AUTHENTICATIONFAILED]',
    ],
    ['a refused login without a code', error({ authenticationFailed: true, responseText: 'secret-banner' }), 'login', 'authentication failed'],
    ['a response code that is not one', error({ authenticationFailed: true, serverResponseCode: 'secret banner' }), 'login', 'authentication failed'],
    ['a refused command', error({ responseText: 'secret-banner', serverResponseCode: 'NONEXISTENT' }), 'command', 'a command was refused [NONEXISTENT]'],
    ['a closed port', error({ code: 'ECONNREFUSED' }), 'connection', 'connection refused'],
    ['a greeting never sent', error({ code: 'GREETING_TIMEOUT' }), 'connection', 'timed out'],
    ['a hang-up after a banner', error({ code: 'ClosedAfterConnectText' }), 'connection', 'connection closed by the server'],
    ['a bad certificate', error({ code: 'CERT_HAS_EXPIRED' }), 'connection', 'TLS failed (CERT_HAS_EXPIRED)'],
    ['anything else', error({ code: 'ParserError' }), 'connection', 'the connection failed'],
  ];
  it.each(table)('%s', (_what, given, kind, answer) => {
    const failure = imapFailureOf(given);
    expect(failure).toBeInstanceOf(ImapFailure);
    expect({ kind: failure.kind, answer: failure.answer }).toEqual({ kind, answer });
    expect(failure.message).not.toContain('secret');
  });
});
