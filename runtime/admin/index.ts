import type postgres from 'postgres';
import { descriptors } from '../../generated/resources/index.js';
import { hashToken, newAccessToken } from '../auth/index.js';
import { changesOfAttributes, SERVICE_ACTOR, type RecordWriter } from '../engine/index.js';
import { standardRecordWriter } from '../behaviours/standard-writer.js';
import { enterOrg, leaveOrg, type Transaction } from '../tenancy/index.js';
import { AdminError, knownScopes, requireOrg } from '../operator/index.js';
import { insertOrgRecords } from './org-records.js';

export { AdminError, knownScopes, requireOrg } from '../operator/index.js';
export { listOrgs, listTokens, listUsers, revokeToken, TOKEN_ID_LENGTH, type OrgListing, type TokenListing, type UserListing } from './listings.js';

/**
 * Operator actions the CLI (and tests) perform: creating orgs, users and tokens. Users are
 * created through the engine's write path, so they get the same defaults and events as users
 * created over the API.
 */

const DEFAULT_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
const userDescriptor = descriptors.get('user')!;

/**
 * Operator commands run one at a time, each with the process's clock: the writer is built per
 * command rather than held in module state.
 */
function operatorWriter(): RecordWriter {
  return standardRecordWriter(() => new Date());
}

async function insertUser(tx: Transaction, orgId: number, email: string): Promise<number> {
  await enterOrg(tx, orgId);
  // Isolated, so that what PostgreSQL refuses (an address another user has) comes back as a
  // refusal saying so, like the API's 422, rather than as the database's error.
  const [outcome] = await operatorWriter().write({ tx, orgId, actor: SERVICE_ACTOR, isolated: true }, [
    { kind: 'create', type: 'user', changes: changesOfAttributes(userDescriptor.attributes, { email }) },
  ]);
  await leaveOrg(tx);
  if (outcome!.status !== 'written') throw new AdminError(outcome!.status === 'refused' ? outcome!.error.message : 'the user was not created');
  return Number(outcome!.row.id);
}

async function insertToken(
  tx: Transaction,
  grant: { orgId: number; userId: number | null; scopes: readonly string[]; ttlSeconds: number },
): Promise<{ token: string; expiresAt: string }> {
  const unknown = grant.scopes.filter((s) => !knownScopes().includes(s));
  if (unknown.length) throw new AdminError(`unknown scopes: ${unknown.join(', ')}`);
  if (!Number.isSafeInteger(grant.ttlSeconds) || grant.ttlSeconds <= 0) throw new AdminError('ttl must be a positive number of seconds');
  const token = newAccessToken();
  const [row] = await tx<{ expires_at: string }[]>`
    insert into cadence_system.access_tokens (token_hash, org_id, user_id, scopes, expires_at)
    values (${hashToken(token)}, ${grant.orgId}, ${grant.userId}, ${tx.array([...grant.scopes])}, now() + make_interval(secs => ${grant.ttlSeconds}))
    returning to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at`;
  return { token, expiresAt: row!.expires_at };
}

export interface CreatedOrg {
  orgId: number;
  userId: number;
  token: string;
  expiresAt: string;
}

/** A new org with its standard records (settings, task priorities, duties), its admin user and a token holding every scope. */
export async function createOrg(sql: postgres.Sql, options: { name: string; adminEmail?: string }): Promise<CreatedOrg> {
  if (options.name.trim() === '') throw new AdminError('the org name must not be empty');
  return sql.begin(async (tx) => {
    const [org] = await tx<{ id: number }[]>`insert into cadence_system.orgs (name) values (${options.name}) returning id`;
    const orgId = org!.id;
    await enterOrg(tx, orgId);
    await insertOrgRecords(tx, orgId);
    await leaveOrg(tx);
    const userId = await insertUser(tx, orgId, options.adminEmail ?? `admin@org${orgId}.invalid`);
    await tx`insert into cadence_system.org_admins (org_id, user_id) values (${orgId}, ${userId})`;
    const granted = await insertToken(tx, { orgId, userId, scopes: knownScopes(), ttlSeconds: DEFAULT_TOKEN_TTL_SECONDS });
    return { orgId, userId, ...granted };
  });
}

export async function createUser(sql: postgres.Sql, options: { orgId: number; email: string; admin: boolean }): Promise<{ userId: number }> {
  return sql.begin(async (tx) => {
    await requireOrg(tx, options.orgId);
    const userId = await insertUser(tx, options.orgId, options.email);
    if (options.admin) await tx`insert into cadence_system.org_admins (org_id, user_id) values (${options.orgId}, ${userId})`;
    return { userId };
  });
}

export async function createToken(
  sql: postgres.Sql,
  options: { orgId: number; userId: number; scopes: readonly string[]; ttlSeconds?: number },
): Promise<{ token: string; expiresAt: string }> {
  return sql.begin(async (tx) => {
    await requireOrg(tx, options.orgId);
    await enterOrg(tx, options.orgId);
    const [user] = await tx`select 1 from users where org_id = ${options.orgId} and id = ${options.userId}`;
    await leaveOrg(tx);
    if (!user) throw new AdminError(`user ${options.userId} does not exist in org ${options.orgId}`);
    return insertToken(tx, { ...options, ttlSeconds: options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS });
  });
}
