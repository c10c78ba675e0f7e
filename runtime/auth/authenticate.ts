import type { MiddlewareHandler } from 'hono';
import type postgres from 'postgres';
import { unauthorized } from '../jsonapi/index.js';
import { confirmedAuth, TokenRecheck, type AuthEnv } from './recheck.js';
import type { TokenCache } from './token-cache.js';
import { hashToken } from './tokens.js';

/** Who is calling: attached to every authenticated request. */
export interface AuthContext {
  readonly orgId: number;
  /** Null for tokens that act for an application alone. */
  readonly userId: number | null;
  readonly admin: boolean;
  readonly scopes: ReadonlySet<string>;
  /** When the token's app was registered; absent for user tokens. */
  readonly appRegisteredAt?: Date | null;
  /** The application acting, for server-to-server tokens (`userId` is then null); absent for users. */
  readonly appId?: string | null;
  /** The acting application's name (a webhook's creatorAppName); absent for users. */
  readonly appName?: string | null;
}

interface TokenRow {
  org_id: number;
  user_id: number | null;
  app_guid: string | null;
  app_created_at: Date | null;
  app_name: string | null;
  scopes: string[];
  expires_at: Date;
  expired: boolean;
  org_usable: boolean;
  admin: boolean;
}

/** The bearer token of a request, if it carries one. */
export function bearerToken(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

/** Who a token acts for and until when, or why it is refused. */
type TokenLookup = { auth: AuthContext; expiresAt: Date } | { refused: string };

/**
 * Looks a token up by its hash over the owner connection (tokens sit outside row-level
 * security, since the org is not known yet).
 */
async function lookupTokenHash(sql: postgres.Sql, tokenHash: string): Promise<TokenLookup> {
  const [row] = await sql<TokenRow[]>`
    select t.org_id, t.user_id, t.app_guid, app.created_at as app_created_at, app.name as app_name,
           t.scopes, t.expires_at, t.expires_at <= now() as expired,
           (o.locked_at is null and o.deleted_at is null) as org_usable,
           exists (select 1 from cadence_system.org_admins a where a.org_id = t.org_id and a.user_id = t.user_id) as admin
      from cadence_system.access_tokens t
      join cadence_system.orgs o on o.id = t.org_id
      left join cadence_system.apps app on app.guid = t.app_guid
     where t.token_hash = ${tokenHash}`;
  if (!row) return { refused: 'The access token is not valid' };
  if (row.expired) return { refused: 'The access token has expired' };
  if (!row.org_usable) return { refused: 'The organisation of this access token is locked or deleted' };
  const app = row.app_guid === null ? {} : { appId: row.app_guid, appName: row.app_name, appRegisteredAt: row.app_created_at };
  return { auth: { orgId: row.org_id, userId: row.user_id, admin: row.admin, scopes: new Set(row.scopes), ...app }, expiresAt: new Date(row.expires_at) };
}

/** Looks a bearer token up: who it acts for, or why it is refused. */
export async function lookupToken(sql: postgres.Sql, token: string): Promise<AuthContext | { refused: string }> {
  const found = await lookupTokenHash(sql, hashToken(token));
  return 'refused' in found ? found : found.auth;
}

/** Methods whose routes change nothing, so a late refusal can still replace their answer. */
const READ_METHODS = new Set(['GET', 'HEAD']);

export interface BearerAuthenticationOptions {
  /** Serves reads' tokens from this cache, rechecked in their transaction; none: every request looks its token up. */
  readonly cache?: TokenCache;
}

/**
 * Requires a valid bearer token. Missing, unknown, expired, and tokens of locked or deleted
 * orgs are all 401; the detail says which, never echoing the token.
 *
 * With a cache, a read whose token is cached skips the lookup: `auth` is what the cache holds and
 * `tokenRecheck` carries it to the org-scoped transaction, whose opening statement rechecks it
 * (see recheck.ts). A route that answers without such a transaction (a 404 for an unknown path,
 * say) has its token looked up afresh after it ran, and a refused token still gets its 401.
 * Writes always look their token up first: a write done before a late refusal could not be undone.
 */
export function bearerAuthentication(sql: postgres.Sql, options: BearerAuthenticationOptions = {}): MiddlewareHandler<AuthEnv> {
  const { cache } = options;
  const lookUp = async (tokenHash: string): Promise<AuthContext> => {
    const found = await lookupTokenHash(sql, tokenHash);
    if ('refused' in found) {
      cache?.delete(tokenHash);
      throw unauthorized(found.refused);
    }
    cache?.set(tokenHash, found.auth, found.expiresAt);
    return found.auth;
  };
  return async function authenticate(c, next) {
    const token = bearerToken(c.req.header('authorization'));
    if (!token) throw unauthorized('An Authorization: Bearer <token> header is required');
    const tokenHash = hashToken(token);
    const cached = cache && READ_METHODS.has(c.req.method) ? cache.get(tokenHash) : undefined;
    if (!cached) {
      c.set('auth', await lookUp(tokenHash));
      await next();
      return;
    }
    const recheck = new TokenRecheck(tokenHash, cached, () => lookUp(tokenHash));
    c.set('auth', cached);
    c.set('tokenRecheck', recheck);
    await next();
    if (!recheck.confirmed) await confirmedAuth(c);
  };
}
