import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type postgres from 'postgres';
import { authorizationDecision, authorizationPage } from './authorize.js';
import { invitationAcceptance, invitationForm } from './invitation-pages.js';
import { tokenEndpoint } from './token-endpoint.js';

export interface OAuthRoutesDependencies {
  readonly sql: postgres.Sql;
  readonly clock: () => Date;
}

/** Forms and token requests are small; nothing here needs more. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * Pages that take passwords are never framed (clickjacking), cached or given a Referer, and
 * load nothing from anywhere.
 */
const pageSecurityHeaders: MiddlewareHandler = async function pageSecurityHeaders(c, next) {
  await next();
  c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  c.header('X-Content-Type-Options', 'nosniff');
};

/** OAuth 2.0 (authorization code with PKCE) at /oauth, and invitation pages at /account. */
export function oauthRoutes(deps: OAuthRoutesDependencies): Hono {
  const routes = new Hono();
  const limit = bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.text('Request body too large', 413) });
  routes.use('/oauth/*', pageSecurityHeaders);
  routes.use('/account/*', pageSecurityHeaders);
  routes.get('/oauth/authorize', authorizationPage(deps));
  routes.post('/oauth/authorize', limit, authorizationDecision(deps));
  routes.post('/oauth/token', limit, tokenEndpoint(deps));
  routes.get('/account/invitations/:token', invitationForm(deps));
  routes.post('/account/invitations/:token', limit, invitationAcceptance(deps));
  return routes;
}
