import { describe, expect, it } from 'vitest';
import { addressPattern } from '../../../runtime/compliance/erasure/address.js';
import { findRecordsHolding, placeholderRecord } from '../../../runtime/compliance/erasure/csv-redaction.js';
import { PIECE_BYTES } from '../../../runtime/slices.js';
import { openCsv } from '../../../runtime/imports/csv-records.js';

/** The byte ranges of CSV records holding the address, and placeholders that import as malformed rows. */

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function redacted(text: string, size = 3): Promise<string> {
  const bytes = Buffer.from(text, 'utf8');
  const found = await findRecordsHolding(chunksOf(bytes, size), addressPattern('jane@x.com'));
  for (const range of found.ranges) placeholderRecord(range.end - range.start, found.headerCount).copy(bytes, range.start);
  return bytes.toString('utf8');
}

async function rowsOf(text: string) {
  const file = await openCsv(chunksOf(Buffer.from(text, 'utf8'), 5));
  const rows = [];
  for await (const row of file.rows) rows.push('values' in row ? row.values : 'malformed');
  return rows;
}

describe('findRecordsHolding and placeholderRecord', () => {
  it.each([
    ['several columns, a BOM, blank lines and CR line ends', '\uFEFFa,b\r\n\r\nJANE@X.COM,1\rö,2\n\n"x\ny","<jane@x.com>"\n', [['ö', '2']]],
    ['one column, without a final line break', 'email\nada@x.org\njane@x.com', [['ada@x.org']]],
    ['the header naming the address is kept', 'jane@x.com,b\n1,2\n', [['1', '2']]],
  ])('%s', async (_, text, kept) => {
    const after = await redacted(text);
    expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(text));
    const rows = await rowsOf(after);
    expect(rows.filter((r) => r !== 'malformed')).toEqual(kept);
    expect(rows.length).toBe((await rowsOf(text)).length);
    expect(after.replace(/^[^\n]*\n/, '').toLowerCase()).not.toContain('jane@x.com');
  });
});

describe('findRecordsHolding over a large file', () => {
  it('gives the event loop a turn every 64 KiB, however large the chunks it is given', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => `person${i}@x.org,First${i},${'n'.repeat(40)}`);
    rows[30_000] = `jane@x.com,Jane,${'n'.repeat(40)}`;
    const bytes = Buffer.from(`email,first,notes\n${rows.join('\n')}\n`);
    // What else the process has to do: counted once per turn of the event loop.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const found = await findRecordsHolding(chunksOf(bytes, bytes.length), addressPattern('jane@x.com'));
    ticking = false;
    expect(found.ranges).toHaveLength(1);
    // One chunk of 2.6 MB: had it been parsed in one stretch, the counter would not have moved.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(bytes.length / PIECE_BYTES) - 1);
  });
});
