// Outbound webhook delivery: the host check, one HTTPS POST (over kept-alive connections per checked target), and which attempt comes next.
export { DNS_ATTEMPTS, parseAllowedHosts, resolveDeliveryTarget, systemResolver, type DeliveryTarget, type HostResolver, type ResolveOptions } from './resolve.js';
export { RESPONSE_TIMEOUT_MS, sendWebhook, trustedContext, type SendOptions, type SendResult, type WebhookRequest } from './send.js';
export {
  DELIVERY_ATTEMPTS,
  RETRY_DELAY_MS,
  attemptDelivery,
  checkDeliveryTarget,
  postDelivery,
  deliveryHeaders,
  nextAttempt,
  signBody,
  type DeliveryAttempt,
  type DeliveryOptions,
  type DeliveryOutcome,
  type WebhookDelivery,
} from './deliver.js';
export { DEFAULT_CONNECTION_POOL, deliveryConnections, type ConnectionPoolOptions, type ConnectionTarget, type DeliveryConnections } from './connections.js';
export { DELIVERY_PRIORITY } from './schedule.js';
