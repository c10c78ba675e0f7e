import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidCsv, MAX_COLUMNS, MAX_RECORD_BYTES, openCsv, SLICE_ROWS, type CsvRow } from '../../../runtime/imports/csv-records.js';

/**
 * The CSV reader of validateUpload and imports (runtime/imports/csv-records.ts): the records it
 * finds are csv-parse's, however the file is cut into chunks; its limits are file errors that
 * say what is wrong; and it gives the event loop a turn every slice of rows (issue #25).
 */

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(file: string | Buffer, chunkSize = 1024 * 1024): Promise<{ headers: readonly string[]; rows: CsvRow[] }> {
  const bytes = typeof file === 'string' ? Buffer.from(file) : file;
  const csv = await openCsv(chunksOf(bytes, chunkSize));
  const rows: CsvRow[] = [];
  for await (const row of csv.rows) rows.push(row);
  return { headers: csv.headers, rows };
}

async function refusal(file: string | Buffer, chunkSize?: number): Promise<string> {
  try {
    await read(file, chunkSize);
  } catch (error) {
    if (error instanceof InvalidCsv) return error.message;
    throw error;
  }
  throw new Error('the file was read');
}

/** What csv-parse makes of the file, with the options Cadence used to read files with. */
function csvParseRecords(text: string): { line: number; record: string[] }[] {
  const parsed = parse(text, {
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
  }) as unknown as { record: string[]; info: { lines: number } }[];
  return parsed.map(({ record, info }) => ({ line: info.lines, record }));
}

describe('records', () => {
  it('are the ones csv-parse finds, whatever the chunk sizes', async () => {
    const text = fc.array(fc.constantFrom('a', 'é', ',', '"', '\n', '\r', ' ', 'b'), { maxLength: 40 }).map((chars) => chars.join(''));
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 7 }), async (body, chunkSize) => {
        const file = `\uFEFFh1,h2\n${body}`;
        let expected: { line: number; record: string[] }[];
        try {
          expected = csvParseRecords(file);
        } catch {
          // An unclosed quote: both refuse the file.
          expect(await refusal(file, chunkSize)).toMatch(/^A quote opened on line \d+ is never closed$/);
          return;
        }
        const { headers, rows } = await read(file, chunkSize);
        expect(headers).toEqual(expected[0]!.record);
        expect(rows.map((row) => ('values' in row ? row.values : row.malformed))).toEqual(
          expected
            .slice(1)
            .map(({ record }) => (record.length === 2 ? record : `The row has ${record.length} field${record.length === 1 ? '' : 's'}; the header row has 2`)),
        );
        // csv-parse counts a CRLF inside quotes as two lines; outside them as one, as here.
        if (!/"[^"]*\r\n/.test(body)) expect(rows.map((row) => row.line)).toEqual(expected.slice(1).map((r) => r.line));
      }),
      { numRuns: 2000 },
    );
  });

  it('read a BOM, quoted commas, quotes and line breaks, CRLF, LF and CR, skipping blank lines', async () => {
    const { headers, rows } = await read('\uFEFFname,note\r\n\r\n"Ada, L.","said ""hi""\nthen left"\rBob,x"y\n\n"",\n', 3);
    expect(headers).toEqual(['name', 'note']);
    expect(rows).toEqual([
      { line: 4, values: ['Ada, L.', 'said "hi"\nthen left'] },
      { line: 5, values: ['Bob', 'x"y'] },
      { line: 7, values: ['', ''] },
    ]);
  });

  it('with another field count than the header are malformed rows, counted in order with the others', async () => {
    const { rows } = await read(`a,b\nx\n1,2\n${','.repeat(5000)}\n`);
    expect(rows).toEqual([
      { line: 2, malformed: 'The row has 1 field; the header row has 2' },
      { line: 3, values: ['1', '2'] },
      { line: 4, malformed: 'The row has 5001 fields; the header row has 2' },
    ]);
  });
});

