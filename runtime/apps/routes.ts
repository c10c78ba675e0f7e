import { Hono } from 'hono';
import type postgres from 'postgres';
import { issueAccessToken } from './access-token-action.js';
import { redeemSetupToken } from './setup-token-action.js';

export interface AppRoutesDependencies {
  readonly sql: postgres.Sql;
  /** `https://api.example.com` when configured; otherwise each request's origin. */
  readonly publicBaseUrl: string | undefined;
  /** The current time; injectable so token windows can be tested. */
  readonly clock: () => Date;
}

/** SPEC.md's server-to-server install endpoints, mounted at /api/app. Every one takes an app token. */
export function appInstallRoutes(deps: AppRoutesDependencies): Hono {
  const routes = new Hono();
  routes.post('/installs/:installSetupToken/actions/setupToken', redeemSetupToken(deps));
  routes.post('/installs/:installId/actions/accessToken', issueAccessToken(deps));
  return routes;
}
