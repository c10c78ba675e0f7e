import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { MAX_RECORD_BYTES } from '../../imports/csv-summary.js';
import { holdsAddress, REDACTED, type AddressPattern } from './address.js';
import { inPieces } from '../../slices.js';

/**
 * Finding the records of an uploaded CSV file that hold the address, as byte ranges, and what
 * overwrites them. The file is parsed as runtime/imports/csv-records.ts reads it (same BOM,
 * quote and line-ending rules), streaming: memory holds a chunk and a record, not the file, and
 * the parser and the pattern get 64 KiB at a time between turns of the event loop (pieces.ts).
 *
 * A record is overwritten in place by a placeholder of the same byte length, on one line, with
 * a number of fields the header does not have. Imports count such a row and report it as a
 * malformed, failed item, so the file's size, its record count (what validateUpload answered and
 * an import request must repeat) and the position of every other row stay as they were: a
 * validated upload can still be imported, and an import part-way through (which resumes by
 * counting rows) does not skip or repeat any.
 */

/** Bytes [start, end) of the file: one record, without the line break that ends it. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface CsvRedaction {
  readonly headerCount: number;
  /** The records after the header that hold the address, in file order. */
  readonly ranges: readonly ByteRange[];
}

const CR = 0x0d;
const LF = 0x0a;
const isLineBreak = (byte: number | undefined) => byte === CR || byte === LF;

interface ParsedRecord {
  readonly record: string[];
  readonly info: { readonly bytes: number };
}

/** Throws what csv-parse throws for a file it cannot read (a quote never closed, a record too long). */
export async function findRecordsHolding(chunks: AsyncIterable<Uint8Array>, pattern: AddressPattern): Promise<CsvRedaction> {
  // The bytes from `windowStart` on that were handed to the parser; records end inside them.
  let window = Buffer.alloc(0);
  let windowStart = 0;
  async function* fed(): AsyncGenerator<Buffer> {
    for await (const bytes of inPieces(chunks)) {
      window = Buffer.concat([window, bytes]);
      yield bytes;
    }
  }
  const parser = parse({
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  const source = Readable.from(fed());
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);

  let headerCount: number | undefined;
  const ranges: ByteRange[] = [];
  for await (const { record, info } of parser as AsyncIterable<ParsedRecord>) {
    // [windowStart, info.bytes): blank lines skipped before the record, the record, its line break.
    let start = windowStart;
    let end = info.bytes;
    while (start < end && isLineBreak(window[start - windowStart])) start++;
    while (end > start && isLineBreak(window[end - 1 - windowStart])) end--;
    const text = window.subarray(start - windowStart, end - windowStart).toString('utf8');
    if (headerCount === undefined) headerCount = record.length;
    else if (holdsAddress(pattern, text)) ranges.push({ start, end });
    window = window.subarray(info.bytes - windowStart);
    windowStart = info.bytes;
  }
  return { headerCount: headerCount ?? 0, ranges };
}

/**
 * `length` bytes of ASCII, no quote or line break, that csv-records.ts reads as a malformed row:
 * one field where the header has several, two where it has one.
 */
export function placeholderRecord(length: number, headerCount: number): Buffer {
  const fill = (n: number) => REDACTED.padEnd(n, ' ').slice(0, n);
  return Buffer.from(headerCount === 1 ? `,${fill(length - 1)}` : fill(length), 'latin1');
}
