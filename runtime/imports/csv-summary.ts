import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';

/**
 * What validateUpload answers about a CSV file (SPEC.md "Upload and validation results"): its
 * headers with the first data row's values, and how many data rows follow the header. The file
 * is read as a stream of chunks and parsed by csv-parse as it arrives; only the first two
 * records are kept, so memory does not grow with the file.
 */

export interface HeaderValue {
  readonly header: string;
  readonly value: string;
}

export interface CsvSummary {
  readonly headerValue: readonly HeaderValue[];
  readonly recordCount: number;
}

/** A file that is not CSV Cadence can import; the message says why, for the client. */
export class InvalidCsv extends Error {}

/**
 * A longer record is refused rather than buffered: an unclosed quote early in a large file
 * would otherwise make the parser hold the rest of the file as one field.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** The chunks decoded as UTF-8 (a BOM dropped), refusing invalid sequences and NUL characters. */
async function* utf8Text(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  const decode = (bytes?: Uint8Array): string => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw new InvalidCsv(`The file is not UTF-8 text: an invalid byte sequence ends within its first ${offset} bytes`);
    }
  };
  const checked = (text: string): string => {
    if (text.includes('\u0000')) throw new InvalidCsv('The file contains NUL bytes; a CSV file is text');
    return text;
  };
  for await (const chunk of chunks) {
    offset += chunk.byteLength;
    yield checked(decode(chunk));
  }
  yield checked(decode());
}

function checkHeaders(headers: readonly string[]): void {
  const seen = new Set<string>();
  headers.forEach((header, index) => {
    if (header.trim() === '') throw new InvalidCsv(`Column ${index + 1} of the header row has no name`);
    if (seen.has(header)) throw new InvalidCsv(`The header row names "${header}" more than once`);
    seen.add(header);
  });
}

/** Parses the whole file; throws InvalidCsv with a client-readable reason when it is not CSV. */
export async function summarizeCsv(chunks: AsyncIterable<Uint8Array>): Promise<CsvSummary> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES });
  let headers: string[] | undefined;
  let first: string[] | undefined;
  let recordCount = 0;
  const consume = async () => {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (headers === undefined) {
        checkHeaders(record);
        headers = record;
      } else {
        first ??= record;
        recordCount += 1;
      }
    }
  };
  try {
    await Promise.all([pipeline(Readable.from(utf8Text(chunks)), parser), consume()]);
  } catch (error) {
    if (error instanceof CsvError) throw new InvalidCsv(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
  if (headers === undefined) throw new InvalidCsv('The file is empty: a CSV file starts with a header row');
  const values = first ?? [];
  return { headerValue: headers.map((header, index) => ({ header, value: values[index] ?? '' })), recordCount };
}
