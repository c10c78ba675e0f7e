/**
 * Splitting CSV bytes into records, a piece at a time, for csv-records.ts. It reads what
 * csv-parse reads with the options Cadence used (bom, relax_quotes, CRLF/LF/CR record
 * delimiters, skip_empty_lines), so records start and end where they always did
 * (runtime/compliance/erasure/csv-redaction.ts still finds them with csv-parse). It exists
 * because csv-parse builds an Error, with a stack and JSON copies of its state, for every row
 * whose field count differs from the first row's: about 40 µs a row, so a file of short
 * malformed rows held the event loop for seconds. Here a record's fields are only counted;
 * whether the count is right is the caller's business.
 *
 * The scanner works on bytes: the delimiters are ASCII, which never occurs inside a multi-byte
 * UTF-8 sequence, so fields can be cut from the bytes and decoded whole. It holds the bytes of
 * the record in progress and no more: a record longer than `maxRecordBytes` is an error as soon
 * as its byte past the limit arrives, however much of the file is still to come.
 */

const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface ScannedRecord {
  /** The file line the record ends on (1 for the first); CRLF is one line break. */
  readonly line: number;
  /** How many fields the record has. */
  readonly fieldCount: number;
  /** Its first fields, as many as were asked for: the rest are counted, not decoded. */
  readonly fields: readonly string[];
}

/** Why the bytes cannot be read as CSV. */
export type ScanProblem =
  /** The record starting on `line` passed the byte limit; `quoteOpenedOn`: inside the quote opened there. */
  | { readonly kind: 'recordTooLong'; readonly line: number; readonly fieldCount: number; readonly quoteOpenedOn: number | undefined }
  /** The input ended inside the quoted field opened on `quoteOpenedOn`. */
  | { readonly kind: 'quoteNotClosed'; readonly quoteOpenedOn: number };

export class ScanError extends Error {
  constructor(readonly problem: ScanProblem) {
    super(problem.kind);
  }
}

export class CsvScanner {
  /** Bytes from the start of the record in progress to the last byte pushed. */
  private buffer: Buffer = Buffer.alloc(0);
  /** The next byte to look at, in `buffer`. */
  private pos = 0;
  private recordStart = 0;
  /** Where the current field's undecoded bytes start; `fieldText` is what came before them. */
  private fieldStart = 0;
  private fieldText = '';
  /** The current field began with a quote (so an empty one still makes a record). */
  private fieldQuoted = false;
  /** While inside a quoted field, the line its quote was opened on. */
  private quoteOpenedOn: number | undefined;
  private fields: string[] = [];
  private fieldCount = 0;
  private line = 1;
  private recordLine = 1;
  /** The byte before `pos` was a CR: an LF now completes its CRLF. */
  private afterCr = false;
  private started = false;
  private ended = false;

  constructor(private readonly maxRecordBytes: number) {}

  /** More of the input. The bytes of records already returned are dropped. */
  push(bytes: Uint8Array): void {
    const kept = this.buffer.subarray(this.recordStart);
    this.pos -= this.recordStart;
    this.fieldStart -= this.recordStart;
    this.recordStart = 0;
    this.buffer = kept.length === 0 ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.concat([kept, bytes]);
  }

  /** The input is complete: the record in progress, if any, is the last. */
  end(): void {
    this.ended = true;
  }

  /**
   * The next record, its first `keepFields` fields decoded; undefined when the bytes pushed so
   * far hold no further complete record (or, after end(), when there is none). Throws ScanError.
   */
  next(keepFields: number): ScannedRecord | undefined {
    if (!this.skipBom()) return undefined;
    const buffer = this.buffer;
    while (this.pos < buffer.length) {
      const byte = buffer[this.pos]!;
      const afterCr = this.afterCr;
      this.afterCr = byte === CR;
      if (this.quoteOpenedOn !== undefined) {
        this.checkLength();
        if (byte === QUOTE) {
          if (this.pos + 1 === buffer.length && !this.ended) {
            // Whether this quote closes the field depends on the byte after it.
            this.afterCr = afterCr;
            return undefined;
          }
          this.quoteInQuotes(buffer[this.pos + 1]);
          continue;
        }
        if (byte === CR || (byte === LF && !afterCr)) this.line++;
        this.pos++;
        continue;
      }
      if (byte === CR || byte === LF) {
        const record = this.lineBreak(byte === LF && afterCr, keepFields);
        if (record) return record;
        continue;
      }
      this.checkLength();
      if (byte === COMMA) {
        this.endField(keepFields);
        this.pos++;
        this.fieldStart = this.pos;
      } else if (byte === QUOTE && this.pos === this.fieldStart && this.fieldText === '' && !this.fieldQuoted) {
        this.quoteOpenedOn = this.line;
        this.fieldQuoted = true;
        this.pos++;
        this.fieldStart = this.pos;
      } else {
        // A quote inside an unquoted field is text (csv-parse's relax_quotes).
        this.pos++;
      }
    }
    return this.ended ? this.last(keepFields) : undefined;
  }

