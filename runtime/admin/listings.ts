import type postgres from 'postgres';
import { enterOrg, leaveOrg } from '../tenancy/index.js';
import { AdminError, requireOrg } from '../operator/index.js';

/**
 * What `cadence org list`, `user list` and `token list|revoke` print and change: the operator's
 * view of orgs, users and access tokens. Tokens are stored only as hashes, so a token is named
 * by the start of its hash (its token id), which identifies it without being a credential.
 */

/** Hex digits of the token hash that name a token: 64 bits, unique among any org's tokens in practice. */
export const TOKEN_ID_LENGTH = 16;

export interface OrgListing {
  orgId: number;
  name: string;
  locked: boolean;
  lockedAt: string | null;
  deletedAt: string | null;
  createdAt: string;
}

export interface UserListing {
  userId: number;
  email: string;
  name: string | null;
  admin: boolean;
  locked: boolean;
  createdAt: string;
}

export interface TokenListing {
  tokenId: string;
  /** Null for a token that acts for an application alone (server-to-server). */
  userId: number | null;
  /** The app a server-to-server or OAuth token was issued to; null for tokens the CLI made. */
  appId: string | null;
  /** Whether an OAuth grant issued it (its refresh token can issue another). */
  oauth: boolean;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

export async function listOrgs(sql: postgres.Sql): Promise<OrgListing[]> {
  const rows = await sql<{ id: number; name: string; locked_at: Date | null; deleted_at: Date | null; created_at: Date }[]>`
    select id, name, locked_at, deleted_at, created_at from cadence_system.orgs order by id`;
  return rows.map((row) => ({
    orgId: row.id,
    name: row.name,
    locked: row.locked_at !== null,
    lockedAt: iso(row.locked_at),
    deletedAt: iso(row.deleted_at),
    createdAt: row.created_at.toISOString(),
  }));
}

export async function listUsers(sql: postgres.Sql, orgId: number): Promise<UserListing[]> {
  return sql.begin(async (tx) => {
    await requireOrg(tx, orgId);
    const admins = new Set((await tx<{ user_id: number }[]>`select user_id from cadence_system.org_admins where org_id = ${orgId}`).map((r) => r.user_id));
    await enterOrg(tx, orgId);
    const rows = await tx<{ id: number; email: string; name: string | null; locked: boolean | null; created_at: Date }[]>`
      select id, email, name, locked, created_at from users where org_id = ${orgId} order by id`;
    await leaveOrg(tx);
    return rows.map((row) => ({
      userId: row.id,
      email: row.email,
      name: row.name,
      admin: admins.has(row.id),
      locked: row.locked ?? false,
      createdAt: row.created_at.toISOString(),
    }));
  });
}

interface TokenRow {
  token_id: string;
  user_id: number | null;
  app_guid: string | null;
  grant_id: string | null;
  scopes: string[];
  created_at: Date;
  expires_at: Date;
  expired: boolean;
}

function tokenListing(row: TokenRow): TokenListing {
  return {
    tokenId: row.token_id,
    userId: row.user_id,
    appId: row.app_guid,
    oauth: row.grant_id !== null,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    expired: row.expired,
  };
}

/** Every access token of the org, newest first; never the token, which is not stored. */
export async function listTokens(sql: postgres.Sql, orgId: number): Promise<TokenListing[]> {
  return sql.begin(async (tx) => {
    await requireOrg(tx, orgId);
    const rows = await tx<TokenRow[]>`
      select left(token_hash, ${TOKEN_ID_LENGTH}) as token_id, user_id, app_guid, grant_id, scopes, created_at, expires_at, expires_at <= now() as expired
      from cadence_system.access_tokens where org_id = ${orgId} order by created_at desc, token_hash`;
    return rows.map(tokenListing);
  });
}

/**
 * Deletes the token: its next request is answered 401 by every server process, cached or not
 * (runtime/auth/recheck.ts). An OAuth token's grant is revoked with it, as the grant's own
 * revocation does (runtime/oauth/grants.ts), or its refresh token would issue the app another.
 */
export async function revokeToken(sql: postgres.Sql, orgId: number, tokenId: string): Promise<{ revoked: TokenListing }> {
  return sql.begin(async (tx) => {
    await requireOrg(tx, orgId);
    const rows = await tx<TokenRow[]>`
      delete from cadence_system.access_tokens where org_id = ${orgId} and left(token_hash, ${TOKEN_ID_LENGTH}) = ${tokenId}
      returning left(token_hash, ${TOKEN_ID_LENGTH}) as token_id, user_id, app_guid, grant_id, scopes, created_at, expires_at, expires_at <= now() as expired`;
    if (rows.length === 0) throw new AdminError(`org ${orgId} has no token ${tokenId} (cadence token list --org ${orgId} names them)`);
    // Sixteen hex digits of SHA-256 do not collide among an org's tokens; should they, nothing is deleted.
    if (rows.length > 1) throw new AdminError(`token id ${tokenId} names ${rows.length} tokens of org ${orgId}; none was revoked`);
    const revoked = rows[0]!;
    if (revoked.grant_id !== null) {
      await tx`update cadence_system.oauth_grants set revoked_at = coalesce(revoked_at, now()) where id = ${revoked.grant_id}`;
      await tx`delete from cadence_system.access_tokens where grant_id = ${revoked.grant_id}`;
    }
    return { revoked: tokenListing(revoked) };
  });
}
