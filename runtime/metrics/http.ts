import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, Histogram, type Registry } from 'prom-client';

/** The label of a request no route answers (the 404 of an unknown path). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods labelled by name; any other a client sends is `OTHER`, so that no client adds label values at will. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route template a request was for, e.g. `/api/v2/prospects/:id{[0-9]+}`: never the path,
 * which holds ids and tracking tokens. It is the first matched route that is not a middleware's
 * pattern (Cadence mounts middleware on patterns ending in `*` and nothing else there), so a
 * request refused by a middleware (a 401, a 413) is still labelled with the route it asked for.
 */
export function routeLabel(c: Context): string {
  const route = matchedRoutes(c).find((r) => !(r.method === 'ALL' && r.path.endsWith('*')));
  return route?.path ?? UNMATCHED_ROUTE;
}

function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : 'OTHER';
}

/**
 * Counts every request and how long it took, by method, route template and status. Mounted
 * ahead of every other middleware, so that health checks, scrapes and refusals are counted too.
 */
export function httpMetrics(registry: Registry): MiddlewareHandler {
  const requests = new Counter({
    name: 'cadence_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'cadence_http_request_duration_seconds',
    help: 'Time from a request reaching the app to its response, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  return async function countRequest(c, next) {
    const started = performance.now();
    await next();
    const labels = { method: methodLabel(c.req.method), route: routeLabel(c), status: String(c.res.status) };
    requests.inc(labels);
    duration.observe(labels, (performance.now() - started) / 1000);
  };
}
