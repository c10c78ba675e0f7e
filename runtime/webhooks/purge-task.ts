import type { Task } from 'graphile-worker';
import type postgres from 'postgres';
import { orgScopedTransaction } from '../tenancy/index.js';

export const PURGE_WEBHOOK_ATTEMPTS_TASK = 'purge_webhook_attempts';

/** Daily, at night; graphile-worker makes sure one runner in the cluster runs it. */
export const WEBHOOK_CRONTAB = `27 3 * * * ${PURGE_WEBHOOK_ATTEMPTS_TASK}`;

/** Delivery attempts and log records are kept this long: enough to explain a failure, bounded in size. */
const WEBHOOK_ATTEMPT_RETENTION = '14 days';

/**
 * Deletes old delivery attempts, and delivery log records not touched for as long (a record
 * redelivered lately stays), per org, because row-level security shows a transaction one org's
 * rows only.
 */
export function purgeWebhookAttemptsTask(deps: { sql: postgres.Sql }): Task {
  return async () => {
    const orgs = await deps.sql<{ id: number }[]>`select id from cadence_system.orgs`;
    for (const { id } of orgs) {
      await orgScopedTransaction(deps.sql, id, async (tx) => {
        await tx.unsafe(`delete from webhook_attempts where org_id = $1 and created_at < now() - interval '${WEBHOOK_ATTEMPT_RETENTION}'`, [id]);
        await tx.unsafe(`delete from webhook_deliveries where org_id = $1 and updated_at < now() - interval '${WEBHOOK_ATTEMPT_RETENTION}'`, [id]);
      });
    }
  };
}