  /** Skips a UTF-8 BOM at the very start; false while too few bytes have come to tell. */
  private skipBom(): boolean {
    if (this.started) return true;
    if (this.buffer.length < UTF8_BOM.length && !this.ended) return false;
    if (this.buffer.subarray(0, UTF8_BOM.length).equals(UTF8_BOM)) this.pos = this.recordStart = this.fieldStart = UTF8_BOM.length;
    this.started = true;
    return true;
  }

  /** A record may not grow past the limit: checked before each byte of it is taken. */
  private checkLength(): void {
    if (this.pos - this.recordStart < this.maxRecordBytes) return;
    throw new ScanError({ kind: 'recordTooLong', line: this.recordLine, fieldCount: this.fieldCount, quoteOpenedOn: this.quoteOpenedOn });
  }

  /**
   * A quote inside a quoted field: with another after it, an escaped quote; before a comma,
   * a line break or the end, the field's closing quote; before anything else, text, and the
   * field goes on unquoted with its opening quote kept (csv-parse's relax_quotes).
   */
  private quoteInQuotes(following: number | undefined): void {
    if (following === QUOTE) {
      this.fieldText += this.decode(this.fieldStart, this.pos + 1);
      this.pos += 2;
      this.fieldStart = this.pos;
      return;
    }
    this.fieldText += this.decode(this.fieldStart, this.pos);
    this.quoteOpenedOn = undefined;
    if (following === undefined || following === COMMA || following === CR || following === LF) {
      this.pos++;
      this.fieldStart = this.pos;
    } else {
      this.fieldText = `"${this.fieldText}`;
      this.fieldStart = this.pos;
      this.pos++;
    }
  }

  /** A line break outside quotes: the end of a record, of a blank line, or the LF of a CRLF. */
  private lineBreak(completesCrlf: boolean, keepFields: number): ScannedRecord | undefined {
    const line = this.line;
    if (!completesCrlf) this.line++;
    const blank = this.fieldCount === 0 && this.pos === this.fieldStart && this.fieldText === '' && !this.fieldQuoted;
    const record = blank ? undefined : this.takeRecord(line, keepFields);
    this.pos++;
    this.recordStart = this.fieldStart = this.pos;
    this.recordLine = this.line;
    return record;
  }

  /** At the end of the input: the last record when it has no line break after it. */
  private last(keepFields: number): ScannedRecord | undefined {
    if (this.quoteOpenedOn !== undefined) throw new ScanError({ kind: 'quoteNotClosed', quoteOpenedOn: this.quoteOpenedOn });
    if (this.fieldCount === 0 && this.pos === this.fieldStart && this.fieldText === '' && !this.fieldQuoted) return undefined;
    const record = this.takeRecord(this.line, keepFields);
    this.recordStart = this.fieldStart = this.pos;
    return record;
  }

  private takeRecord(line: number, keepFields: number): ScannedRecord {
    this.endField(keepFields);
    const record = { line, fieldCount: this.fieldCount, fields: this.fields };
    this.fields = [];
    this.fieldCount = 0;
    return record;
  }

  private endField(keepFields: number): void {
    if (this.fieldCount < keepFields) this.fields.push(this.fieldText + this.decode(this.fieldStart, this.pos));
    this.fieldCount++;
    this.fieldText = '';
    this.fieldQuoted = false;
  }

  private decode(start: number, end: number): string {
    return this.buffer.toString('utf8', start, end);
  }
}
