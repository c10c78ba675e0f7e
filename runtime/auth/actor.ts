import { validationError } from '../jsonapi/index.js';
import type { AuthContext } from './authenticate.js';

/** Whether a token acts for an application alone (server-to-server): an app and no user. */
export function actsForAppAlone(auth: Pick<AuthContext, 'userId' | 'appId'>): boolean {
  return auth.userId === null && auth.appId != null;
}

/**
 * The user a write is made on behalf of, for writes that need one (a webhook's `authorizer`).
 * A user's token acts for its user unless the request names another; a server-to-server token
 * has no user, so the request must name one, else a 422 pointing at `pointer`.
 */
export function authorizingUser(auth: Pick<AuthContext, 'userId' | 'appId'>, named: number | null | undefined, pointer: string): number {
  if (named != null) return named;
  if (auth.userId !== null) return auth.userId;
  throw validationError([{ pointer, detail: 'A server-to-server token acts for no user: this write must name the authorizing user (a user of the organisation)' }]);
}
