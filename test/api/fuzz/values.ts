import fc from 'fast-check';
import type { AttributeDescriptor, ResourceDescriptor } from '../../../runtime/model/descriptor.js';

/**
 * The values of fuzzed requests: plausible ones (what a schema accepts) and hostile ones, and
 * how hostile a request is. Each request first draws its hostility: most are hostile in one kind
 * of value only (timestamps, numbers, text, ids, or the request's shape), so that the rest of them
 * is right and they get as far as the database; some are not hostile at all, some everywhere.
 */

export type DescriptorOf = (type: string) => ResourceDescriptor | undefined;

/** Values a resource's schema accepts for an attribute beyond what its descriptor says (formats, patterns). */
export type SampleOf = (type: string, attribute: AttributeDescriptor) => readonly unknown[];

/** A JSON literal written as is: numbers JSON.stringify cannot write (1e400), or text that is not JSON. */
class RawJson {
  constructor(readonly text: string) {}
}
export const raw = (text: string) => new RawJson(text);

/** JSON text of a value that may hold RawJson literals. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Timestamps JavaScript and PostgreSQL read differently, or one of them cannot read. */
const TIMESTAMPS_READ_DIFFERENTLY = ['2026-12-31T23:59:60Z', '0000-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01T00:00:00+23:59'];

/** Timestamps JavaScript or PostgreSQL cannot represent, or represent differently. */
export const HOSTILE_TIMESTAMPS = [
  ...TIMESTAMPS_READ_DIFFERENTLY,
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '294277-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '-000001-01-01T00:00:00Z',
  '4714-11-24T00:00:00Z BC',
  '2026-01-01T00:00:00.1234567Z',
  '2026-01-01',
  'infinity',
  '-infinity',
  'epoch',
  'now',
];

/** Numbers as text: past int4, int8 and 2^53, not finite, not integers. */
export const HOSTILE_NUMBER_TEXT = [
  '9223372036854775807',
  '9223372036854775808',
  '99999999999999999999',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '-1',
  '0',
  '-0',
  '1e400',
  '-1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '1.5',
  '0x10',
  ' 1',
  '1 ',
  '１',
  '007',
];

export const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '',
  ' ',
  '[]',
  '{}',
  'null',
  'true',
  '__null__',
  '__notnull__',
  '..',
  'neginf..inf',
  ',',
  '\ud800',
  '\udfff',
  'a\ud83d',
  '😀',
  'é',
  '\u202e',
  "'; select pg_sleep(10); --",
  '%00',
  '\\',
  '"',
  '__proto__',
  'constructor',
  ...HOSTILE_TIMESTAMPS,
  ...HOSTILE_NUMBER_TEXT,
];

/** `arbitrary` with probability `p`, otherwise `absent`. */
export function maybe<T, A = undefined>(arbitrary: fc.Arbitrary<T>, p: number, absent?: A): fc.Arbitrary<T | A> {
  const weight = Math.round(p * 1000);
  if (weight <= 0) return fc.constant(absent as A);
  if (weight >= 1000) return arbitrary;
  return fc.oneof({ weight, arbitrary }, { weight: 1000 - weight, arbitrary: fc.constant(absent as A) });
}

/** `hostile` with probability `h`, otherwise `plausible`. */
export function either<T, U>(h: number, plausible: fc.Arbitrary<T>, hostile: fc.Arbitrary<U>): fc.Arbitrary<T | U> {
  const weight = Math.round(h * 1000);
  if (weight <= 0) return plausible;
  if (weight >= 1000) return hostile;
  return fc.oneof({ weight: 1000 - weight, arbitrary: plausible }, { weight, arbitrary: hostile });
}

/** How hostile a request is: the probability of each kind of value in it being hostile. */
export interface Hostility {
  /** Timestamps (attributes, filters, action parameters). */
  readonly time: number;
  /** Numbers, including page sizes and offsets. */
  readonly number: number;
  readonly text: number;
  /** Ids: in paths, relationship linkage, filters. */
  readonly id: number;
  /** The shape of the request: members, parameters, types, media types. */
  readonly shape: number;
}
export type ValueKind = Exclude<keyof Hostility, 'shape'>;

export const CALM: Hostility = { time: 0, number: 0, text: 0, id: 0, shape: 0 };
/**
 * Most requests are hostile in one kind of value only, so that the rest of them is right and
 * they get as far as the database; some are not hostile at all, some hostile everywhere.
 */
export const hostility: fc.Arbitrary<Hostility> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(CALM) },
  { weight: 8, arbitrary: fc.constantFrom<keyof Hostility>('time', 'number', 'text', 'id', 'shape').map((kind) => ({ ...CALM, [kind]: 0.6 })) },
  { weight: 2, arbitrary: fc.constant({ time: 0.3, number: 0.3, text: 0.3, id: 0.3, shape: 0.3 }) },
);

