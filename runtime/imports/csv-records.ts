import { piecesOf, turnOfEventLoop } from '../slices.js';
import { CsvScanner, ScanError, type ScannedRecord, type ScanProblem } from './csv-scanner.js';

/**
 * CSV files as Cadence reads them, for validateUpload and for imports alike, so that the
 * record count a client is shown is the number of rows the import goes through. The file
 * arrives as a stream of chunks and is read as it comes: memory holds a piece of the file and a
 * record, not the file.
 *
 * - UTF-8, with or without a BOM; quoted fields may hold commas, quotes and line breaks; lines
 *   end in CRLF, LF or CR, mixed or not. A quote inside an unquoted field is kept as text.
 * - The first record is the header row: at most MAX_COLUMNS names, non-empty and distinct.
 * - Each later record is a row. A row with more or fewer fields than the header is malformed:
 *   it is still a row (counted, and an import's failed item with its line number), not a
 *   reason to refuse the file. Blank lines are not rows.
 * - What makes the whole file unreadable is InvalidCsv: bytes that are not UTF-8, NUL bytes,
 *   no header row, too many columns, a quote left open (the rest of the file would be one
 *   field), a record over MAX_RECORD_BYTES.
 *
 * The file is read in slices (issue #25): PIECE_BYTES (runtime/slices.ts) of it at a time, and at most SLICE_ROWS
 * rows, with a turn of the event loop between slices, so that a large file, or one of a great
 * many short rows, never holds the process's other requests up for long.
 */

/** A file that is not CSV Cadence can import; the message says why, for the client. */
export class InvalidCsv extends Error {}

/**
 * A longer record is refused rather than buffered: an unclosed quote early in a large file
 * would otherwise make the parser hold the rest of the file as one field.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** The most columns a header row may have: more than any import maps, few enough to check at once. */
export const MAX_COLUMNS = 1000;

/** Rows produced between two turns of the event loop, however short they are. */
export const SLICE_ROWS = 1000;

/** A row: its values, or why it could not be read. `line` is the file line it ends on. */
export type CsvRow = { readonly line: number; readonly values: readonly string[] } | { readonly line: number; readonly malformed: string };

export interface CsvFile {
  readonly headers: readonly string[];
  /** The rows after the header, in file order; can be iterated once. */
  readonly rows: AsyncIterable<CsvRow>;
}

const MIB = `${MAX_RECORD_BYTES / (1024 * 1024)} MiB`;

/** The chunks in pieces of at most PIECE_BYTES, refused when they are not UTF-8 (a BOM is the scanner's) or hold NUL bytes. */
async function* textPieces(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let offset = 0;
  const check = (piece?: Uint8Array) => {
    try {
      if (piece) decoder.decode(piece, { stream: true });
      else decoder.decode();
    } catch {
      throw new InvalidCsv(`The file is not UTF-8 text: an invalid byte sequence ends within its first ${offset} bytes`);
    }
    if (piece?.includes(0)) throw new InvalidCsv('The file contains NUL bytes; a CSV file is text');
  };
  for await (const piece of piecesOf(chunks)) {
    offset += piece.byteLength;
    check(piece);
    yield piece;
  }
  check();
}

/** What is wrong with a file the scanner cannot read, in the client's words. */
function problemMessage(problem: ScanProblem, inHeader: boolean): string {
  if (problem.kind === 'quoteNotClosed') return `A quote opened on line ${problem.quoteOpenedOn} is never closed`;
  if (problem.quoteOpenedOn !== undefined) return `A quote opened on line ${problem.quoteOpenedOn} is not closed within ${MIB}, the most a record may take`;
  if (inHeader && problem.fieldCount > MAX_COLUMNS) return `The header row has over ${problem.fieldCount} columns; at most ${MAX_COLUMNS} are allowed`;
  if (inHeader) return `The header row is over ${MIB}, the most a record may take`;
  return `The row starting on line ${problem.line} is over ${MIB}, the most a record may take`;
}

/** The file's records one by one, with a turn of the event loop after each piece read and every SLICE_ROWS records. */
function recordReader(chunks: AsyncIterable<Uint8Array>) {
  const scanner = new CsvScanner(MAX_RECORD_BYTES);
  const pieces = textPieces(chunks)[Symbol.asyncIterator]();
  let ended = false;
  let sinceTurn = 0;
  return async (keepFields: number, inHeader: boolean): Promise<ScannedRecord | undefined> => {
    for (;;) {
      let record: ScannedRecord | undefined;
      try {
        record = scanner.next(keepFields);
      } catch (error) {
        if (error instanceof ScanError) throw new InvalidCsv(problemMessage(error.problem, inHeader));
        throw error;
      }
      if (record) {
        if (++sinceTurn >= SLICE_ROWS) {
          sinceTurn = 0;
          await turnOfEventLoop();
        }
        return record;
      }
      if (ended) return undefined;
      const piece = await pieces.next();
      if (piece.done) {
        scanner.end();
        ended = true;
      } else {
        scanner.push(piece.value);
      }
      sinceTurn = 0;
      await turnOfEventLoop();
    }
  };
}

function checkHeaders(header: ScannedRecord): readonly string[] {
  if (header.fieldCount > MAX_COLUMNS) throw new InvalidCsv(`The header row has ${header.fieldCount} columns; at most ${MAX_COLUMNS} are allowed`);
  const seen = new Set<string>();
  header.fields.forEach((name, index) => {
    if (name.trim() === '') throw new InvalidCsv(`Column ${index + 1} of the header row has no name`);
    if (seen.has(name)) throw new InvalidCsv(`The header row names "${name}" more than once`);
    seen.add(name);
  });
  return header.fields;
}

/** A record after the header as a row: malformed when its field count is not the header's. */
function rowOf(record: ScannedRecord, headerCount: number): CsvRow {
  if (record.fieldCount === headerCount) return { line: record.line, values: record.fields };
  const fields = `${record.fieldCount} field${record.fieldCount === 1 ? '' : 's'}`;
  return { line: record.line, malformed: `The row has ${fields}; the header row has ${headerCount}` };
}

/**
 * Opens a CSV file: reads up to its header row, then hands out its rows as they are read.
 * Throws InvalidCsv, at opening or while rows are read, for a file that cannot be read.
 */
export async function openCsv(chunks: AsyncIterable<Uint8Array>): Promise<CsvFile> {
  const nextRecord = recordReader(chunks);
  const header = await nextRecord(MAX_COLUMNS, true);
  if (!header) throw new InvalidCsv('The file is empty: a CSV file starts with a header row');
  const headers = checkHeaders(header);

  async function* rows(): AsyncGenerator<CsvRow> {
    // Fields past the header's count are only counted: such a row is malformed whatever they hold.
    for (let record = await nextRecord(headers.length, false); record; record = await nextRecord(headers.length, false)) {
      yield rowOf(record, headers.length);
    }
  }
  return { headers, rows: rows() };
}