describe('a file is refused, saying why', () => {
  const mib = MAX_RECORD_BYTES;
  it.each([
    ['an empty file', '', 'The file is empty: a CSV file starts with a header row'],
    ['blank lines only', '\n\r\n\n', 'The file is empty: a CSV file starts with a header row'],
    ['an empty header name', 'a,,b\n', 'Column 2 of the header row has no name'],
    ['a repeated header name', 'a,b,a\n', 'The header row names "a" more than once'],
    ['a NUL byte', 'a,b\n1,\u00002\n', 'The file contains NUL bytes; a CSV file is text'],
    ['an unclosed quote at the end', 'a,b\n1,2\n3,"four\n5,6\n', 'A quote opened on line 3 is never closed'],
    ['a field over the limit', `a\n${'x'.repeat(2 * mib)}\n`, 'The row starting on line 2 is over 1 MiB, the most a record may take'],
    ['a row over the limit in short fields', `a,b\n1,2\n${'x,'.repeat(mib / 2 + 1)}\n`, 'The row starting on line 3 is over 1 MiB, the most a record may take'],
    [
      'a quote left open before more than the limit',
      `a,b\n1,"open\n${'y'.repeat(10 * mib)}\n`,
      'A quote opened on line 2 is not closed within 1 MiB, the most a record may take',
    ],
    ['a header over the limit', `${'h'.repeat(mib + 1)}\n1\n`, 'The header row is over 1 MiB, the most a record may take'],
    ['a header of a million columns', `${'c,'.repeat(999_999)}c\n`, `The header row has over 524288 columns; at most ${MAX_COLUMNS} are allowed`],
    ['a header of a million empty names', `${','.repeat(999_999)}\n`, `The header row has 1000000 columns; at most ${MAX_COLUMNS} are allowed`],
    ['a header of 1,001 columns', `${Array.from({ length: 1001 }, (_, i) => `c${i}`).join(',')}\n`, 'The header row has 1001 columns; at most 1000 are allowed'],
  ])('%s', async (_what, file, message) => {
    expect(await refusal(file, 64 * 1024)).toBe(message);
  });

  it('invalid UTF-8, naming how far into the file it is', async () => {
    const file = Buffer.concat([Buffer.from('name\nJos'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(await refusal(file)).toBe('The file is not UTF-8 text: an invalid byte sequence ends within its first 10 bytes');
  });

  it('a header of exactly the limit of columns is read', async () => {
    const names = Array.from({ length: MAX_COLUMNS }, (_, i) => `c${i}`);
    expect((await read(`${names.join(',')}\n`)).headers).toEqual(names);
  });

  it('a record of exactly the limit is read', async () => {
    const { rows } = await read(`a\n${'x'.repeat(mib)}\n`, 64 * 1024);
    expect(rows).toEqual([{ line: 2, values: ['x'.repeat(mib)] }]);
  });

  it('a quote left open fails once past the limit, before the rest of the file is read', async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      yield Buffer.from('a,b\n1,"open\n');
      for (;;) {
        read += 64 * 1024;
        yield Buffer.alloc(64 * 1024, 'y');
      }
    }
    const file = await openCsv(endless());
    await expect(
      (async () => {
        for await (const row of file.rows) void row;
      })(),
    ).rejects.toThrow('A quote opened on line 2 is not closed within 1 MiB, the most a record may take');
    expect(read).toBeLessThanOrEqual(MAX_RECORD_BYTES + 64 * 1024);
  });
});

describe('slices', () => {
  it('give the event loop a turn at least every SLICE_ROWS rows, malformed or not', async () => {
    const file = Buffer.from(`Email,Name\n${'x\n'.repeat(20_000)}${'a@example.com,Ada\n'.repeat(20_000)}`);
    let turns = 0;
    let mostRowsBetweenTurns = 0;
    let rowsSinceTurn = 0;
    // Runs once in every turn of the event loop, until the file is read.
    let ticker: NodeJS.Immediate;
    const tick = () => {
      turns++;
      rowsSinceTurn = 0;
      ticker = setImmediate(tick);
    };
    ticker = setImmediate(tick);
    try {
      const csv = await openCsv(chunksOf(file, 1024 * 1024));
      let count = 0;
      for await (const row of csv.rows) {
        void row;
        count++;
        mostRowsBetweenTurns = Math.max(mostRowsBetweenTurns, ++rowsSinceTurn);
      }
      expect(count).toBe(40_000);
    } finally {
      clearImmediate(ticker);
    }
    expect(mostRowsBetweenTurns).toBeLessThanOrEqual(SLICE_ROWS);
    expect(turns).toBeGreaterThanOrEqual(40_000 / SLICE_ROWS);
  });
});
