import type postgres from 'postgres';
import { AdminError } from '../operator/index.js';
import { enqueueOrgDeleted } from './lifecycle.js';

/**
 * Locking and deleting orgs. Either makes every access token of the org fail (see
 * lookupToken) and apps' access-token requests fail; a locked org can be unlocked, a deleted
 * one stays deleted (its rows are kept). Deletion is announced to the lifecycle webhooks of
 * the apps installed in the org; locking is not (SPEC.md).
 */

export interface OrgStatus {
  orgId: number;
  lockedAt: string | null;
  deletedAt: string | null;
}

interface OrgRow {
  id: number;
  locked_at: Date | null;
  deleted_at: Date | null;
}

function statusOf(row: OrgRow | undefined, orgId: number): OrgStatus {
  if (!row) throw new AdminError(`org ${orgId} does not exist`);
  return { orgId: row.id, lockedAt: row.locked_at?.toISOString() ?? null, deletedAt: row.deleted_at?.toISOString() ?? null };
}

export async function lockOrg(sql: postgres.Sql, orgId: number): Promise<OrgStatus> {
  const [row] = await sql<OrgRow[]>`
    update cadence_system.orgs set locked_at = coalesce(locked_at, now()) where id = ${orgId} and deleted_at is null
    returning id, locked_at, deleted_at`;
  return statusOf(row, orgId);
}

export async function unlockOrg(sql: postgres.Sql, orgId: number): Promise<OrgStatus> {
  const [row] = await sql<OrgRow[]>`
    update cadence_system.orgs set locked_at = null where id = ${orgId} and deleted_at is null
    returning id, locked_at, deleted_at`;
  return statusOf(row, orgId);
}

/** Deleting a deleted org again changes nothing and announces nothing. */
export async function deleteOrg(sql: postgres.Sql, orgId: number): Promise<OrgStatus> {
  return sql.begin<OrgStatus>(async (tx) => {
    const [deleted] = await tx<OrgRow[]>`
      update cadence_system.orgs set deleted_at = now() where id = ${orgId} and deleted_at is null
      returning id, locked_at, deleted_at`;
    if (deleted) {
      await enqueueOrgDeleted(tx, orgId, deleted.deleted_at!);
      return statusOf(deleted, orgId);
    }
    const [row] = await tx<OrgRow[]>`select id, locked_at, deleted_at from cadence_system.orgs where id = ${orgId}`;
    return statusOf(row, orgId);
  });
}
