// Connections to hosts a tenant names (webhook receivers, mailboxes' mail servers): which
// addresses they may reach, and the one checked address each connection goes to.
export { classifyAddress, parseHostLiteral, type AddressClass, type HostLiteral } from './addresses.js';
export { DNS_ATTEMPTS, parseAllowedHosts, resolveOutboundHost, systemResolver, type HostResolver, type OutboundTarget, type ResolveOptions } from './resolve.js';
