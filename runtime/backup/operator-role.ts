import type postgres from 'postgres';
import { AdminError } from '../operator/index.js';

/**
 * Copies must see every org's rows. Tenant tables force row-level security even on their owner,
 * so the connection needs a role that bypasses it (a superuser, as the embedded server's is, or
 * BYPASSRLS). `row_security = off` makes PostgreSQL raise an error rather than quietly filter
 * rows should a policy apply after all, so a copy is never silently short.
 */
export async function bypassRowSecurity(tx: postgres.TransactionSql): Promise<void> {
  const [role] = await tx<{ bypasses: boolean; name: string }[]>`
    select rolsuper or rolbypassrls as bypasses, rolname as name from pg_roles where rolname = current_user`;
  if (!role!.bypasses)
    throw new AdminError(`the database role ${role!.name} can neither bypass row-level security nor is a superuser; connect as one that can (DATABASE_URL)`);
  await tx`set local row_security = off`;
}

/**
 * Loads without firing triggers or foreign-key checks: the rows were consistent where they came
 * from, and triggers (counters, import keys) would count them a second time. Setting it needs a
 * superuser, or on PostgreSQL 15 and later a role granted SET on session_replication_role.
 */
export async function loadWithoutTriggers(tx: postgres.TransactionSql): Promise<void> {
  try {
    await tx`set local session_replication_role = replica`;
  } catch (error) {
    throw new AdminError(
      `loading needs session_replication_role = replica, which this database role may not set (${(error as Error).message}); connect as a superuser or GRANT SET ON PARAMETER session_replication_role to it`,
    );
  }
}
