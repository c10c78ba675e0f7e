import { createHash } from 'node:crypto';
import type { Handler } from 'hono';
import type postgres from 'postgres';
import type { ApiEnv } from '../engine/index.js';
import { ApiError, forbidden, payloadTooLarge, resourceNotFound, unsupportedMediaType } from '../jsonapi/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { STORAGE_KEY, verifyUploadUrl } from './upload-url.js';

/** Bytes per stored chunk: large enough for few rows, small enough to hold one in memory. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

/** What an upload must be sent with; generateUploadLink names it in `uploadHeaders`. */
export const UPLOAD_HEADERS = { 'Content-Type': 'text/csv' } as const;

export interface UploadRouteOptions {
  readonly sql: postgres.Sql;
  readonly signingKey: Buffer;
  readonly maxBytes: number;
  readonly clock: () => Date;
}

/** Why a Content-Type is refused, or undefined for text/csv with at most charset=utf-8. */
function refusedUploadType(contentType: string | undefined): string | undefined {
  const expected = `An upload must be sent with Content-Type: ${UPLOAD_HEADERS['Content-Type']}`;
  if (contentType === undefined) return expected;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'text/csv') return `${expected}, not ${contentType}`;
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=').map((part) => part.trim());
    if (parameter !== '' && (name !== 'charset' || value.replace(/^"(.*)"$/, '$1') !== 'utf-8')) return `text/csv may carry only charset=utf-8, not ${parameter}`;
  }
  return undefined;
}

function uploadUrlRefused(id: string, detail: string): ApiError {
  return forbidden(id, detail);
}

function uploadUrlUsed(): ApiError {
  return new ApiError(409, [{ id: 'uploadUrlUsed', status: '409', title: 'Conflict', detail: 'This upload URL has been used; it works once' }]);
}

/**
 * PUT /uploads/:storageKey?org=…&expires=…&signature=… (SPEC.md "CSV import" step 2): the
 * presigned URL is the only credential, so this route sits outside /api/v2 and its bearer
 * authentication. Checks, in order: the signature (403), the expiry (403), that the link has
 * not been used (409), the Content-Type (415) and the size (413).
 *
 * No database connection is held while the client sends: a short transaction claims the link
 * (`receiving`; a second PUT meanwhile gets 409), each 1 MiB chunk is stored by a transaction of
 * its own as it completes, hashed and counted on the way, and a last one marks the upload
 * `uploaded`. A body that fails (too large, cut off) has its chunks deleted and the link freed
 * for another try. Answers 200 with an empty body and the SHA-512 as ETag.
 */
export function uploadRoute(options: UploadRouteOptions): Handler<ApiEnv> {
  return async function receiveUpload(c) {
    const storageKey = c.req.param('storageKey') ?? '';
    const url = new URL(c.req.url);
    const signed = STORAGE_KEY.test(storageKey) ? verifyUploadUrl(options.signingKey, storageKey, url.searchParams) : undefined;
    if (!signed) throw uploadUrlRefused('invalidSignature', 'This upload URL is not one Cadence signed, or it was altered');
    if (options.clock().getTime() >= signed.expires * 1000) {
      throw uploadUrlRefused('uploadUrlExpired', 'This upload URL has expired; ask generateUploadLink for a new one');
    }
    const { orgId } = signed;
    await orgScopedTransaction(options.sql, orgId, async (tx) => {
      const [upload] = await tx<{ state: string }[]>`select state from uploads where org_id = ${orgId} and storage_key = ${storageKey} for update`;
      if (!upload) throw resourceNotFound('This upload no longer exists; ask generateUploadLink for a new link');
      if (upload.state !== 'awaiting') throw uploadUrlUsed();
      const refused = refusedUploadType(c.req.header('content-type'));
      if (refused) throw unsupportedMediaType(refused);
      const declared = c.req.header('content-length');
      if (declared !== undefined && Number(declared) > options.maxBytes) throw payloadTooLarge(options.maxBytes);
      await tx`update uploads set state = 'receiving' where org_id = ${orgId} and storage_key = ${storageKey}`;
    });
    const store = (work: (tx: Transaction) => Promise<unknown>) => orgScopedTransaction(options.sql, orgId, work);
    let stored;
    try {
      stored = await storeChunks(store, orgId, storageKey, c.req.raw.body, options.maxBytes);
    } catch (error) {
      await store(async (tx) => {
        await tx`delete from upload_chunks where org_id = ${orgId} and storage_key = ${storageKey}`;
        await tx`update uploads set state = 'awaiting' where org_id = ${orgId} and storage_key = ${storageKey} and state = 'receiving'`;
      });
      throw error;
    }
    await store(
      (tx) => tx`
        update uploads set state = 'uploaded', byte_size = ${stored.size}, sha512 = ${stored.sha512}, uploaded_at = ${options.clock().toISOString()}
         where org_id = ${orgId} and storage_key = ${storageKey}`,
    );
    return c.body(null, 200, { ETag: `"${stored.sha512}"` });
  };
}

/**
 * Reads `body` to its end, storing it in chunks of UPLOAD_CHUNK_BYTES (the last one shorter),
 * each with a transaction of its own. Past `maxBytes` it stops reading and throws 413: a body
 * sent without Content-Length is held to the limit too.
 */
async function storeChunks(
  store: (work: (tx: Transaction) => Promise<unknown>) => Promise<unknown>,
  orgId: number,
  storageKey: string,
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
) {
  const hash = createHash('sha512');
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async (bytes: Buffer) => {
    const at = seq;
    await store((tx) => tx`insert into upload_chunks (org_id, storage_key, seq, bytes) values (${orgId}, ${storageKey}, ${at}, ${bytes})`);
    seq += 1;
  };
  if (body) {
    for await (const part of body as unknown as AsyncIterable<Uint8Array>) {
      size += part.byteLength;
      if (size > maxBytes) throw payloadTooLarge(maxBytes);
      hash.update(part);
      pending.push(Buffer.from(part.buffer, part.byteOffset, part.byteLength));
      pendingBytes += part.byteLength;
      while (pendingBytes >= UPLOAD_CHUNK_BYTES) {
        const all = Buffer.concat(pending, pendingBytes);
        await flush(all.subarray(0, UPLOAD_CHUNK_BYTES));
        pending = [all.subarray(UPLOAD_CHUNK_BYTES)];
        pendingBytes = all.byteLength - UPLOAD_CHUNK_BYTES;
      }
    }
  }
  if (pendingBytes > 0) await flush(Buffer.concat(pending, pendingBytes));
  return { size, sha512: hash.digest('hex') };
}
