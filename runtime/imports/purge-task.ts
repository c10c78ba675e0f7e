import type { Task } from 'graphile-worker';
import type postgres from 'postgres';
import { orgScopedTransaction } from '../tenancy/index.js';

export const UPLOAD_PURGE_TASK = 'purge_uploads';

/** Issue #14: uploads are kept a day; links expire after an hour, so a day leaves time to validate and import. */
export const UPLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Uploads deleted per transaction: each takes its chunks with it, up to 100 MiB. */
const UPLOADS_PER_STEP = 20;

/**
 * Deletes uploads created more than a day ago, with their chunks (on delete cascade). Per org
 * (row-level security shows a transaction one org's rows) and a few uploads per transaction.
 * Runs daily from the crontab; any run after a missed one catches up. An upload an import is
 * still reading (`importing`) is kept until the import ends; what the import made of each row is
 * kept in its batch's items.
 */
export function purgeUploadsTask(deps: { sql: postgres.Sql; clock: () => Date }): Task {
  return async () => {
    const cutoff = new Date(deps.clock().getTime() - UPLOAD_RETENTION_MS).toISOString();
    const orgs = await deps.sql<{ id: number }[]>`select id from cadence_system.orgs`;
    for (const { id: orgId } of orgs) {
      for (;;) {
        const deleted = await orgScopedTransaction(
          deps.sql,
          orgId,
          (tx) => tx`
            delete from uploads
             where org_id = ${orgId}
               and storage_key in (select storage_key from uploads
                                   where org_id = ${orgId} and created_at < ${cutoff} and state <> 'importing'
                                   limit ${UPLOADS_PER_STEP})`,
        );
        if (deleted.count < UPLOADS_PER_STEP) break;
      }
    }
  };
}
