import type { MiddlewareHandler } from 'hono';
import type { AuthEnv } from '../auth/index.js';
import { ApiError } from '../jsonapi/index.js';
import { holderOf } from './holder.js';
import type { RateDecision, RequestRateLimiter } from './window-counter.js';
import { secondsUntilEnd } from './window.js';

/** X-RateLimit-Limit, -Remaining (after this request) and -Reset (epoch seconds when the window ends). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.window.end),
  };
}

/** The 429 of a holder over its hourly limit, saying when the window resets. */
export function rateLimitExceeded(decision: RateDecision): ApiError {
  const retryAfter = secondsUntilEnd(decision.window, decision.now);
  const resetsAt = new Date(decision.window.end * 1000).toISOString();
  const detail = `This token's holder has made its ${decision.limit} requests of the hour; the limit resets at ${resetsAt}, in ${retryAfter} s`;
  return new ApiError(429, [{ id: 'rateLimitExceeded', status: '429', title: 'Too Many Requests', detail }], {
    ...rateLimitHeaders(decision),
    'Retry-After': String(retryAfter),
  });
}

/**
 * Counts every authenticated /api/v2 request against its holder's hourly limit, after bearer
 * authentication (so a 401 is neither counted nor given the headers) and before the route.
 * The headers are set before the route runs, so they are on its answer whatever it is, errors
 * included; a route that sets them itself (bulk requests, with their item allowance) wins.
 */
export function requestRateLimit(limiter: RequestRateLimiter): MiddlewareHandler<AuthEnv> {
  return async function limitRequestRate(c, next) {
    const decision = await limiter.decide(holderOf(c.get('auth')));
    if (!decision.admitted) throw rateLimitExceeded(decision);
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) c.header(name, value);
    await next();
  };
}
