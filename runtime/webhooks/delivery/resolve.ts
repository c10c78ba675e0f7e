import { parseAllowedHosts as parseHostList, resolveOutboundHost, type OutboundTarget, type ResolveOptions } from '../../outbound/index.js';

// The address rule is runtime/outbound's, shared with mail; webhooks name their setting and take URLs.
export { DNS_ATTEMPTS, systemResolver, type HostResolver, type ResolveOptions } from '../../outbound/index.js';

export type DeliveryTarget = OutboundTarget;

/** `WEBHOOK_ALLOWED_HOSTS`: receivers on an internal network that an operator trusts. */
export function parseAllowedHosts(list: string | undefined): ReadonlySet<string> {
  return parseHostList(list, 'WEBHOOK_ALLOWED_HOSTS');
}

/**
 * Where a delivery to `url` may connect, checked afresh before every attempt so that a name
 * which later resolves elsewhere (DNS rebinding) is caught. The caller connects to exactly the
 * returned address.
 */
export function resolveDeliveryTarget(url: URL, options: ResolveOptions): Promise<DeliveryTarget> {
  return resolveOutboundHost(url.hostname, options);
}
