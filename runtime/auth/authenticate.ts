import type { MiddlewareHandler } from 'hono';
import type postgres from 'postgres';
import { unauthorized } from '../jsonapi/index.js';
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
  expired: boolean;
  org_usable: boolean;
  admin: boolean;
}

/** The bearer token of a request, if it carries one. */
export function bearerToken(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

/**
 * Looks a bearer token up by its hash over the owner connection (tokens sit outside row-level
 * security, since the org is not known yet). Returns who it acts for, or why it is refused.
 */
export async function lookupToken(sql: postgres.Sql, token: string): Promise<AuthContext | { refused: string }> {
  const [row] = await sql<TokenRow[]>`
    select t.org_id, t.user_id, t.app_guid, app.created_at as app_created_at, app.name as app_name,
           t.scopes, t.expires_at <= now() as expired,
           (o.locked_at is null and o.deleted_at is null) as org_usable,
           exists (select 1 from cadence_system.org_admins a where a.org_id = t.org_id and a.user_id = t.user_id) as admin
      from cadence_system.access_tokens t
      join cadence_system.orgs o on o.id = t.org_id
      left join cadence_system.apps app on app.guid = t.app_guid
     where t.token_hash = ${hashToken(token)}`;
  if (!row) return { refused: 'The access token is not valid' };
  if (row.expired) return { refused: 'The access token has expired' };
  if (!row.org_usable) return { refused: 'The organisation of this access token is locked or deleted' };
  const app = row.app_guid === null ? {} : { appId: row.app_guid, appName: row.app_name, appRegisteredAt: row.app_created_at };
  return { orgId: row.org_id, userId: row.user_id, admin: row.admin, scopes: new Set(row.scopes), ...app };
}

/**
 * Requires a valid bearer token. Missing, unknown, expired, and tokens of locked or deleted
 * orgs are all 401; the detail says which, never echoing the token.
 */
export function bearerAuthentication(sql: postgres.Sql): MiddlewareHandler<{ Variables: { auth: AuthContext } }> {
  return async function authenticate(c, next) {
    const token = bearerToken(c.req.header('authorization'));
    if (!token) throw unauthorized('An Authorization: Bearer <token> header is required');
    const auth = await lookupToken(sql, token);
    if ('refused' in auth) throw unauthorized(auth.refused);
    c.set('auth', auth);
    await next();
  };
}
