import type { Actor, RecordWriter } from '../engine/index.js';
import type { ErrorObject } from '../jsonapi/index.js';
import { enqueueJobs, type JobSpec } from '../jobs/enqueue.js';
import type { Transaction } from '../tenancy/index.js';
import type { DupeMethod, UpsertAction } from './upsert-request.js';
import { createBatchRecord, updateBatchRecord } from './batch-records.js';

/**
 * Batches and batch items of bulk upserts, in SQL: creating a batch with its items and chunk
 * jobs, and recording what a chunk did. Every function runs in the caller's org-scoped
 * transaction; the batch row's counters change only together with the items they count.
 */

export const CHUNK_TASK = 'bulk_upsert_chunk';

/** Records per chunk job: one record-writer call, one transaction. */
export const CHUNK_SIZE = 1000;

/**
 * Attempts of a chunk job before its batch fails. A worker killed mid-chunk costs one (the
 * chunk's transaction rolls back and another worker runs it again); so does a deadlock.
 */
export const CHUNK_MAX_ATTEMPTS = 8;

export type ItemState = 'pending' | 'success' | 'skipped' | 'error';

/** One item as the request creates it: still to be written, or already final. */
export interface NewItem {
  /** The record as submitted, meta included. */
  readonly data: string;
  readonly state: ItemState;
  readonly errors?: readonly ErrorObject[];
}

export interface NewBatch {
  readonly orgId: number;
  readonly action: UpsertAction;
  readonly resourceType: string;
  readonly dupeMethod: DupeMethod;
  readonly actor: Actor;
  readonly now: Date;
  readonly items: readonly NewItem[];
}

/** What a chunk job is given: which items of which batch are its own. */
export interface ChunkPayload {
  readonly orgId: number;
  readonly batchId: number;
  readonly firstItemId: number;
  readonly lastItemId: number;
}

const infoOf = (errors: readonly ErrorObject[] | undefined) => (errors ? errors.map((e) => e.detail).join('; ') : null);

/**
 * Inserts the batch and its items, and enqueues one job per chunk of pending items; a batch
 * with nothing left to write is finished at once. Returns the batch id.
 */
export async function createUpsertBatch(tx: Transaction, writer: RecordWriter, batch: NewBatch): Promise<number> {
  const pending = batch.items.filter((i) => i.state === 'pending').length;
  const failures = batch.items.filter((i) => i.state === 'error').length;
  const at = batch.now.toISOString();
  const finished = pending === 0;
  const batchId = await createBatchRecord({ tx, writer, orgId: batch.orgId, actor: batch.actor }, batch.now, {
    action: batch.action,
    resourceType: batch.resourceType,
    dupeMethod: batch.dupeMethod,
    actor: batch.actor,
    state: finished ? 'finished' : 'pending',
    total: batch.items.length,
    pending,
    failures,
    summary: failures ? summaryOf(failures, countByErrorId(batch.items)) : null,
    startedAt: finished ? at : null,
    finishedAt: finished ? at : null,
  });
  const ids: { id: number; state: ItemState }[] = [];
  for (let start = 0; start < batch.items.length; start += ITEMS_PER_INSERT) {
    ids.push(...(await insertItems(tx, batch.orgId, batchId, batch.items.slice(start, start + ITEMS_PER_INSERT), at)));
  }
  await enqueueChunks(
    tx,
    CHUNK_TASK,
    batch.orgId,
    batchId,
    ids.filter((i) => i.state === 'pending').map((i) => i.id),
  );
  return batchId;
}

/**
 * Items inserted by one statement: building the statement's parameters, and reading the ids it
 * returns, are a stretch of synchronous work that grows with the items, so a request's 14,000
 * items go in statements of a thousand, with the event loop free between them (issue #25).
 */
const ITEMS_PER_INSERT = 1000;

