import { createHash } from 'node:crypto';
import { CsvError } from 'csv-parse';
import type postgres from 'postgres';
import { summarizeCsv } from '../../imports/csv-summary.js';
import { orgScopedTransaction, type Transaction } from '../../tenancy/index.js';
import { addressPattern, holdsAddress, type AddressPattern } from './address.js';
import { findRecordsHolding, placeholderRecord, type ByteRange } from './csv-redaction.js';
import { inPieces } from '../../slices.js';
import type { ErasureStep } from './step.js';

/**
 * Uploaded CSV files (uploads and their 1 MiB upload_chunks, runtime/imports): each record that
 * holds the address is overwritten in place (csv-redaction.ts says how and why), and the upload's
 * `sha512` and `byte_size` are computed again from the stored bytes as the upload route computes
 * them, and its `record_count` and `headers` (which show the first row's values) as
 * validateUpload does. A file that cannot be parsed but holds the address cannot be imported
 * anyway: it is deleted with its chunks. Uploads still being received are left alone: their
 * bytes are not all there. Uploads are kept a day (runtime/imports/purge-task.ts), so an org has
 * few; the bytes must be rewritten, so this is the one step that works upload by upload.
 */
export const uploadsStep: ErasureStep = {
  kind: 'uploads',
  tables: ['upload_chunks', 'uploads'],
  async run({ sql, subject, log }) {
    const pattern = addressPattern(subject.email);
    const uploads = await orgScopedTransaction(sql, subject.orgId, async (tx) => {
      const rows = await tx<{ storageKey: string }[]>`select storage_key as "storageKey" from uploads where org_id = ${subject.orgId} order by storage_key`;
      return rows.map((r) => r.storageKey);
    });
    let rewritten = 0;
    let deleted = 0;
    // One transaction per upload: its row is locked while its bytes are read and rewritten.
    for (const storageKey of uploads) {
      const outcome = await orgScopedTransaction(sql, subject.orgId, (tx) => redactLockedUpload(tx, subject.orgId, storageKey, pattern));
      if (outcome === 'rewritten') rewritten++;
      if (outcome === 'deleted') deleted++;
    }
    log.info({ step: 'uploads', rewritten, deleted }, 'uploads redacted');
  },
};

/** The upload, locked, unless it is gone or still being received since it was listed. */
async function redactLockedUpload(tx: Transaction, orgId: number, storageKey: string, pattern: AddressPattern): Promise<'kept' | 'rewritten' | 'deleted'> {
  const [upload] = await tx<{ summarized: boolean }[]>`
    select headers is not null as summarized from uploads
     where org_id = ${orgId} and storage_key = ${storageKey} and state not in ('awaiting', 'receiving')
       for update`;
  if (!upload) return 'kept';
  return redactUpload(tx, orgId, storageKey, upload.summarized, pattern);
}

/** The upload's chunks in order, each read by its own statement in `tx`. */
async function* storedChunks(tx: Transaction, orgId: number, storageKey: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const [row] = await tx<{ bytes: Buffer }[]>`
      select bytes from upload_chunks where org_id = ${orgId} and storage_key = ${storageKey} and seq = ${seq}`;
    if (!row) return;
    yield row.bytes;
  }
}

async function redactUpload(tx: Transaction, orgId: number, storageKey: string, summarized: boolean, pattern: AddressPattern): Promise<'kept' | 'rewritten' | 'deleted'> {
  let found;
  try {
    found = await findRecordsHolding(storedChunks(tx, orgId, storageKey), pattern);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    if (!(await rawBytesHold(storedChunks(tx, orgId, storageKey), pattern))) return 'kept';
    await tx`delete from uploads where org_id = ${orgId} and storage_key = ${storageKey}`;
    return 'deleted';
  }
  if (found.ranges.length === 0) return 'kept';
  await overwriteRanges(tx, orgId, storageKey, found.ranges, found.headerCount);
  await storeDigest(tx, orgId, storageKey, summarized);
  return 'rewritten';
}

/** Writes each range's placeholder into the chunks it falls in: one UPDATE per chunk touched. Ranges are in file order. */
async function overwriteRanges(tx: Transaction, orgId: number, storageKey: string, ranges: readonly ByteRange[], headerCount: number) {
  let offset = 0;
  // The first range that does not end before the current chunk.
  let next = 0;
  for (let seq = 0; next < ranges.length; seq++) {
    const [row] = await tx<{ bytes: Buffer }[]>`
      select bytes from upload_chunks where org_id = ${orgId} and storage_key = ${storageKey} and seq = ${seq}`;
    if (!row) return;
    const chunkStart = offset;
    const chunkEnd = offset + row.bytes.length;
    offset = chunkEnd;
    const bytes = Buffer.from(row.bytes);
    let touched = false;
    for (let i = next; i < ranges.length && ranges[i]!.start < chunkEnd; i++) {
      const range = ranges[i]!;
      const placeholder = placeholderRecord(range.end - range.start, headerCount);
      const from = Math.max(range.start, chunkStart);
      const to = Math.min(range.end, chunkEnd);
      if (from < to) placeholder.copy(bytes, from - chunkStart, from - range.start, to - range.start);
      touched ||= from < to;
    }
    while (next < ranges.length && ranges[next]!.end <= chunkEnd) next++;
    if (touched) await tx`update upload_chunks set bytes = ${bytes} where org_id = ${orgId} and storage_key = ${storageKey} and seq = ${seq}`;
  }
}

/** sha512 and byte_size of the stored bytes; record_count and headers too when validateUpload had stored them. */
async function storeDigest(tx: Transaction, orgId: number, storageKey: string, summarized: boolean) {
  const hash = createHash('sha512');
  let size = 0;
  async function* hashed(): AsyncGenerator<Buffer> {
    for await (const bytes of inPieces(storedChunks(tx, orgId, storageKey))) {
      hash.update(bytes);
      size += bytes.length;
      yield bytes;
    }
  }
  if (summarized) {
    const summary = await summarizeCsv(hashed());
    await tx`
      update uploads set sha512 = ${hash.digest('hex')}, byte_size = ${size}, record_count = ${summary.recordCount},
             headers = ${tx.json(summary.headerValue as unknown as postgres.JSONValue)}
       where org_id = ${orgId} and storage_key = ${storageKey}`;
    return;
  }
  for await (const bytes of hashed()) void bytes;
  await tx`update uploads set sha512 = ${hash.digest('hex')}, byte_size = ${size} where org_id = ${orgId} and storage_key = ${storageKey}`;
}

/** Whether bytes that are not CSV hold the address anywhere, a chunk's end included. */
async function rawBytesHold(chunks: AsyncIterable<Buffer>, pattern: AddressPattern): Promise<boolean> {
  const decoder = new TextDecoder('utf-8');
  const overlap = pattern.address.length * 6;
  let tail = '';
  for await (const bytes of inPieces(chunks)) {
    const text = tail + decoder.decode(bytes, { stream: true });
    if (holdsAddress(pattern, text)) return true;
    tail = text.slice(-overlap);
  }
  return holdsAddress(pattern, tail + decoder.decode());
}
