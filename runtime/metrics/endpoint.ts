import { createHash, timingSafeEqual } from 'node:crypto';
import type { Handler } from 'hono';
import type { Registry } from 'prom-client';
import { bearerToken } from '../auth/index.js';
import { unauthorized } from '../jsonapi/index.js';

export interface MetricsEndpointOptions {
  readonly registry: Registry;
  /** METRICS_TOKEN: the bearer token a scrape must carry; unset, /metrics is open (like /healthz). */
  readonly token?: string | undefined;
}

/** Compared as SHA-256 digests, which have one length: timingSafeEqual tells nothing of the token's length either. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** GET /metrics: the registry in the Prometheus text format, behind METRICS_TOKEN when it is set. */
export function metricsEndpoint(options: MetricsEndpointOptions): Handler {
  return async function serveMetrics(c) {
    if (options.token !== undefined) {
      const given = bearerToken(c.req.header('authorization'));
      if (given === undefined) throw unauthorized('An Authorization: Bearer <METRICS_TOKEN> header is required');
      if (!sameToken(given, options.token)) throw unauthorized('The token is not the METRICS_TOKEN');
    }
    const text = await options.registry.metrics();
    return c.body(text, 200, { 'Content-Type': options.registry.contentType, 'Cache-Control': 'no-store' });
  };
}