/** Inserts items in order (their ids increase with their position); answers their ids and states. */
function insertItems(tx: Transaction, orgId: number, batchId: number, items: readonly NewItem[], at: string) {
  return tx<{ id: number; state: ItemState }[]>`
    insert into batch_items (org_id, batch_id, data, state, failed, info, errors, created_at, updated_at)
    select ${orgId}, ${batchId}, u.data, u.state, u.state = 'error', u.info, u.errors::jsonb, ${at}, ${at}
      from unnest(${tx.array(items.map((i) => i.data))}::text[],
                  ${tx.array(items.map((i) => i.state))}::text[],
                  ${tx.array(items.map((i) => infoOf(i.errors)) as string[])}::text[],
                  ${tx.array(items.map((i) => (i.errors ? JSON.stringify(i.errors) : null)) as string[])}::text[])
           with ordinality as u(data, state, info, errors, position)
     order by u.position
    returning id, state`;
}

/**
 * Enqueues one `task` job per CHUNK_SIZE pending items, by id range. The ranges partition the
 * batch's pending items whatever other ids interleave; the job key makes a second enqueue of a
 * chunk harmless.
 */
async function enqueueChunks(tx: Transaction, task: string, orgId: number, batchId: number, pendingIds: readonly number[]): Promise<void> {
  const sorted = [...pendingIds].sort((a, b) => a - b);
  const ranges: ItemRange[] = [];
  for (let start = 0; start < sorted.length; start += CHUNK_SIZE) ranges.push({ first: sorted[start]!, last: sorted[Math.min(start + CHUNK_SIZE, sorted.length) - 1]! });
  await enqueueChunkRanges(tx, task, orgId, batchId, ranges);
}

/** The first and last item id of a chunk. */
export interface ItemRange {
  readonly first: number;
  readonly last: number;
}

/** The id ranges of CHUNK_SIZE pending items each, computed where the items are. */
export async function pendingItemRanges(tx: Transaction, orgId: number, batchId: number): Promise<ItemRange[]> {
  const rows = await tx<{ first: string; last: string }[]>`
    select min(id) as first, max(id) as last
      from (select id, (row_number() over (order by id) - 1) / ${CHUNK_SIZE} as chunk
              from batch_items where org_id = ${orgId} and batch_id = ${batchId} and state = 'pending') numbered
     group by chunk
     order by chunk`;
  return rows.map((r) => ({ first: Number(r.first), last: Number(r.last) }));
}

/** One `task` job per range; the job key makes a second enqueue of a chunk harmless. */
export async function enqueueChunkRanges(tx: Transaction, task: string, orgId: number, batchId: number, ranges: readonly ItemRange[]): Promise<void> {
  const jobs: JobSpec[] = ranges.map(({ first, last }) => {
    const payload: ChunkPayload = { orgId, batchId, firstItemId: first, lastItemId: last };
    return { task, payload: { ...payload }, jobKey: `${task}:${orgId}:${batchId}:${first}`, maxAttempts: CHUNK_MAX_ATTEMPTS };
  });
  await enqueueJobs(tx, jobs);
}

