import { createHash } from 'node:crypto';
import { ApiError, badRequest } from '../jsonapi/index.js';
import type { Transaction } from '../tenancy/index.js';
import { IDEMPOTENCY_WINDOW_MS } from './purge-task.js';

/**
 * Idempotency-Key, as payment APIs have it: a client that retries a bulk upsert with the same
 * key and the same body within 24 hours gets the batch of its first request, not a second one;
 * the same key with another body is a mistake, answered 422. Keys are per org.
 */

const KEY = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;

/** The request's Idempotency-Key, or undefined without one; a malformed one is a 400. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = header.trim();
  if (!KEY.test(key)) throw badRequest('invalidIdempotencyKey', 'The Idempotency-Key header must be 1 to 255 printable ASCII characters');
  return key;
}

/** What identifies a request for its key: the action and the exact body. */
export function requestHash(action: string, body: string | Uint8Array): string {
  return createHash('sha256').update(action).update('\n').update(body).digest('hex');
}

function keyReused(key: string): ApiError {
  return new ApiError(422, [
    {
      id: 'idempotencyKeyReused',
      status: '422',
      title: 'Unprocessable Entity',
      detail: `The Idempotency-Key "${key}" was used in the last 24 hours with a different request; use a new key for a new request`,
    },
  ]);
}

/**
 * The batch an earlier request with this key made, when there is one from the last 24 hours;
 * a 422 when that request was a different one.
 */
export async function batchOfKey(tx: Transaction, orgId: number, key: string, hash: string, now: Date): Promise<number | undefined> {
  const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const [row] = await tx<{ batchId: number; requestHash: string }[]>`
    select batch_id as "batchId", request_hash as "requestHash" from bulk_idempotency_keys
     where org_id = ${orgId} and key = ${key} and created_at > ${since}`;
  if (!row) return undefined;
  if (row.requestHash !== hash) throw keyReused(key);
  return row.batchId;
}

/**
 * Records the key for the batch just made, in the same transaction. False when a request with
 * this key committed in the meantime (the insert waits for it): the caller rolls back and
 * answers with that request's batch instead.
 */
export async function claimKey(tx: Transaction, orgId: number, key: string, hash: string, batchId: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const claimed = await tx`
    insert into bulk_idempotency_keys (org_id, key, request_hash, batch_id, created_at)
    values (${orgId}, ${key}, ${hash}, ${batchId}, ${at})
    on conflict (org_id, key) do update
       set request_hash = excluded.request_hash, batch_id = excluded.batch_id, created_at = excluded.created_at
     where bulk_idempotency_keys.created_at <= ${since}
    returning 1`;
  return claimed.length === 1;
}
