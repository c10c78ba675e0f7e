/**
 * Opens, clicks and unsubscribes (issue #16): signed short URLs in the mail Cadence sends, the
 * transform that puts them in a mailing's HTML, the routes that answer them, the buffer that
 * appends opens and clicks to tracking_hits (hit-buffer.ts), the fold job that counts them on
 * their mailings through the record writer (hit-fold.ts), the unsubscribe written at once
 * (unsubscribe.ts), and what hits set in motion (prospect counters, opt-outs).
 */
import type { TaskList } from 'graphile-worker';
import { foldHitsTask, type FoldDependencies } from './hit-fold.js';
import { FOLD_HITS_TASK } from './hit-store.js';
import { createTrackingSigner } from './token.js';
import { listUnsubscribeHeaders, trackingTransform, type HtmlTransform, type HtmlTransformContext, type TrackingOptions } from './transform.js';

export { createTrackingSigner, isTrackableUrl, type TrackingClaim, type TrackingKind, type TrackingSigner } from './token.js';
export {
  listUnsubscribeHeaders,
  trackingTransform,
  trackingUrls,
  type HtmlTransform,
  type HtmlTransformContext,
  type TrackingOptions,
  type TrackingUrls,
} from './transform.js';
export { recordUnsubscribe, type UnsubscribeDependencies, type UnsubscribeOutcome } from './unsubscribe.js';
export { HitBuffer, DEFAULT_FLUSH_INTERVAL_MS, type HitBufferOptions } from './hit-buffer.js';
export { FOLD_DELAY_MS, FOLD_HITS_TASK, type HitKind, type TrackingHit } from './hit-store.js';
export { FOLD_SET_HITS, type FoldDependencies } from './hit-fold.js';
export { loggablePath, trackingRoutes, TRANSPARENT_GIF, type TrackingRouteOptions } from './routes.js';
export { withMailTracking } from './behaviours.js';

/**
 * The base of tracking URLs: PUBLIC_BASE_URL, else the address `cadence serve` listens on
 * (`http://127.0.0.1:3000` by default). A worker renders mail with no request to take an
 * origin from, so unlike API responses it cannot fall back to one; links built on the fallback
 * only work on the machine itself, which is what a local `npm start` needs.
 */
export function trackingBaseUrl(config: { readonly publicBaseUrl: string | undefined; readonly host: string; readonly port: number }): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * What tracking adds to every mailing a worker sends: the transform (links, pixel, the
 * unsubscribe link of sequence mail) and, for sequence mail, List-Unsubscribe headers, signed
 * with the deployment's tracking secret (loadTrackingSecret) so the API can verify them.
 */
export function mailTracking(
  secret: string,
  publicBaseUrl: string,
): { transforms: HtmlTransform[]; headers: ((context: HtmlTransformContext) => Record<string, string>)[] } {
  const options: TrackingOptions = { signer: createTrackingSigner(secret), publicBaseUrl };
  return {
    transforms: [trackingTransform(options)],
    headers: [(context) => (context.sequence ? listUnsubscribeHeaders(options, context) : {})],
  };
}

/** The worker's tracking task: the fold of each org's hits. */
export function trackingTasks(deps: FoldDependencies): TaskList {
  return { [FOLD_HITS_TASK]: foldHitsTask(deps) };
}
