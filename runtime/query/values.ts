import { invalidQueryParameter } from '../jsonapi/index.js';
import type { AttributeDescriptor } from '../model/descriptor.js';
import { isRepresentableDate, parseTimestamp } from '../model/timestamps.js';

/**
 * Parses a filter value by its attribute's type, so a bad value is a 400 naming the parameter
 * instead of a PostgreSQL cast error, and returns it with the SQL cast to apply to it.
 */

const INT4_MAX = 2147483647;

export interface TypedValue {
  readonly value: string | number | boolean;
  readonly cast: string;
}

/** The SQL type a parameter compared with the attribute's column is cast to. */
export function castOf(a: AttributeDescriptor, forElement = false): string {
  const type = a.type === 'array' && forElement ? a.itemType! : a.type;
  if (a.format === 'date-time') return '::timestamptz';
  if (a.format === 'date') return '::date';
  if (type === 'integer') return a.relationshipIdOf ? '::bigint' : '::int';
  if (type === 'number') return '::float8';
  if (type === 'boolean') return '::boolean';
  return '::text';
}

export function parseFilterValue(parameter: string, a: AttributeDescriptor, text: string): TypedValue {
  const type = a.type === 'array' ? a.itemType! : a.type;
  const fail = (what: string) => invalidQueryParameter(parameter, `${JSON.stringify(text)} is not ${what}`);
  if (a.format === 'date-time') {
    // A date alone means its midnight UTC, as clients of the real service expect of
    // `filter[createdAt]=2020-01-01..inf`.
    if (isRepresentableDate(text)) return { value: `${text}T00:00:00Z`, cast: '::timestamptz' };
    if (!parseTimestamp(text)) throw fail('an ISO 8601 timestamp that exists (years 0001–9999, seconds 0–59, offsets within ±15:59)');
    return { value: text, cast: '::timestamptz' };
  }
  if (a.format === 'date') {
    if (!isRepresentableDate(text)) throw fail('a date (YYYY-MM-DD) that exists');
    return { value: text, cast: '::date' };
  }
  if (type === 'integer') {
    const limit = a.relationshipIdOf ? Number.MAX_SAFE_INTEGER : INT4_MAX;
    if (!/^-?\d{1,16}$/.test(text) || Math.abs(Number(text)) > limit) throw fail('an integer');
    return { value: Number(text), cast: castOf(a) };
  }
  if (type === 'number') {
    if (text.trim() === '' || !Number.isFinite(Number(text))) throw fail('a number');
    return { value: Number(text), cast: '::float8' };
  }
  if (type === 'boolean') {
    if (text !== 'true' && text !== 'false') throw fail('true or false');
    return { value: text === 'true', cast: '::boolean' };
  }
  if (a.enum && !a.enum.includes(text)) throw fail(`one of ${a.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  return { value: text, cast: '::text' };
}
