/**
 * Prometheus metrics (issue #29): a registry per process, made by its composition root, and what
 * adds to it. The API serves GET /metrics on its own port; a worker on METRICS_PORT
 * (listenForMetrics). Label values are fixed words, route templates and task names, never an
 * org's or a record's id.
 */
export { createMetricsRegistry } from './registry.js';
export { httpMetrics, routeLabel, UNMATCHED_ROUTE } from './http.js';
export { metricsEndpoint, type MetricsEndpointOptions } from './endpoint.js';
export { listenForMetrics, type MetricsListener, type MetricsListenerOptions } from './listener.js';
export { observePool } from './pool.js';
export { jobMetrics, observeQueue, QUEUE_DEPTH_CAP, type JobMetrics } from './jobs.js';
export { mailOutcomeCounter, trackingHitCounter, webhookDeliveryCounter, type LabelledCounter } from './counters.js';
export type { Registry } from 'prom-client';
