import { randomBytes } from 'node:crypto';
import { actsForAppAlone, authorizingUser } from '../auth/index.js';
import { parseId } from '../jsonapi/index.js';
import type { ResourceBehaviour } from '../engine/index.js';

const REDACTED = '[REDACTED]';

/**
 * A cleanup token names its org (`whc_<orgId>_<random>`), so the cleanup endpoint can find the
 * webhook inside that org's rows, through row-level security like every other request.
 */
export function newCleanupToken(orgId: number): string {
  return `whc_${orgId}_${randomBytes(24).toString('base64url')}`;
}

/** The org a cleanup token names, or undefined when it is not one (an org id past 2^53 included). */
export function orgOfCleanupToken(token: string): number | undefined {
  const match = token.match(/^whc_([1-9][0-9]{0,15})_[A-Za-z0-9_-]{32}$/);
  return match ? parseId(match[1]) : undefined;
}

/** The URL without credentials and query string, which often carry receivers' secrets. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const credentials = parsed.username || parsed.password;
    parsed.username = '';
    parsed.password = '';
    const query = parsed.search !== '';
    parsed.search = '';
    const base = parsed.toString();
    const withQuery = query ? `${base}?${REDACTED}` : base;
    return credentials ? withQuery.replace('://', `://${REDACTED}@`) : withQuery;
  } catch {
    return REDACTED;
  }
}

/**
 * Webhooks: the service issues the cleanup token; secrets never reach events; and what a caller
 * sees depends on who they are. An admin user sees everything; an application sees the full
 * details of the webhooks it created; a regular user gets the secret, the cleanup token and the
 * sensitive parts of the URL redacted.
 */
export const webhookBehaviour: ResourceBehaviour = {
  sensitiveAttributes: ['secret', 'cleanupToken'],
  derive(next, previous, { orgId, actor }) {
    // A webhook acts for a user. An app acting alone (server-to-server) must name one as the
    // authorizer (422 otherwise); a user's own token authorizes it by default; the service
    // itself (CLI, jobs) changes webhooks without one.
    const named = next.authorizer as number | null;
    if (actsForAppAlone(actor) && named == null) authorizingUser(actor, named, '/data/relationships/authorizer');
    if (previous) return {};
    return {
      cleanupToken: newCleanupToken(orgId),
      creatorAppId: actor.appId,
      creatorAppName: actor.appName,
      authorizer: named ?? actor.userId,
    };
  },
  present(row, viewer) {
    if (viewer.admin && viewer.appId === null) return row;
    if (viewer.appId !== null && row.creatorAppId === viewer.appId) return row;
    return {
      ...row,
      secret: row.secret == null ? null : REDACTED,
      cleanupToken: row.cleanupToken == null ? null : REDACTED,
      url: typeof row.url === 'string' ? redactUrl(row.url) : row.url,
    };
  },
};
