import type postgres from 'postgres';
import { requireOrg } from '../operator/index.js';
import { CredentialProblem, storeCredentials, userEmail } from './credentials.js';

/** The operator's way to set a user's password (`cadence user set-password`). */
export async function setPassword(
  sql: postgres.Sql,
  options: { orgId: number; userId: number; password: string; login?: string },
): Promise<{ orgId: number; userId: number; login: string }> {
  return sql.begin(async (tx) => {
    await requireOrg(tx, options.orgId);
    const email = await userEmail(tx, options.orgId, options.userId);
    if (email === undefined) throw new CredentialProblem(`user ${options.userId} does not exist in org ${options.orgId}`);
    const login = options.login ?? email;
    if (!login) throw new CredentialProblem(`user ${options.userId} has no e-mail address; pass --login`);
    await storeCredentials(tx, { orgId: options.orgId, userId: options.userId, login, password: options.password });
    return { orgId: options.orgId, userId: options.userId, login: login.trim() };
  });
}
