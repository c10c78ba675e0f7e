import type { Handler } from 'hono';
import { hashToken, newAccessToken } from '../auth/index.js';
import { jsonApi, resourceNotFound } from '../jsonapi/index.js';
import { appTokenOf } from './app-token-header.js';
import { verifyAppToken } from './app-token.js';
import { refuseUnusableInstall } from './install-refusals.js';
import { findInstall, type InstallState } from './installs.js';
import type { AppRoutesDependencies } from './routes.js';
import { installResource } from './setup-token-action.js';

/** SPEC.md: an S2S access token is valid for one hour and is not refreshed. */
export const S2S_ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * POST /api/app/installs/:installId/actions/accessToken: a new access token for the install's
 * org, acting for the app alone (no user) with the app's S2S scopes. The install row is locked
 * while the token is written, so a concurrent uninstall (which deletes the app's tokens) either
 * sees the new token or makes this request fail. The answer is the `install` resource, as the
 * real service's clients read `data.relationships.org.data.id` from it, with the token in meta.
 */
export function issueAccessToken(deps: AppRoutesDependencies): Handler {
  return async function accessToken(c) {
    const now = deps.clock();
    const app = await verifyAppToken(deps.sql, appTokenOf(c), now);
    const token = newAccessToken();
    const expiresAt = new Date(now.getTime() + S2S_ACCESS_TOKEN_TTL_MS);
    const install: InstallState = await deps.sql.begin(async (tx) => {
      const found = await findInstall(tx, { id: c.req.param('installId') ?? '' }, true);
      if (!found || found.appId !== app.appId) throw resourceNotFound('This app has no install with this id');
      refuseUnusableInstall(found, { lockedOrgs: true });
      await tx`
        insert into cadence_system.access_tokens (token_hash, org_id, user_id, app_guid, scopes, expires_at)
        values (${hashToken(token)}, ${found.orgId}, null, ${app.appId}, ${tx.array([...app.s2sScopes])}, ${expiresAt})`;
      return found;
    });
    const resource = installResource(install, `${deps.publicBaseUrl ?? new URL(c.req.url).origin}/api/v2`);
    return jsonApi(c, 200, { data: { ...resource, meta: { accessToken: token, expiresAt: expiresAt.toISOString() } } });
  };
}