/** Nesting far deeper than any document needs, written as text (serialising it would recurse). */
export const deepArray = (depth: number) => raw(`${'['.repeat(depth)}${']'.repeat(depth)}`);
export const deepObject = (depth: number) => raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/** Long text; past the test server's 64 KiB body limit and Node's 16 KiB header limit at times. */
export const longText = fc
  .oneof(
    { weight: 6, arbitrary: fc.constant(300) },
    { weight: 3, arbitrary: fc.constant(5_000) },
    { weight: 1, arbitrary: fc.constant(20_000) },
    { weight: 1, arbitrary: fc.constant(70_000) },
  )
  .map((n) => 'x'.repeat(n));

export const hostileString = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: longText },
);

/** Any JSON value, mostly one a server might not expect. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e308, -1e308, 5e-324) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...['1e400', '-1e400', '9223372036854775807', '99999999999999999999', '-0', '1E-400', '0.0000000000000000000001'].map(raw)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      [],
      {},
      [null],
      [[]],
      { '': null },
      raw('{"__proto__":{"x":1}}'),
      deepArray(40),
      deepObject(40),
      deepArray(20_000),
      deepObject(20_000),
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.constantFrom<unknown>(...HOSTILE_TEXT, null, 1, 1.5, []), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', ''), fc.constantFrom<unknown>(null, 'x', 1, [], {})) },
);

/** A value of an attribute's type that its schema plausibly accepts. */
export function plausibleValue(a: AttributeDescriptor, samples: readonly unknown[], type = a.type): fc.Arbitrary<unknown> {
  if (a.enum && a.enum.length) return fc.constantFrom(...a.enum);
  if (samples.length && type === a.type) return fc.constantFrom(...samples);
  if (a.format === 'date-time')
    return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  if (a.format === 'date') return fc.constantFrom('2026-01-15', '1999-12-31');
  if (a.format === 'email') return fc.constantFrom('a@example.test', 'b@example.test');
  if (a.format === 'uri') return fc.constantFrom('https://hooks.example.test/x', 'https://localhost/x');
  switch (type) {
    case 'integer':
      return fc.integer({ min: -5, max: 100 });
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.constantFrom({}, { key: 'value' });
    case 'array':
      return fc.array(plausibleValue(a, [], a.itemType ?? 'string'), { maxLength: 3 });
    default:
      return fc.string({ maxLength: 12 });
  }
}

const isTime = (a: AttributeDescriptor | undefined) => a?.format === 'date-time' || a?.format === 'date';
const isNumeric = (a: AttributeDescriptor | undefined) =>
  a === undefined || a.type === 'integer' || a.type === 'number' || a.itemType === 'integer' || a.itemType === 'number';
/** The kind of value an attribute holds (an id when undefined). */
export const kindOf = (a: AttributeDescriptor | undefined): ValueKind => (a === undefined ? 'id' : isTime(a) ? 'time' : isNumeric(a) ? 'number' : 'text');

/** Hostile timestamps, mostly those the two sides read differently. */
export const hostileTimestamp = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...TIMESTAMPS_READ_DIFFERENTLY) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_TIMESTAMPS) },
);

/** Hostile text for an attribute (an id when undefined): mostly an edge case of its own type. */
export function hostileTextFor(a: AttributeDescriptor | undefined): fc.Arbitrary<string> {
  const ownKind = isTime(a) ? hostileTimestamp : isNumeric(a) ? fc.constantFrom(...HOSTILE_NUMBER_TEXT) : hostileString;
  return fc.oneof({ weight: 3, arbitrary: ownKind }, { weight: 1, arbitrary: hostileString });
}

/** A hostile value for an attribute: an edge case of its own type, or anything. */
export function hostileValue(a: AttributeDescriptor): fc.Arbitrary<unknown> {
  const ownKind = isTime(a)
    ? hostileTimestamp
    : isNumeric(a) && a.type !== 'array'
      ? fc.constantFrom(...['1e400', '9223372036854775807', '2147483648', '-2147483649', '99999999999999999999', '1.0', '-0', '1e-400'].map(raw))
      : a.type === 'array'
        ? fc.array(hostileJson, { maxLength: 3 })
        : hostileString;
  return fc.oneof({ weight: 3, arbitrary: ownKind }, { weight: 1, arbitrary: hostileJson });
}

/** Ids that may exist (small numbers, as numbers or strings), or that cannot. */
export const plausibleId = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }) });
export const hostileId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBER_TEXT, 'abc', '', '\u0000', '1\u0000') },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(0, -1, 1.5, 2 ** 53, 1e20, raw('9223372036854775807'), raw('1e400')) },
  { weight: 1, arbitrary: hostileJson },
);
export const plausibleIdValue = fc.oneof(plausibleId, plausibleId.map(String));

/** An id as a path segment: digits reach the member routes, anything else the fallbacks. */
export const hostilePathId = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '9223372036854775807',
      '9223372036854775808',
      '99999999999999999999',
      '9007199254740993',
      '9007199254740991',
      '0',
      '00',
      '007',
      '2147483648',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('-1', '1e3', '1.5', '%00', '1%00', '%EF%BC%91', 'x', '%', '%zz', '..', '%2e%2e', '1;x') },
);
export const pathId = (h: Hostility) => either(h.id, plausibleId.map(String), hostilePathId);

export const defined = <T>(entries: readonly (T | undefined)[]) => entries.filter((e): e is T => e !== undefined);
