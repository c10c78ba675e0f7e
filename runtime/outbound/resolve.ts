import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, parseHostLiteral, type HostLiteral } from './addresses.js';

/** Every address a host name resolves to, in the order the system gives them. */
export type HostResolver = (host: string) => Promise<string[]>;

/** Where a connection may go: the one checked address to connect to, or why it may not. */
export type OutboundTarget =
  | { readonly kind: 'ok'; readonly address: string; readonly family: 4 | 6 }
  | { readonly kind: 'private'; readonly addresses: string[] }
  | { readonly kind: 'unresolvable'; readonly error: string };

export interface ResolveOptions {
  readonly resolver: HostResolver;
  /** Host names and addresses exempt from the private-address rule, as `parseAllowedHosts` makes them. */
  readonly allowedHosts: ReadonlySet<string>;
  /** DNS lookups before a host counts as unresolvable; SPEC.md's limits say 3. */
  readonly attempts?: number;
}

export const DNS_ATTEMPTS = 3;

/** The production resolver: getaddrinfo, as any other program on the machine would resolve. */
export const systemResolver: HostResolver = async (host) => {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

/**
 * An allow-list setting (`WEBHOOK_ALLOWED_HOSTS`, `MAIL_ALLOWED_HOSTS`): a comma list of host
 * names or addresses, e.g. servers on an internal network that an operator trusts. Throws,
 * naming `setting`, on an entry that is not a valid host.
 */
export function parseAllowedHosts(list: string | undefined, setting: string): ReadonlySet<string> {
  const entries = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return new Set(
    entries.map((entry) => {
      try {
        return allowedHostKey(parseHostLiteral(entry));
      } catch {
        throw new Error(`${setting}: "${entry}" is not a host name or address`);
      }
    }),
  );
}

/** Addresses in canonical form, names without the root dot. */
function allowedHostKey(host: HostLiteral): string {
  if (host.kind === 'ip') return host.address;
  return host.name.endsWith('.') ? host.name.slice(0, -1) : host.name;
}

/**
 * Where a connection to `hostname` may go, checked afresh before every connection so that a
 * name which later resolves elsewhere (DNS rebinding) is caught. The caller connects to exactly
 * the returned address. One private address anywhere in the answer makes the whole host
 * private: a client may pick any of them. Throws a TypeError for text that is no host at all.
 */
export async function resolveOutboundHost(hostname: string, options: ResolveOptions): Promise<OutboundTarget> {
  const host = parseHostLiteral(hostname);
  const allowed = options.allowedHosts.has(allowedHostKey(host));
  if (host.kind === 'ip') {
    if (!allowed && classifyAddress(host.address) === 'private') return { kind: 'private', addresses: [host.address] };
    return { kind: 'ok', address: host.address, family: host.family };
  }
  if (host.kind === 'localhost' && !allowed) return { kind: 'private', addresses: ['127.0.0.1', '::1'] };

  const answer = await resolveWithRetries(host.name, options.resolver, options.attempts ?? DNS_ATTEMPTS);
  if (answer.kind === 'unresolvable') return answer;
  const { addresses } = answer;
  if (!allowed && addresses.some((address) => classifyAddress(address) === 'private')) {
    return { kind: 'private', addresses };
  }
  const [address = ''] = addresses;
  return { kind: 'ok', address, family: isIP(address) === 6 ? 6 : 4 };
}

type Resolution = { kind: 'resolved'; addresses: string[] } | { kind: 'unresolvable'; error: string };

/** Retries failures only: an answer, private or not, is final. */
async function resolveWithRetries(name: string, resolver: HostResolver, attempts: number): Promise<Resolution> {
  let error = 'no DNS attempt made';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const addresses = await resolver(name);
      const bad = addresses.find((address) => isIP(address) === 0);
      if (addresses.length > 0 && bad === undefined) return { kind: 'resolved', addresses };
      error = addresses.length === 0 ? `no addresses for ${name}` : `resolver answered "${bad}", not an address`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
  }
  return { kind: 'unresolvable', error };
}
