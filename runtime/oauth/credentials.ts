import type postgres from 'postgres';
import { enterOrg, leaveOrg } from '../tenancy/index.js';
import { hashPassword, passwordProblem, UNKNOWN_LOGIN_HASH, verifyPassword } from './passwords.js';

/**
 * Users' sign-in credentials: setting a password and checking a sign-in. A login is an e-mail
 * address unique across the deployment, so a sign-in names one user in one org.
 */

/** Failed sign-ins in a row before the login is locked, and for how long. */
export const MAX_FAILED_SIGN_INS = 10;
export const SIGN_IN_LOCK_MS = 15 * 60 * 1000;

/** A refusal a person can act on: shown on the invitation page or printed by the CLI. */
export class CredentialProblem extends Error {
  override name = 'CredentialProblem';
}

type Connection = postgres.Sql | postgres.TransactionSql;

/** The e-mail address of a user, read inside its org (users are a tenant table). */
export async function userEmail(tx: postgres.TransactionSql, orgId: number, userId: number): Promise<string | null | undefined> {
  await enterOrg(tx, orgId);
  const [user] = await tx<{ email: string | null }[]>`select email from users where org_id = ${orgId} and id = ${userId}`;
  await leaveOrg(tx);
  return user ? user.email : undefined;
}

/**
 * Sets (or replaces) a user's password and login inside the caller's transaction. Replacing a
 * password also clears a sign-in lock.
 */
export async function storeCredentials(tx: postgres.TransactionSql, credentials: { orgId: number; userId: number; login: string; password: string }): Promise<void> {
  const problem = passwordProblem(credentials.password);
  if (problem) throw new CredentialProblem(problem);
  const login = credentials.login.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(login)) throw new CredentialProblem(`The login must be an e-mail address, not "${login}"`);
  const [taken] = await tx`
    select 1 from cadence_system.user_credentials
     where lower(login) = lower(${login}) and not (org_id = ${credentials.orgId} and user_id = ${credentials.userId})`;
  if (taken) throw new CredentialProblem(`The login ${login} already belongs to another user`);
  const passwordHash = await hashPassword(credentials.password);
  await tx`
    insert into cadence_system.user_credentials (org_id, user_id, login, password_hash)
    values (${credentials.orgId}, ${credentials.userId}, ${login}, ${passwordHash})
    on conflict (org_id, user_id) do update
       set login = excluded.login, password_hash = excluded.password_hash, failed_attempts = 0, locked_until = null, updated_at = now()`;
}

export type SignIn = { orgId: number; userId: number } | { refused: string };

interface CredentialRow {
  org_id: number;
  user_id: number;
  password_hash: string;
  failed_attempts: number;
  locked_until: Date | null;
  org_usable: boolean;
}

const WRONG_CREDENTIALS = 'The e-mail address or the password is not correct';

/**
 * Checks a sign-in. Unknown logins cost as much as known ones and get the same answer; enough
 * failures in a row lock the login for a while, which bounds password guessing.
 */
export async function signIn(sql: Connection, login: string, password: string, now: Date): Promise<SignIn> {
  // No stored login holds NUL (PostgreSQL text cannot), so such a login matches no one.
  if (login.includes('\0')) return { refused: WRONG_CREDENTIALS };
  const [row] = await sql<CredentialRow[]>`
    select c.org_id, c.user_id, c.password_hash, c.failed_attempts, c.locked_until,
           (o.locked_at is null and o.deleted_at is null) as org_usable
      from cadence_system.user_credentials c
      join cadence_system.orgs o on o.id = c.org_id
     where lower(c.login) = lower(${login.trim()})`;
  if (!row) {
    await verifyPassword(password, UNKNOWN_LOGIN_HASH);
    return { refused: WRONG_CREDENTIALS };
  }
  if (row.locked_until && row.locked_until > now) {
    return { refused: 'Too many failed sign-ins: this login is locked for a few minutes' };
  }
  if (!(await verifyPassword(password, row.password_hash))) {
    const failures = row.failed_attempts + 1;
    const lock = failures >= MAX_FAILED_SIGN_INS;
    await sql`
      update cadence_system.user_credentials
         set failed_attempts = ${lock ? 0 : failures}, locked_until = ${lock ? new Date(now.getTime() + SIGN_IN_LOCK_MS) : null}
       where org_id = ${row.org_id} and user_id = ${row.user_id}`;
    return { refused: WRONG_CREDENTIALS };
  }
  if (row.failed_attempts > 0) {
    await sql`update cadence_system.user_credentials set failed_attempts = 0 where org_id = ${row.org_id} and user_id = ${row.user_id}`;
  }
  if (!row.org_usable) return { refused: 'Your organisation is locked or deleted' };
  return { orgId: row.org_id, userId: row.user_id };
}
