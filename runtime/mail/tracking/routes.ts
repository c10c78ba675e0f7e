import { Hono, type Context } from 'hono';
import type { ApiEnv } from '../../engine/index.js';
import type { LabelledCounter } from '../../metrics/index.js';
import type { HitBuffer } from './hit-buffer.js';
import type { HitKind } from './hit-store.js';
import type { TrackingClaim, TrackingKind, TrackingSigner } from './token.js';
import { recordUnsubscribe, type UnsubscribeDependencies } from './unsubscribe.js';

export interface TrackingRouteOptions extends UnsubscribeDependencies {
  readonly signer: TrackingSigner;
  /** Where opens and clicks go; whoever builds it stops it when the server closes. */
  readonly hits: HitBuffer;
  /** The service's clock: each hit's time. */
  readonly clock: () => Date;
  /** Counts opens, clicks and unsubscribes (cadence_tracking_hits_total); none when unset. */
  readonly hitCounter?: LabelledCounter<'kind'> | undefined;
}

/** The smallest transparent GIF: 1×1, one transparent colour (43 bytes). */
export const TRANSPARENT_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** Nothing a tracking URL answers may be kept by a proxy or the mail client: each load is a hit. */
const UNCACHED = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/**
 * The short signed URLs mail carries, served without a token: the signature is the
 * authority. A token that fails its check (forged, altered, cut short, of another kind) is a
 * plain 404 that redirects nowhere. A valid one for a mailing since deleted still answers as
 * usual and records nothing. Opens and clicks are answered from memory: the hit is held in the
 * buffer (hit-buffer.ts), appended within a quarter of a second, and counted on the mailing by
 * the fold about a second later (hit-fold.ts). An unsubscribe is written before it is answered.
 * - GET /t/o/<token>.gif: the open pixel.
 * - GET /t/c/<token>: a click, 302 to the signed target.
 * - GET /t/u/<token>: a page asking to confirm; POST /t/u/<token> unsubscribes. A GET never
 *   does: mail security scanners and previews fetch every link of a message, and would opt
 *   prospects out who never asked. The POST is also RFC 8058's one-click unsubscribe, which
 *   mail clients send with the body `List-Unsubscribe=One-Click` (see listUnsubscribeHeaders).
 */
export function trackingRoutes(options: TrackingRouteOptions): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  const claimOf = (token: string, kind: TrackingKind) => {
    const claim = options.signer.verify(token);
    return claim?.kind === kind ? claim : undefined;
  };

  routes.get('/o/:file', async (c) => {
    const file = c.req.param('file');
    const claim = file.endsWith('.gif') ? claimOf(file.slice(0, -4), 'open') : undefined;
    if (!claim) return notFound(c);
    hold(c, options, claim, 'open');
    return c.body(new Uint8Array(TRANSPARENT_GIF), 200, { ...UNCACHED, 'Content-Type': 'image/gif' });
  });

  routes.get('/c/:token', async (c) => {
    const claim = claimOf(c.req.param('token'), 'click');
    if (!claim) return notFound(c);
    hold(c, options, claim, 'click');
    return c.body(null, 302, { ...UNCACHED, Location: new URL(claim.url!).href });
  });

  routes.get('/u/:token', (c) => {
    const claim = claimOf(c.req.param('token'), 'unsubscribe');
    if (!claim) return notFound(c);
    return page(c, 'Unsubscribe', `<p>Stop receiving these e-mails?</p><form method="post"><button type="submit">Unsubscribe</button></form>`);
  });

  routes.post('/u/:token', async (c) => {
    const claim = claimOf(c.req.param('token'), 'unsubscribe');
    if (!claim) return notFound(c);
    const outcome = await recordUnsubscribe(options, claim.orgId, claim.mailingId);
    options.hitCounter?.inc({ kind: 'unsubscribe' });
    c.get('log')?.debug({ orgId: claim.orgId, mailingId: claim.mailingId, kind: claim.kind, outcome }, 'tracking hit');
    return page(c, 'Unsubscribed', '<p>You are unsubscribed and will receive no more of these e-mails.</p>');
  });

  return routes;
}

/**
 * Holds an open or a click for the buffer's next flush (never the token in the log). Nothing
 * here waits on the database: the pixel or link works even when the database does not, and a
 * hit lost then is only a lost count (README, Tracking: the loss window).
 */
function hold(c: Context<ApiEnv>, options: TrackingRouteOptions, claim: TrackingClaim, kind: HitKind): void {
  options.hits.add({ orgId: claim.orgId, mailingId: claim.mailingId, kind, at: options.clock() });
  options.hitCounter?.inc({ kind });
  c.get('log')?.debug({ orgId: claim.orgId, mailingId: claim.mailingId, kind }, 'tracking hit');
}

function notFound(c: Context<ApiEnv>): Response {
  return c.body('Not found\n', 404, { ...UNCACHED, 'Content-Type': 'text/plain; charset=utf-8' });
}

function page(c: Context<ApiEnv>, title: string, content: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>${title}</title></head><body>${content}</body></html>`;
  return c.body(html, 200, { ...UNCACHED, 'Content-Type': 'text/html; charset=utf-8' });
}

/** A request path with any tracking token cut out, for logs: the token is a bearer of rights. */
export function loggablePath(path: string): string {
  return path.replace(/^\/t\/([ocu])\/[^/]*/, '/t/$1/[token]');
}
