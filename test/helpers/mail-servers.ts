import { mailServerRule, type MailServerRule } from '../../runtime/mail/index.js';
import type { HostResolver } from '../../runtime/outbound/index.js';

/** A resolver for tests that name no host: any lookup is a test reaching for the outside world. */
export const noLookups: HostResolver = (host) => Promise.reject(new Error(`a test tried to look up ${host}`));

/**
 * The mail server rule of tests whose SMTP and IMAP servers listen on 127.0.0.1: that address
 * is on the allow-list, as MAIL_ALLOWED_HOSTS=127.0.0.1 would put it, and no name is looked up.
 */
export const loopbackMailServers: MailServerRule = mailServerRule('127.0.0.1', noLookups);

/** A resolver answering from a table, and refusing any other name, so no test resolves an outside host. */
export function tableResolver(answers: Readonly<Record<string, string[]>>): HostResolver {
  return (host) => {
    const addresses = answers[host];
    return addresses ? Promise.resolve([...addresses]) : Promise.reject(new Error(`ENOTFOUND ${host}`));
  };
}
