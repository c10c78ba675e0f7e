import { describe, expect, it } from 'vitest';
import { mailServerAddress, mailServerRule, MailServerRefused } from '../../../runtime/mail/server-address.js';
import { noLookups, tableResolver } from '../../helpers/mail-servers.js';

const RULE = 'mail servers must be public hosts, or be named in MAIL_ALLOWED_HOSTS';

describe('mailServerAddress', () => {
  const rule = mailServerRule(
    'relay.internal.test, 10.0.0.9',
    tableResolver({ 'mail.example.test': ['93.184.215.14'], 'relay.internal.test': ['10.0.0.8'], 'split.example.test': ['93.184.215.14', '192.168.1.1'] }),
  );

  it('gives the checked address, and the name for TLS when the host is a name', async () => {
    expect(await mailServerAddress('smtpHost', 'mail.example.test', rule)).toEqual({ address: '93.184.215.14', family: 4, servername: 'mail.example.test' });
    expect(await mailServerAddress('smtpHost', '93.184.215.14', rule)).toEqual({ address: '93.184.215.14', family: 4, servername: undefined });
    expect(await mailServerAddress('imapHost', '2606:4700::1', rule)).toEqual({ address: '2606:4700::1', family: 6, servername: undefined });
  });

  it('lets MAIL_ALLOWED_HOSTS names and addresses through, as written', async () => {
    expect(await mailServerAddress('imapHost', 'relay.internal.test', rule)).toEqual({ address: '10.0.0.8', family: 4, servername: 'relay.internal.test' });
    expect(await mailServerAddress('imapHost', '10.0.0.9', rule)).toMatchObject({ address: '10.0.0.9' });
    await expect(mailServerAddress('imapHost', '10.0.0.8', rule)).rejects.toThrow(`imapHost 10.0.0.8 is a private address (10.0.0.8); ${RULE}`);
  });

  const literals: Array<[host: string, address: string]> = [
    ['127.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['0.0.0.0', '0.0.0.0'],
    ['169.254.169.254', '169.254.169.254'],
    ['10.0.0.1', '10.0.0.1'],
    ['fd00::1', 'fd00::1'],
    ['localhost', '127.0.0.1, ::1'],
    ['Mail.LocalHost.', '127.0.0.1, ::1'],
  ];
  it.each(literals)('refuses %s without a lookup', async (host, address) => {
    const refused = await mailServerAddress('smtpHost', host, mailServerRule(undefined, noLookups)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MailServerRefused);
    expect(refused).toMatchObject({ field: 'smtpHost', reason: 'private', message: `smtpHost ${host} is a private address (${address}); ${RULE}` });
  });

  it('refuses a name with any private address without saying which', async () => {
    await expect(mailServerAddress('smtpHost', 'split.example.test', rule)).rejects.toMatchObject({
      reason: 'private',
      message: `smtpHost split.example.test resolves to a private address; ${RULE}`,
    });
  });

  it('refuses a name that does not resolve, and text that is no host', async () => {
    await expect(mailServerAddress('smtpHost', 'nowhere.example.test', rule)).rejects.toMatchObject({
      reason: 'unresolvable',
      message: 'smtpHost nowhere.example.test could not be resolved to an address',
    });
    await expect(mailServerAddress('imapHost', 'a b', rule)).rejects.toMatchObject({ reason: 'invalid', message: 'imapHost "a b" is not a host name or address' });
  });

  it('names MAIL_ALLOWED_HOSTS in a bad setting', () => {
    expect(() => mailServerRule('ok.example.test, not a host')).toThrow('MAIL_ALLOWED_HOSTS: "not a host" is not a host name or address');
  });
});
