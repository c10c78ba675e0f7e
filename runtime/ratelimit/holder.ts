import { actsForAppAlone, type AuthContext } from '../auth/index.js';

/** Whose requests are counted together: one user of one org, or one application acting alone in one org. */
export interface HolderKey {
  readonly orgId: number;
  /** `user:<id>` or `app:<guid>`, as stored in request_counts.holder. */
  readonly holder: string;
}

/**
 * A token's holder. An OAuth token acts for its user (and its app): it counts as the user's, like
 * the user's own tokens, so an app cannot get a user more requests than the user has. A
 * server-to-server token acts for its app alone and counts as the app's, in that org.
 */
export function holderOf(auth: Pick<AuthContext, 'orgId' | 'userId' | 'appId'>): HolderKey {
  if (actsForAppAlone(auth)) return { orgId: auth.orgId, holder: `app:${auth.appId}` };
  return { orgId: auth.orgId, holder: `user:${auth.userId}` };
}
