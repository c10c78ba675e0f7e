import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';

/**
 * CSV files as Cadence reads them, for validateUpload and for imports alike, so that the
 * record count a client is shown is the number of rows the import goes through. The file
 * arrives as a stream of chunks and is parsed by csv-parse as it comes; memory does not grow
 * with the file.
 *
 * - UTF-8, with or without a BOM; quoted fields may hold commas, quotes and line breaks; lines
 *   end in CRLF, LF or CR, mixed or not. A quote inside an unquoted field is kept as text.
 * - The first record is the header row. Its names must be non-empty and distinct.
 * - Each later record is a row. A row with more or fewer fields than the header is malformed:
 *   it is still a row (counted, and an import's failed item with its line number), not a
 *   reason to refuse the file. Blank lines are not rows.
 * - What makes the whole file unreadable is InvalidCsv: bytes that are not UTF-8, NUL bytes,
 *   no header row, a quote left open at the end (the rest of the file would be one field),
 *   a record over MAX_RECORD_BYTES.
 */

/** A file that is not CSV Cadence can import; the message says why, for the client. */
export class InvalidCsv extends Error {}

/**
 * A longer record is refused rather than buffered: an unclosed quote early in a large file
 * would otherwise make the parser hold the rest of the file as one field.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** A row: its values, or why it could not be read. `line` is the file line it ends on. */
export type CsvRow = { readonly line: number; readonly values: readonly string[] } | { readonly line: number; readonly malformed: string };

export interface CsvFile {
  readonly headers: readonly string[];
  /** The rows after the header, in file order; can be iterated once. */
  readonly rows: AsyncIterable<CsvRow>;
}

/** The chunks decoded as UTF-8 (a BOM is left to the parser), refusing invalid sequences and NUL characters. */
async function* utf8Text(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
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

interface ParsedRecord {
  readonly record: string[];
  readonly info: { readonly lines: number };
}

/** A malformed row as the parser reports it; errors it cannot skip past are the file's. */
function malformedRow(error: CsvError & { lines?: number }, headerCount: number): CsvRow {
  if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
    const fields = Array.isArray(error.record) ? error.record.length : undefined;
    const detail = fields === undefined ? 'a different number of fields' : `${fields} field${fields === 1 ? '' : 's'}`;
    return { line: error.lines ?? 0, malformed: `The row has ${detail}; the header row has ${headerCount}` };
  }
  return { line: error.lines ?? 0, malformed: error.message };
}

/**
 * Opens a CSV file: reads up to its header row, then hands out its rows as they are parsed.
 * Throws InvalidCsv, at opening or while rows are read, for a file that cannot be read.
 */
export async function openCsv(chunks: AsyncIterable<Uint8Array>): Promise<CsvFile> {
  const parser = parse({
    bom: true,
    info: true,
    relax_quotes: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  // Rows the parser skipped, reported by event; put back in file order as records are read.
  const skipped: (CsvError & { lines?: number })[] = [];
  parser.on('skip', (error: CsvError) => skipped.push(error));
  const source = Readable.from(utf8Text(chunks));
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);

  const records = (parser as AsyncIterable<ParsedRecord>)[Symbol.asyncIterator]();
  const next = async (): Promise<IteratorResult<ParsedRecord>> => {
    try {
      return await records.next();
    } catch (error) {
      if (error instanceof CsvError) throw new InvalidCsv(`The file is not valid CSV: ${error.message}`);
      throw error;
    }
  };
  const fileError = (error: CsvError) => (error.code === 'CSV_QUOTE_NOT_CLOSED' ? new InvalidCsv(`The file is not valid CSV: ${error.message}`) : undefined);

  const first = await next();
  if (first.done) {
    const unreadable = skipped.map(fileError).find(Boolean);
    throw unreadable ?? new InvalidCsv('The file is empty: a CSV file starts with a header row');
  }
  const headers = first.value.record;
  checkHeaders(headers);

  async function* rows(): AsyncGenerator<CsvRow> {
    const skippedBefore = function* (line: number): Generator<CsvRow> {
      while (skipped.length && (skipped[0]!.lines ?? 0) < line) {
        const error = skipped.shift()!;
        const unreadable = fileError(error);
        if (unreadable) throw unreadable;
        yield malformedRow(error, headers.length);
      }
    };
    for (;;) {
      const result = await next();
      if (result.done) break;
      yield* skippedBefore(result.value.info.lines);
      yield { line: result.value.info.lines, values: result.value.record };
    }
    yield* skippedBefore(Number.POSITIVE_INFINITY);
  }
  return { headers, rows: rows() };
}
