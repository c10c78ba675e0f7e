import type { Handler } from 'hono';
import { hashToken, newAccessToken } from '../auth/index.js';
import { jsonApi, resourceNotFound } from '../jsonapi/index.js';
import { appTokenOf } from './app-token-header.js';
import { verifyAppToken } from './app-token.js';
import { refuseUnusableInstall } from './install-refusals.js';
import { findInstall } from './installs.js';
import type { AppRoutesDependencies } from './routes.js';

/** SPEC.md: an S2S access token is valid for one hour and is not refreshed. */
export const S2S_ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * POST /api/app/installs/:installId/actions/accessToken: a new access token for the install's
 * org, acting for the app alone (no user) with the app's S2S scopes. The install row is locked
 * while the token is written, so a concurrent uninstall (which deletes the app's tokens) either
 * sees the new token or makes this request fail.
 */
export function issueAccessToken(deps: AppRoutesDependencies): Handler {
  return async function accessToken(c) {
    const now = deps.clock();
    const app = await verifyAppToken(deps.sql, appTokenOf(c), now);
    const token = newAccessToken();
    const expiresAt = new Date(now.getTime() + S2S_ACCESS_TOKEN_TTL_MS);
    await deps.sql.begin(async (tx) => {
      const install = await findInstall(tx, { id: c.req.param('installId') ?? '' }, true);
      if (!install || install.appId !== app.appId) throw resourceNotFound('This app has no install with this id');
      refuseUnusableInstall(install, { lockedOrgs: true });
      await tx`
        insert into cadence_system.access_tokens (token_hash, org_id, user_id, app_guid, scopes, expires_at)
        values (${hashToken(token)}, ${install.orgId}, null, ${app.appId}, ${tx.array([...app.s2sScopes])}, ${expiresAt})`;
    });
    // The id is the token's SHA-256, the key it is stored under: it names the token without revealing it.
    return jsonApi(c, 200, {
      data: { type: 'accessToken', id: hashToken(token), attributes: { expiresAt: expiresAt.toISOString() }, meta: { accessToken: token } },
    });
  };
}
