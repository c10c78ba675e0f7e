import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../runtime/jsonapi/index.js';
import type { ParamSchema } from '../../../runtime/model/descriptor.js';
import { actionParams } from '../../../runtime/engine/query-params.js';

/** actionParams against each kind of x-paramSchemas entry: the text a handler gets, or the 400's detail. */

function parse(schema: ParamSchema, value: string): string | { refused: string } {
  const declared = { optionalParams: ['p'], requiredParams: [], paramSchemas: { p: schema } };
  try {
    return actionParams(new Map([['actionParams[p]', [value]]]), declared).get('p')!;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.errors[0]!.source).toEqual({ parameter: 'actionParams[p]' });
    return { refused: error.errors[0]!.detail };
  }
}

const dateTime: ParamSchema = { type: 'string', format: 'date-time' };
const id: ParamSchema = { type: 'integer', minimum: 1 };
const flag: ParamSchema = { type: 'boolean' };
const DATE_TIME = 'actionParams[p] must be an ISO 8601 timestamp with a time zone that exists, such as 2025-01-31T09:00:00Z';

const cases: { schema: ParamSchema; value: string; want: string | { refused: string } }[] = [
  { schema: { type: 'string', format: 'date-time' }, value: '2026-03-10T12:00:00Z', want: '2026-03-10T12:00:00Z' },
  { schema: { type: 'string', format: 'date-time' }, value: '2026-03-10T12:00:00.5+05:30', want: '2026-03-10T12:00:00.5+05:30' },
  ...['1', '2001', 'tomorrow', '2026-03-10', '2026-03-10T12:00:00', '2026-02-29T12:00:00Z', '2026-03-10T24:00:00Z', ''].map((value) => ({
    schema: dateTime,
    value,
    want: { refused: DATE_TIME },
  })),
  { schema: { type: 'integer', minimum: 1 }, value: '42', want: '42' },
  { schema: { type: 'integer', minimum: 1 }, value: '9007199254740991', want: '9007199254740991' },
  ...['0', '-1', '+1', '1.0', '1e3', '007', ' 1', '9007199254740992', ''].map((value) => ({
    schema: id,
    value,
    want: { refused: 'actionParams[p] must be an integer in digits from 1 to 9007199254740991' },
  })),
  { schema: { type: 'integer', minimum: 0, maximum: 10 }, value: '0', want: '0' },
  { schema: { type: 'integer', minimum: 0, maximum: 10 }, value: '11', want: { refused: 'actionParams[p] must be an integer in digits from 0 to 10' } },
  { schema: { type: 'boolean' }, value: 'true', want: 'true' },
  { schema: { type: 'boolean' }, value: 'false', want: 'false' },
  ...['1', 'TRUE', 'yes', ''].map((value) => ({ schema: flag, value, want: { refused: 'actionParams[p] must be true or false' } })),
  { schema: { type: 'string', enum: ['a', 'b'] }, value: 'b', want: 'b' },
  { schema: { type: 'string', enum: ['a', 'b'] }, value: 'A', want: { refused: 'actionParams[p] must be one of a, b' } },
  { schema: { type: 'string', maxLength: 3 }, value: 'ééé', want: 'ééé' },
  { schema: { type: 'string', maxLength: 3 }, value: 'abcd', want: { refused: 'actionParams[p] must be at most 3 characters long' } },
  { schema: { type: 'string' }, value: '', want: '' },
  { schema: { type: 'object' }, value: 'x', want: { refused: 'actionParams[p] must be given by its parts, as actionParams[p][<key>]' } },
];

describe('actionParams checks each value against its schema', () => {
  test.each(cases)('$schema.type $schema.format $value', ({ schema, value, want }) => {
    expect(parse(schema, value)).toEqual(want);
  });

  test('a declared parameter without a schema (an inline declaration) is taken as text', () => {
    expect(actionParams(new Map([['actionParams[hash]', ['anything']]]), { optionalParams: [], requiredParams: ['hash'] }).get('hash')).toBe('anything');
  });
});
