/**
 * Request rate limits (issue #17): every authenticated /api/v2 request counts against its token
 * holder's requests per hour (RATE_LIMIT_PER_HOUR, or the org's own limit), in fixed hourly
 * windows shared by every API process through cadence_system.request_counts.
 */
export { holderOf, type HolderKey } from './holder.js';
export { rateLimitExceeded, rateLimitHeaders, requestRateLimit } from './middleware.js';
export { setOrgRateLimit, type OrgRateLimit } from './org-limit.js';
export { PURGE_REQUEST_COUNTS_TASK, purgeRequestCountsTask, RATE_LIMIT_CRONTAB } from './purge-task.js';
export { DEFAULT_SETTLE_INTERVAL_MS, RequestRateLimiter, type RateDecision, type RateLimiterOptions } from './window-counter.js';
export { hourWindowAt, WINDOW_SECONDS, type HourWindow } from './window.js';
