import { createHmac } from 'node:crypto';
import type { SecureContext } from 'node:tls';
import type { DeliveryConnections } from './connections.js';
import { resolveDeliveryTarget, type DeliveryTarget, type HostResolver } from './resolve.js';
import { RESPONSE_TIMEOUT_MS, sendWebhook, type SendOptions, type SendResult, type WebhookRequest } from './send.js';

export interface WebhookDelivery {
  readonly url: URL;
  /** The exact bytes to send and to sign. */
  readonly body: string;
  /** Unset or empty: the delivery is not signed. */
  readonly secret?: string | null;
  /** Resource webhooks carry their cleanup token; app lifecycle deliveries have none. */
  readonly cleanupToken?: string;
  /** Defaults to JSON:API's media type, what resource webhooks send. */
  readonly contentType?: string;
  /** Names the event, not the attempt: sent as Service-Webhook-Event-Id, the same on every retry. */
  readonly eventId?: string;
}

export interface DeliveryOptions {
  readonly resolver: HostResolver;
  readonly allowedHosts: ReadonlySet<string>;
  /** PEM certificates trusted in addition to the bundled root certificates. */
  readonly ca?: string | Buffer;
  /** `ca` built once into a TLS context (trustedContext); preferred when both are set. */
  readonly secureContext?: SecureContext;
  /** Kept-alive connections per checked target, a worker's own (connections.ts); unset, one connection per delivery. */
  readonly connections?: DeliveryConnections;
  /** Defaults to sendWebhook; tests wrap it to keep connections off the outside world. */
  readonly send?: (request: WebhookRequest, options: SendOptions) => Promise<SendResult>;
}

export type DeliveryAttempt =
  | { readonly number: number; readonly kind: 'response'; readonly status: number; readonly latencyMs: number }
  | { readonly number: number; readonly kind: 'network-error'; readonly error: string; readonly latencyMs: number };

/**
 * How one attempt of a delivery ended, with the attempt made (none when the host check refused).
 * 'private' and 'unresolvable' are the host check refusing before an attempt; the caller
 * disables the webhook for an hour or a minute.
 */
export type DeliveryOutcome =
  | { readonly kind: 'acknowledged'; readonly status: number; readonly attempts: DeliveryAttempt[] }
  | { readonly kind: 'network-failure'; readonly attempts: DeliveryAttempt[] }
  | { readonly kind: 'private'; readonly addresses: string[]; readonly attempts: DeliveryAttempt[] }
  | { readonly kind: 'unresolvable'; readonly error: string; readonly attempts: DeliveryAttempt[] };

/** SPEC.md's limits: 4 attempts in all, one second apart, network failures only. */
export const DELIVERY_ATTEMPTS = 4;
export const RETRY_DELAY_MS = 1000;

/** Hex HMAC-SHA256 of the body as sent, keyed by the webhook's secret. */
export function signBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export function deliveryHeaders(delivery: WebhookDelivery): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': delivery.contentType ?? 'application/vnd.api+json' };
  if (delivery.cleanupToken !== undefined) headers['service-webhook-cleanup-token'] = delivery.cleanupToken;
  if (delivery.secret) headers['Service-Webhook-Signature'] = signBody(delivery.secret, delivery.body);
  if (delivery.eventId !== undefined) headers['Service-Webhook-Event-Id'] = delivery.eventId;
  return headers;
}

/**
 * Makes attempt `number` of a delivery: the host check, then one POST to the address it
 * approved. Any HTTP status ends the delivery; only failing to get a status is retried, by the
 * caller scheduling the next attempt (nextAttempt) rather than waiting here, so that a retry
 * waits without holding a worker's slot.
 */
export async function attemptDelivery(delivery: WebhookDelivery, options: DeliveryOptions, number: number): Promise<DeliveryOutcome> {
  return postDelivery(delivery, await checkDeliveryTarget(delivery.url, options), options, number);
}

/**
 * The host check of attempts about to be made to `url`, made once for a set of them: a name
 * that resolves elsewhere by the next set is checked again then.
 */
export function checkDeliveryTarget(url: URL, options: DeliveryOptions): Promise<DeliveryTarget> {
  // Refused before any DNS lookup; the resource layer already refuses such URLs.
  if (url.protocol !== 'https:') throw new TypeError(`webhooks are delivered over HTTPS only, not to ${url.protocol}`);
  return resolveDeliveryTarget(url, options);
}

/** Attempt `number` of a delivery to the target its host check returned: one POST to the approved address. */
export async function postDelivery(delivery: WebhookDelivery, target: DeliveryTarget, options: DeliveryOptions, number: number): Promise<DeliveryOutcome> {
  if (target.kind === 'private') return { kind: 'private', addresses: target.addresses, attempts: [] };
  if (target.kind === 'unresolvable') return { kind: 'unresolvable', error: target.error, attempts: [] };
  const send = options.send ?? sendWebhook;
  const request = { url: delivery.url, address: target.address, family: target.family, body: delivery.body, headers: deliveryHeaders(delivery) };
  const result = await send(request, {
    timeoutMs: RESPONSE_TIMEOUT_MS,
    ...(options.secureContext ? { secureContext: options.secureContext } : { ca: options.ca }),
    ...(options.connections && { connections: options.connections, trust: trustOf(options) }),
  });
  const attempts = [{ number, ...result }];
  return result.kind === 'response' ? { kind: 'acknowledged', status: result.status, attempts } : { kind: 'network-failure', attempts };
}

/** Which trust a pooled connection's certificate was checked with: part of what it may be reused for. */
function trustOf(options: DeliveryOptions): string {
  return options.secureContext ? 'configured context' : options.ca !== undefined ? 'configured ca' : 'bundled roots';
}

/**
 * The attempt to schedule RETRY_DELAY_MS after attempt `number`, when SPEC.md's rule allows one:
 * DELIVERY_ATTEMPTS in all from `firstAttempt` (a redelivery's first; 1 for a first delivery).
 */
export function nextAttempt(outcome: DeliveryOutcome, number: number, firstAttempt = 1): number | undefined {
  return outcome.kind === 'network-failure' && number - firstAttempt + 1 < DELIVERY_ATTEMPTS ? number + 1 : undefined;
}
