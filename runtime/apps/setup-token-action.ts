import type { Handler } from 'hono';
import { gone, jsonApi, resourceNotFound } from '../jsonapi/index.js';
import { appTokenOf } from './app-token-header.js';
import { verifyAppToken } from './app-token.js';
import { refuseUnusableInstall } from './install-refusals.js';
import { findInstall, type InstallState } from './installs.js';
import type { AppRoutesDependencies } from './routes.js';

/** SPEC.md's `install` resource; the org links to the base of its API. */
export function installResource(install: InstallState, apiBase: string) {
  return {
    type: 'install',
    id: install.id,
    attributes: { installedAt: install.installedAt.toISOString() },
    relationships: {
      app: { data: { type: 'app', id: install.appId } },
      org: { data: { type: 'org', id: String(install.orgId) }, links: { api: apiBase } },
    },
  };
}

/**
 * POST /api/app/installs/:installSetupToken/actions/setupToken: the app trades the setup token
 * it was sent for its install. A token of another app's install is not found (404), as if it
 * did not exist; one issued more than 15 minutes ago is gone (410). It may be redeemed again
 * within its window, so an app can retry after a lost response.
 */
export function redeemSetupToken(deps: AppRoutesDependencies): Handler {
  return async function setupToken(c) {
    const now = deps.clock();
    const app = await verifyAppToken(deps.sql, appTokenOf(c), now);
    const install = await findInstall(deps.sql, { setupToken: c.req.param('installSetupToken') ?? '' });
    if (!install || install.appId !== app.appId) throw resourceNotFound('No install of this app has this setup token');
    if (!install.setupTokenExpiresAt || install.setupTokenExpiresAt <= now) {
      throw gone('setupTokenExpired', 'The install setup token has expired: it must be used within 15 minutes of being issued. Install the app again for a new one');
    }
    refuseUnusableInstall(install, { lockedOrgs: false });
    return jsonApi(c, 200, { data: installResource(install, `${deps.publicBaseUrl ?? new URL(c.req.url).origin}/api/v2`) });
  };
}
