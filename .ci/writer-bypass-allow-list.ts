/**
 * The SQL writes to resources' tables that skip the record writer on purpose, outside
 * runtime/engine/ (test/ci/writer-bypass.test.ts fails on any other, and on an entry here that
 * matches nothing any more). A write here records no event and so reaches no webhook, and runs
 * no behaviour's hook: each entry says why that is right. One entry covers every write of
 * `file` to `table`.
 */

export interface AllowedBypass {
  /** From the repository's root: `runtime/bulk/batch-store.ts`. */
  readonly file: string;
  readonly table: string;
  readonly reason: string;
}

const BATCH_ITEMS_NO_EVENTS = 'batchItem declares no webhook actions, and items are written by the thousand';

export const ALLOWED_WRITER_BYPASSES: readonly AllowedBypass[] = [
  {
    file: 'runtime/admin/org-records.ts',
    table: 'org_settings',
    reason:
      "an org's settings record, made with the org by the admin module before the org has users or webhooks: its id is the org's own (OVERRIDING SYSTEM VALUE), which the writer does not set; the same rows as migration 0034 wrote for earlier orgs",
  },
  {
    file: 'runtime/admin/org-records.ts',
    table: 'task_priorities',
    reason:
      "an org's fixed task priorities, made with the org before it has users or webhooks (taskPriority declares no webhook actions); the same rows as migration 0034 wrote for earlier orgs",
  },
  {
    file: 'runtime/admin/org-records.ts',
    table: 'duties',
    reason:
      "an org's suggested duties, made with the org before it has users or webhooks (duty declares no webhook actions); the same rows as migration 0034 wrote for earlier orgs",
  },
  {
    file: 'runtime/bulk/actions/action-batch.ts',
    table: 'batch_items',
    reason: `${BATCH_ITEMS_NO_EVENTS}: a bulk action's items are copied from its selection by one INSERT … SELECT (up to 100,000 ids never leave PostgreSQL), and skipped by one UPDATE when an unconfirmed batch is canceled`,
  },
  {
    file: 'runtime/bulk/batch-records.ts',
    table: 'batches',
    reason:
      "restamps createdAt/updatedAt with the injectable clock's time right after the writer's create or update, in its transaction: the writer stamps the transaction's time, and batch retention is measured by deps.clock",
  },
  {
    file: 'runtime/bulk/batch-store.ts',
    table: 'batch_items',
    reason: `${BATCH_ITEMS_NO_EVENTS}: the chunk runner's per-item state bookkeeping is one UPDATE … FROM unnest per chunk of a thousand; the writer would lock and re-read each row and record an event per item on the bulk path`,
  },
  {
    file: 'runtime/bulk/batch-store.ts',
    table: 'batches',
    reason:
      "a chunk's progress (pending, failures, summary) while the batch is still pending: bookkeeping every chunk, not a change clients are told of; the batch's finish (finished or failed) goes through the writer (batch-records.ts) and records batch.updated",
  },
  {
    file: 'runtime/bulk/purge-task.ts',
    table: 'batch_items',
    reason: `${BATCH_ITEMS_NO_EVENTS}: the retention purge (SPEC.md "Limits": 30 days) deletes them in steps of a bounded size`,
  },
  {
    file: 'runtime/bulk/purge-task.ts',
    table: 'batches',
    reason:
      'the retention purge of bulk upsert batches after 30 days: data retention, not a client deleting a record, so no batch.destroyed (batch declares no destroyed webhook action)',
  },
  {
    file: 'runtime/compliance/request-rows.ts',
    table: 'compliance_requests',
    reason: "forgets the requester's address once the request is done: an update event would carry the address in its beforeUpdate after the events were scrubbed of it",
  },
  {
    file: 'runtime/compliance/task-rows.ts',
    table: 'compliance_request_tasks',
    reason:
      "the erasure steps' own task queue (claimed with SKIP LOCKED, retried): complianceRequestTask declares no webhook actions, and events of an erasure's steps would record what is being erased",
  },
  {
    file: 'runtime/webhooks/delivery-log.ts',
    table: 'webhook_deliveries',
    reason:
      "the delivery log's bookkeeping: one upsert per delivery set in the worker, never on the API's write path (webhookDelivery declares no webhook actions and records no event, so a `*` webhook never hears of its own deliveries)",
  },
  {
    file: 'runtime/webhooks/purge-task.ts',
    table: 'webhook_deliveries',
    reason: 'the retention purge of the delivery log with the attempts, after 14 days: data retention, not a client deleting a record',
  },
  {
    file: 'runtime/imports/import-store.ts',
    table: 'imports',
    reason:
      "an import's running dupes and failures counters, added to per segment of rows: bookkeeping (import declares only created and finished, both written through the writer by endImport/createImport)",
  },
];
