import { createHmac } from 'node:crypto';
import type { SecureContext } from 'node:tls';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { resolveDeliveryTarget, type HostResolver } from './resolve.js';
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
  /** Defaults to real time; tests wrap it to watch the spacing. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Defaults to sendWebhook; tests wrap it to keep connections off the outside world. */
  readonly send?: (request: WebhookRequest, options: SendOptions) => Promise<SendResult>;
}

export type DeliveryAttempt =
  | { readonly number: number; readonly kind: 'response'; readonly status: number; readonly latencyMs: number }
  | { readonly number: number; readonly kind: 'network-error'; readonly error: string; readonly latencyMs: number };

/**
 * How a delivery ended, with every attempt made. 'private' and 'unresolvable' are the host
 * check refusing before an attempt; the caller disables the webhook for an hour or a minute.
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
 * Sends one delivery. Any HTTP status ends it; only failing to get a status is retried. The
 * host is checked again before each attempt, and each attempt connects to the address that
 * check approved.
 */
export async function deliverWithRetries(delivery: WebhookDelivery, options: DeliveryOptions): Promise<DeliveryOutcome> {
  // Refused before any DNS lookup; the resource layer already refuses such URLs.
  if (delivery.url.protocol !== 'https:') {
    throw new TypeError(`webhooks are delivered over HTTPS only, not to ${delivery.url.protocol}`);
  }
  const sleep = options.sleep ?? ((ms: number) => sleepFor(ms));
  const send = options.send ?? sendWebhook;
  const headers = deliveryHeaders(delivery);
  const attempts: DeliveryAttempt[] = [];
  for (let number = 1; number <= DELIVERY_ATTEMPTS; number++) {
    if (number > 1) await sleep(RETRY_DELAY_MS);
    const target = await resolveDeliveryTarget(delivery.url, options);
    if (target.kind === 'private') return { kind: 'private', addresses: target.addresses, attempts };
    if (target.kind === 'unresolvable') return { kind: 'unresolvable', error: target.error, attempts };
    const request = { url: delivery.url, address: target.address, family: target.family, body: delivery.body, headers };
    const result = await send(request, {
      timeoutMs: RESPONSE_TIMEOUT_MS,
      ...(options.secureContext ? { secureContext: options.secureContext } : { ca: options.ca }),
    });
    attempts.push({ number, ...result });
    if (result.kind === 'response') return { kind: 'acknowledged', status: result.status, attempts };
  }
  return { kind: 'network-failure', attempts };
}
