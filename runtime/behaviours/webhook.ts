import { actsForAppAlone, authorizingUser } from '../auth/index.js';
import type { RecordLookup, ResourceBehaviour } from '../engine/index.js';
import type { FieldError } from '../jsonapi/index.js';
import { newCleanupToken } from '../webhooks/cleanup-token.js';
import { GENERIC_ACTIONS } from '../webhooks/matching.js';

const REDACTED = '[REDACTED]';

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

const list = (actions: Iterable<string>) => ['*', ...actions].map((a) => JSON.stringify(a)).join(', ');

/**
 * A subscription must be one that can fire (SPEC.md's subscription table, from the resources'
 * webhook actions): `*` or a resource that emits webhooks, and `*` or one of its actions.
 */
async function subscriptionProblems(given: { resource: unknown; action: unknown }, records: RecordLookup): Promise<FieldError[]> {
  // Omitted, both default to `*`; null would match nothing, ever.
  const { resource = '*', action = '*' } = given;
  if (resource === null) return [{ pointer: '/data/attributes/resource', detail: 'resource must be a resource type or *, not null' }];
  if (action === null) return [{ pointer: '/data/attributes/action', detail: 'action must be an action or *, not null' }];
  // Mistyped values are the body validator's to report.
  if (typeof resource !== 'string' || typeof action !== 'string') return [];
  const actions = resource === '*' ? [...GENERIC_ACTIONS] : await records.webhookActions(resource);
  if (!actions?.length) return [{ pointer: '/data/attributes/resource', detail: `${JSON.stringify(resource)} is not a resource webhooks can watch` }];
  if (action !== '*' && !actions.includes(action)) {
    return [{ pointer: '/data/attributes/action', detail: `${resource} has no webhook action ${JSON.stringify(action)}; it has ${list(actions)}` }];
  }
  return [];
}

/**
 * Webhooks: the service issues the cleanup token; secrets never reach events; and what a caller
 * sees depends on who they are. An admin user sees everything; an application sees the full
 * details of the webhooks it created; a regular user gets the secret, the cleanup token and the
 * sensitive parts of the URL redacted.
 */
export const webhookBehaviour: ResourceBehaviour = {
  sensitiveAttributes: ['secret', 'cleanupToken'],
  derives: ['cleanupToken', 'creatorAppId', 'creatorAppName', 'authorizer'],
  async check(next, previous, records) {
    if (previous && next.resource === previous.resource && next.action === previous.action) return [];
    return subscriptionProblems({ resource: next.resource, action: next.action }, records);
  },
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
    // SPEC.md: a webhook is inactive while it is disabled, whatever its own flag says.
    const disabled = typeof row.disabledUntil === 'string' && Date.parse(row.disabledUntil) > viewer.now.getTime();
    const shown = disabled ? { ...row, active: false } : row;
    if (viewer.admin && viewer.appId === null) return shown;
    if (viewer.appId !== null && row.creatorAppId === viewer.appId) return shown;
    return {
      ...shown,
      secret: row.secret == null ? null : REDACTED,
      // The creator gets the cleanup token with the create response (SPEC.md), and never again.
      cleanupToken: row.cleanupToken == null || viewer.creating ? (row.cleanupToken ?? null) : REDACTED,
      url: typeof row.url === 'string' ? redactUrl(row.url) : row.url,
    };
  },
};
