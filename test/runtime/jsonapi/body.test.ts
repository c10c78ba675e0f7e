import { describe, expect, it } from 'vitest';
import { ApiError, parseLargeRequestBody, parseRequestBody } from '../../../runtime/jsonapi/index.js';

/**
 * Request bodies (runtime/jsonapi/body.ts): parseLargeRequestBody, for bulk upserts, answers
 * what parseRequestBody answers, the first problem in document order included, and lets the
 * event loop run while it checks a large body (issue #25).
 */

async function outcome(parse: (text: string) => unknown, text: string): Promise<unknown> {
  try {
    return { parsed: await parse(text) };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, errors: error.errors };
    throw error;
  }
}

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) });
const many = Array.from({ length: 50_000 }, (_, i) => ({ data: { type: 'prospect', attributes: { firstName: `F${i}` } } }));

describe('parseLargeRequestBody', () => {
  it.each([
    ['a document', JSON.stringify({ data: { attributes: { records: [{ a: 1 }, ['x', null, true]] } } })],
    ['an empty body', '  '],
    ['invalid JSON', '{"data":'],
    ['a top-level array', '[]'],
    ['a NUL in a value', JSON.stringify({ data: { attributes: { name: 'a\u0000b' } } })],
    ['a NUL in a key', JSON.stringify({ data: { ['k\u0000']: 1 } })],
    ['nesting of 32 levels', JSON.stringify({ data: nested(31) })],
    ['nesting of 33 levels', JSON.stringify({ data: nested(32) })],
    // Whichever comes first in the document is the one reported.
    ['a NUL before deep nesting', JSON.stringify({ data: { first: '\u0000', then: nested(40) } })],
    ['deep nesting before a NUL', JSON.stringify({ data: { first: nested(40), then: '\u0000' } })],
    ['a NUL late in a large body', JSON.stringify({ data: { attributes: { records: [...many, { x: '\u0000' }] } } })],
  ])('answers %s as parseRequestBody does', async (_what, text) => {
    expect(await outcome(parseLargeRequestBody, text)).toEqual(await outcome(parseRequestBody, text));
  });

  it('reports the first problem in document order', async () => {
    const detail = async (text: string) => ((await outcome(parseLargeRequestBody, text)) as { errors: { detail: string }[] }).errors[0]!.detail;
    expect(await detail(JSON.stringify({ data: { first: '\u0000', then: nested(40) } }))).toBe('Strings must not contain the NUL character (\\u0000)');
    expect(await detail(JSON.stringify({ data: { first: nested(40), then: '\u0000' } }))).toBe('The request body is nested deeper than 32 levels');
  });

  it('gives the event loop turns while it checks a large body', async () => {
    const text = JSON.stringify({ data: { attributes: { records: many } } });
    let turns = 0;
    let ticker: NodeJS.Immediate;
    const tick = () => {
      turns++;
      ticker = setImmediate(tick);
    };
    ticker = setImmediate(tick);
    try {
      await parseLargeRequestBody(text);
    } finally {
      clearImmediate(ticker);
    }
    // 50,000 records of 8 keys and values each: 40 slices of 10,000.
    expect(turns).toBeGreaterThanOrEqual(30);
  });
});
