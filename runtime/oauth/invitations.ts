import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { hashToken } from '../auth/index.js';
import { CredentialProblem, storeCredentials, userEmail } from './credentials.js';

/**
 * Invitations: a one-time link with which a user sets a password (and so can sign in to
 * authorize apps). Operators create them with `cadence user invite`; the link opens
 * /account/invitations/<token>.
 */

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface IssuedInvitation {
  /** Shown once; only its SHA-256 is stored. */
  token: string;
  login: string;
  expiresAt: string;
}

/** Issues an invitation for an existing user, who signs in with their e-mail address. */
export async function inviteUser(sql: postgres.Sql, options: { orgId: number; userId: number; now?: Date }): Promise<IssuedInvitation> {
  const now = options.now ?? new Date();
  const token = `inv_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  return sql.begin(async (tx) => {
    const email = await userEmail(tx, options.orgId, options.userId);
    if (email === undefined) throw new CredentialProblem(`user ${options.userId} does not exist in org ${options.orgId}`);
    if (!email) throw new CredentialProblem(`user ${options.userId} has no e-mail address to sign in with`);
    await tx`
      insert into cadence_system.user_invitations (token_hash, org_id, user_id, expires_at)
      values (${hashToken(token)}, ${options.orgId}, ${options.userId}, ${expiresAt})`;
    return { token, login: email, expiresAt: expiresAt.toISOString() };
  });
}

export interface OpenInvitation {
  orgId: number;
  userId: number;
  login: string;
}

/**
 * The invitation a token names while it can still be used, with the login it sets up;
 * otherwise a reason. `lock` holds the invitation until the transaction ends.
 */
export async function openInvitation(tx: postgres.TransactionSql, token: string, now: Date, lock = false): Promise<OpenInvitation | { refused: string }> {
  const [row] = await tx<{ org_id: number; user_id: number; expires_at: Date; used_at: Date | null }[]>`
    select org_id, user_id, expires_at, used_at from cadence_system.user_invitations
     where token_hash = ${hashToken(token)} ${lock ? tx`for update` : tx``}`;
  if (!row) return { refused: 'This invitation link is not valid' };
  if (row.used_at) return { refused: 'This invitation has already been used' };
  if (row.expires_at <= now) return { refused: 'This invitation has expired; ask for a new one' };
  const login = await userEmail(tx, row.org_id, row.user_id);
  if (!login) return { refused: 'This user has no e-mail address to sign in with' };
  return { orgId: row.org_id, userId: row.user_id, login };
}

/** Sets the invited user's password and uses the invitation up, in one transaction. */
export async function acceptInvitation(sql: postgres.Sql, token: string, password: string, now: Date): Promise<{ login: string }> {
  return sql.begin(async (tx) => {
    const invitation = await openInvitation(tx, token, now, true);
    if ('refused' in invitation) throw new CredentialProblem(invitation.refused);
    await storeCredentials(tx, { ...invitation, password });
    await tx`update cadence_system.user_invitations set used_at = ${now} where token_hash = ${hashToken(token)}`;
    return { login: invitation.login };
  });
}
