import type { Task } from 'graphile-worker';
import type postgres from 'postgres';
import { orgScopedTransaction } from '../tenancy/index.js';

export const PURGE_TASK = 'purge_bulk_upserts';

/** SPEC.md's limits: upsert batch data is kept 30 days; other batches are kept. */
export const UPSERT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Idempotency keys answer for 24 hours; older ones are forgotten. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Items deleted per transaction: a batch can hold hundreds of thousands. */
const ITEMS_PER_STEP = 10_000;
const BATCHES_PER_STEP = 100;

const UPSERT_ACTIONS = ['bulkUpsert', 'customObjectBulkUpsert'];

/**
 * Deletes bulk upsert batches created more than 30 days ago, with their items, and
 * idempotency keys past their 24 hours. Per org (row-level security shows a transaction one
 * org's rows) and in bounded steps, so no transaction holds millions of row locks. Runs daily
 * from the crontab; any run after a missed one catches up.
 */
export function purgeBulkUpsertsTask(deps: { sql: postgres.Sql; clock: () => Date }): Task {
  return async () => {
    const now = deps.clock().getTime();
    const batchCutoff = new Date(now - UPSERT_RETENTION_MS).toISOString();
    const keyCutoff = new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString();
    const orgs = await deps.sql<{ id: number }[]>`select id from cadence_system.orgs`;
    for (const { id: orgId } of orgs) {
      await orgScopedTransaction(deps.sql, orgId, (tx) => tx`delete from bulk_idempotency_keys where org_id = ${orgId} and created_at <= ${keyCutoff}`);
      for (;;) {
        const expired = await orgScopedTransaction(
          deps.sql,
          orgId,
          (tx) =>
            tx<{ id: number }[]>`
            select id from batches
             where org_id = ${orgId} and action in ${tx(UPSERT_ACTIONS)} and created_at < ${batchCutoff}
             order by id limit ${BATCHES_PER_STEP}`,
        );
        for (const { id } of expired) await purgeBatch(deps.sql, orgId, id);
        if (expired.length < BATCHES_PER_STEP) break;
      }
    }
  };
}

async function purgeBatch(sql: postgres.Sql, orgId: number, batchId: number): Promise<void> {
  for (;;) {
    const deleted = await orgScopedTransaction(
      sql,
      orgId,
      (tx) =>
        tx`
        delete from batch_items
         where org_id = ${orgId}
           and id in (select id from batch_items where org_id = ${orgId} and batch_id = ${batchId} limit ${ITEMS_PER_STEP})`,
    );
    if (deleted.count < ITEMS_PER_STEP) break;
  }
  // Its idempotency key, if any, goes with it (on delete cascade).
  await orgScopedTransaction(sql, orgId, (tx) => tx`delete from batches where org_id = ${orgId} and id = ${batchId}`);
}
