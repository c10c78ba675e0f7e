import { parseAllowedHosts, parseHostLiteral, resolveOutboundHost, systemResolver, type HostLiteral, type HostResolver } from '../outbound/index.js';

/**
 * Where a mailbox's own mail servers (smtpHost, imapHost) may be. A tenant names them, so they
 * follow the rule webhooks follow (runtime/outbound): the host is resolved, every address is
 * checked, and the connection goes to the checked address. Otherwise a mailbox could point
 * testSend, testSync, its mailings and its sync at 127.0.0.1, 10.x or 169.254.169.254 and
 * read what answers.
 */
export interface MailServerRule {
  readonly resolver: HostResolver;
  /** MAIL_ALLOWED_HOSTS, parsed: hosts exempt from the private-address rule. */
  readonly allowedHosts: ReadonlySet<string>;
}

/** The rule from MAIL_ALLOWED_HOSTS, resolving with getaddrinfo unless told otherwise (tests). */
export function mailServerRule(allowedHosts: string | undefined, resolver: HostResolver = systemResolver): MailServerRule {
  return { resolver, allowedHosts: parseAllowedHosts(allowedHosts, 'MAIL_ALLOWED_HOSTS') };
}

export type MailServerField = 'smtpHost' | 'imapHost';

/** The checked address a mail connection goes to, and the name its TLS certificate must carry. */
export interface MailServerAddress {
  readonly address: string;
  readonly family: 4 | 6;
  /** The host name for SNI and certificate checks; undefined when the mailbox names an address. */
  readonly servername: string | undefined;
}

/**
 * A mailbox's mail server that may not be connected to. The message says why in our words:
 * no resolver error and, for a name, not the addresses it resolved to (they would map an
 * internal DNS for whoever asks).
 */
export class MailServerRefused extends Error {
  constructor(
    readonly field: MailServerField,
    readonly reason: 'private' | 'unresolvable' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'MailServerRefused';
  }
}

/** Where to connect for `host`; rejects with MailServerRefused when the rule says no. */
export async function mailServerAddress(field: MailServerField, host: string, rule: MailServerRule): Promise<MailServerAddress> {
  let named: HostLiteral;
  try {
    named = parseHostLiteral(host);
  } catch {
    throw new MailServerRefused(field, 'invalid', `${field} "${host}" is not a host name or address`);
  }
  const target = await resolveOutboundHost(host, rule);
  switch (target.kind) {
    case 'private': {
      // An address or localhost is the tenant's own text; a name's answer stays ours.
      const what = named.kind === 'name' ? 'resolves to a private address' : `is a private address (${target.addresses.join(', ')})`;
      throw new MailServerRefused(field, 'private', `${field} ${host} ${what}; mail servers must be public hosts, or be named in MAIL_ALLOWED_HOSTS`);
    }
    case 'unresolvable':
      throw new MailServerRefused(field, 'unresolvable', `${field} ${host} could not be resolved to an address`);
    case 'ok':
      return { address: target.address, family: target.family, servername: named.kind === 'ip' ? undefined : named.name.replace(/\.$/, '') };
  }
}