function countByErrorId(items: readonly { readonly state: ItemState; readonly errors?: readonly ErrorObject[] | undefined }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    if (item.state !== 'error') continue;
    const id = item.errors?.[0]?.id ?? 'unknown';
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

/** `summary` of a batch with failures: how many, and how many of each first error id. */
export interface FailureSummary {
  readonly failures: number;
  readonly errors: Record<string, number>;
  /** Set when the batch failed as a whole, saying why. */
  readonly fatal?: string;
}

function summaryOf(failures: number, errors: Record<string, number>, fatal?: string): FailureSummary {
  return { failures, errors, ...(fatal && { fatal }) };
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const merged = { ...a };
  for (const [id, n] of Object.entries(b)) merged[id] = (merged[id] ?? 0) + n;
  return merged;
}

/** The batch as a chunk needs it; undefined once purged. */
export interface ChunkBatch {
  readonly state: string;
  readonly action: string;
  readonly resourceType: string;
  readonly dupeMethod: DupeMethod;
  readonly actor: Actor;
  /** A bulk action's parameters (runtime/bulk/actions); null for upserts. */
  readonly payload: unknown;
}

export async function loadChunkBatch(tx: Transaction, orgId: number, batchId: number): Promise<ChunkBatch | undefined> {
  const [row] = await tx<ChunkBatch[]>`
    select state, action, resource_type as "resourceType", dupe_method as "dupeMethod", actor, payload
      from batches where org_id = ${orgId} and id = ${batchId}`;
  return row;
}

export interface PendingItem {
  readonly id: number;
  readonly data: string;
  /** The record the item is about, for bulk actions (their items are made with it). */
  readonly itemId: number | null;
}

/**
 * The chunk's items still pending, locked. A second run of the chunk (its worker was thought
 * dead) waits here for the first to end, then finds the items the first made final.
 */
export async function lockPendingItems(tx: Transaction, chunk: ChunkPayload): Promise<PendingItem[]> {
  return tx<PendingItem[]>`
    select id, data, item_id as "itemId" from batch_items
     where org_id = ${chunk.orgId} and batch_id = ${chunk.batchId} and id between ${chunk.firstItemId} and ${chunk.lastItemId}
       and state = 'pending'
     order by id
       for update`;
}

/** What made an item final, as a chunk records it and as an import stores it. */
export interface ItemOutcome {
  readonly state: Exclude<ItemState, 'pending'>;
  readonly itemId: number | null;
  readonly errors?: readonly ErrorObject[];
  /** Says why, for an item skipped by the batch rather than by its own record; else the errors' details. */
  readonly info?: string;
}

/** The unnest() arguments of items' outcomes: state, item_id, info and errors, one array each. */
function outcomeArrays(tx: Transaction, items: readonly ItemOutcome[]) {
  return tx`${tx.array(items.map((i) => i.state))}::text[],
            ${tx.array(items.map((i) => i.itemId) as number[])}::bigint[],
            ${tx.array(items.map((i) => i.info ?? infoOf(i.errors)) as string[])}::text[],
            ${tx.array(items.map((i) => (i.errors ? JSON.stringify(i.errors) : null)) as string[])}::text[]`;
}

/** An item made final by a chunk. */
export interface ItemResult extends ItemOutcome {
  readonly id: number;
}

/**
 * Records a chunk's results: its items' states, and the batch's counters in the same
 * transaction. The batch finishes when its last pending item is done.
 */
export async function recordChunk(tx: Transaction, writer: RecordWriter, chunk: ChunkPayload, results: readonly ItemResult[], startedAt: Date, now: Date): Promise<void> {
  if (results.length === 0) return;
  const at = now.toISOString();
  await tx`
    update batch_items i
       set state = u.state, item_id = u.item_id, failed = u.state = 'error', info = u.info, errors = u.errors::jsonb, updated_at = ${at}
      from unnest(${tx.array(results.map((r) => r.id))}::bigint[], ${outcomeArrays(tx, results)}) as u(id, state, item_id, info, errors)
     where i.org_id = ${chunk.orgId} and i.id = u.id`;
  const failed = results.filter((r) => r.state === 'error');
  await countIntoBatch(tx, writer, chunk.orgId, chunk.batchId, { done: results.length, failures: failed.length, errors: countByErrorId(results) }, startedAt, now);
}

/** An item made final when it is stored: an import's row, which has no pending item before it is read. */
export interface FinalItem extends ItemOutcome {
  readonly data: string;
}

/**
 * Stores items that are final already (the rows of a CSV import, read from its file as it
 * goes) and counts them into the batch, whose `pending` counted them in advance.
 */
export async function recordFinalItems(
  tx: Transaction,
  writer: RecordWriter,
  orgId: number,
  batchId: number,
  items: readonly FinalItem[],
  startedAt: Date,
  now: Date,
): Promise<void> {
  if (items.length === 0) return;
  const at = now.toISOString();
  await tx`
    insert into batch_items (org_id, batch_id, data, state, item_id, failed, info, errors, created_at, updated_at)
    select ${orgId}, ${batchId}, u.data, u.state, u.item_id, u.state = 'error', u.info, u.errors::jsonb, ${at}, ${at}
      from unnest(${tx.array(items.map((i) => i.data))}::text[], ${outcomeArrays(tx, items)})
           with ordinality as u(data, state, item_id, info, errors, position)
     order by u.position`;
  const failures = items.filter((i) => i.state === 'error').length;
  await countIntoBatch(tx, writer, orgId, batchId, { done: items.length, failures, errors: countByErrorId(items) }, startedAt, now);
}

async function countIntoBatch(
  tx: Transaction,
  writer: RecordWriter,
  orgId: number,
  batchId: number,
  counts: { done: number; failures: number; errors: Record<string, number>; fatal?: string },
  startedAt: Date,
  now: Date,
): Promise<void> {
  const [batch] = await tx<{ state: string; pending: number; failures: number; summary: FailureSummary | null; actor: Actor; unstarted: boolean }[]>`
    select state, pending, failures, summary, actor, started_at is null as unstarted from batches where org_id = ${orgId} and id = ${batchId} for no key update`;
  if (!batch) return;
  const pending = batch.pending - counts.done;
  const failures = batch.failures + counts.failures;
  const summary = failures ? summaryOf(failures, mergeCounts(batch.summary?.errors ?? {}, counts.errors), counts.fatal) : null;
  // A canceled batch stays canceled while its last chunks are counted in.
  const state = batch.state === 'canceled' ? 'canceled' : counts.fatal ? 'failed' : pending <= 0 ? 'finished' : 'pending';
  const finishedAt = state === 'finished' || state === 'failed' ? now.toISOString() : null;
  if (finishedAt) {
    // The batch is done: clients are told (batch.updated), so through the record writer.
    const values = { pending, failures, summary, state, finishedAt, ...(batch.unstarted && { startedAt: startedAt.toISOString() }) };
    await updateBatchRecord({ tx, writer, orgId, actor: batch.actor }, batchId, now, values);
    return;
  }
  // Progress: bookkeeping of every chunk, not an event (see .ci/writer-bypass-allow-list.ts).
  const at = now.toISOString();
  await tx`
    update batches
       set pending = ${pending}, failures = ${failures}, summary = ${summary ? tx.json(summary as never) : null}, state = ${state},
           started_at = coalesce(started_at, ${startedAt.toISOString()}), finished_at = ${finishedAt}, updated_at = ${at}
     where org_id = ${orgId} and id = ${batchId}`;
}

/**
 * Fails the batch as a whole (its resource type is gone, or a chunk kept failing): every item
 * still pending becomes an error saying so, and the batch is `failed` with the reason in its
 * summary. Chunks that run afterwards find nothing pending.
 */
export async function failBatch(tx: Transaction, writer: RecordWriter, orgId: number, batchId: number, reason: string, now: Date): Promise<void> {
  const error: ErrorObject = { id: 'batchFailed', status: '500', title: 'Batch Failed', detail: `Not written: the batch failed. ${reason}` };
  const at = now.toISOString();
  // Items first, the batch row last, in the order chunks lock them: the other order deadlocks
  // with a chunk that holds its items and waits for the batch row.
  const [batch] = await tx<{ state: string }[]>`select state from batches where org_id = ${orgId} and id = ${batchId}`;
  if (batch?.state !== 'pending') return;
  const failed = await tx`
    update batch_items set state = 'error', failed = true, info = ${error.detail}, errors = ${tx.json([error] as never)}, updated_at = ${at}
     where org_id = ${orgId} and batch_id = ${batchId} and state = 'pending'
    returning id`;
  await countIntoBatch(
    tx,
    writer,
    orgId,
    batchId,
    { done: failed.length, failures: failed.length, errors: failed.length ? { batchFailed: failed.length } : {}, fatal: reason },
    now,
    now,
  );
}
