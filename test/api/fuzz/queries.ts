import fc from 'fast-check';
import type { AttributeDescriptor, ResourceDescriptor, ToManyDescriptor, ToOneDescriptor } from '../../../runtime/model/descriptor.js';
import {
  either,
  HOSTILE_NUMBER_TEXT,
  hostileString,
  hostileTextFor,
  kindOf,
  maybe,
  plausibleId,
  plausibleValue,
  type DescriptorOf,
  type Hostility,
  type SampleOf,
} from './values.js';

/** Query parameters of fuzzed requests: filters, sort, pages, include, fields, count. */

/** A query parameter; `raw` ones are written into the URL without encoding. */
export type QueryParam = readonly [name: string, value: string, raw?: boolean];

/**
 * Percent-encodes text as UTF-8, except that a lone surrogate (which encodeURIComponent refuses)
 * becomes the three bytes it would have in WTF-8: a sequence no UTF-8 decoder accepts.
 */
function percentEncode(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) => {
    const unit = part.charCodeAt(0);
    const lone = part.length === 1 && unit >= 0xd800 && unit <= 0xdfff;
    if (!lone) return encodeURIComponent(part);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  });
}

export function queryString(params: readonly QueryParam[]): string {
  if (params.length === 0) return '';
  return `?${params.map(([name, value, isRaw]) => (isRaw ? `${name}=${value}` : `${percentEncode(name)}=${percentEncode(value)}`)).join('&')}`;
}

/** Text of a filter value for `a` (an id when undefined): of its type, or not. */
function filterText(a: AttributeDescriptor | undefined, h: Hostility, samplesOf: SampleOf, type: string): fc.Arbitrary<string> {
  const plausible = a
    ? plausibleValue(a, a.type === 'array' ? [] : samplesOf(type, a), a.type === 'array' ? (a.itemType ?? 'string') : a.type).map((v) =>
        typeof v === 'string' ? v : JSON.stringify(v),
      )
    : plausibleId.map(String);
  return either(h[kindOf(a)], plausible, hostileTextFor(a));
}

function filterParams(d: ResourceDescriptor, h: Hostility, samplesOf: SampleOf, descriptorOf: DescriptorOf): fc.Arbitrary<QueryParam[]> {
  const filterable = d.attributes.filter((a) => a.filterable);
  // Filters on attributes of the kind a request is hostile in, where there are some.
  const focused = filterable.filter((a) => h[kindOf(a)] > 0);
  const attribute = focused.length ? fc.constantFrom(...focused) : fc.constantFrom<AttributeDescriptor | undefined>(undefined, ...filterable);
  const named = (a: AttributeDescriptor | undefined) => a?.name ?? 'id';
  const text = (a: AttributeDescriptor | undefined) => filterText(a, h, samplesOf, d.type);
  const classic = attribute.chain((a) =>
    fc.oneof(
      text(a).map((v) => [[`filter[${named(a)}]`, v]] as QueryParam[]),
      fc.tuple(fc.oneof(text(a), fc.constant('neginf')), fc.oneof(text(a), fc.constant('inf'))).map(([x, y]) => [[`filter[${named(a)}]`, `${x}..${y}`]] as QueryParam[]),
      fc.tuple(text(a), text(a)).map(([x, y]) => [[`filter[${named(a)}]`, `${x},${y}`]] as QueryParam[]),
      fc.constantFrom('__null__', '__notnull__').map((v) => [[`filter[${named(a)}]`, v]] as QueryParam[]),
    ),
  );
  const newSyntax = attribute.chain((a) =>
    fc
      .array(fc.tuple(fc.constantFrom('[]', '[gte]', '[lte]', ''), text(a)), { minLength: 1, maxLength: 3 })
      .map((parts) => [['newFilterSyntax', 'true'], ...parts.map(([key, v]) => [`filter[${named(a)}]${key}`, v] as QueryParam)] as QueryParam[]),
  );
  // A polymorphic to-one is no filter (the reference says so); the fuzz keeps to filters that are.
  const filterRelationships = d.relationships.filter((r): r is ToOneDescriptor | ToManyDescriptor => r.kind !== 'polymorphicToOne');
  const byRelationship = filterRelationships.length
    ? fc.constantFrom(...filterRelationships).chain((rel) => {
        const target = descriptorOf(rel.target);
        const keys = ['id', ...(rel.kind === 'toOne' ? rel.filterBy : [])];
        return fc.constantFrom(...keys).chain((key) => {
          const targetAttribute = key === 'id' ? undefined : target?.attributes.find((a) => a.name === key);
          return fc.tuple(filterText(targetAttribute, h, samplesOf, rel.target), fc.boolean()).map(([v, newer]) =>
            newer
              ? ([
                  ['newFilterSyntax', 'true'],
                  [`filter[${rel.name}][${key}][]`, v],
                ] as QueryParam[])
              : ([[`filter[${rel.name}][${key}]`, v]] as QueryParam[]),
          );
        });
      })
    : classic;
  const search = fc
    .tuple(text(undefined), fc.constantFrom('', ',firstName', ',name', ',nope', ','))
    .map(([v, suffix]) => [['filter[q]', `${v}${suffix}`]] as QueryParam[]);
  const odd = fc.oneof(
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'nope', '', 'a.b', 'id][id'), hostileString).map(([name, v]) => [[`filter[${name}]`, v]] as QueryParam[]),
    fc.constantFrom<QueryParam[]>(
      [['filter', 'x']],
      [['filter[]', 'x']],
      [['filter[a][b][c]', 'x']],
      [['filter[id]', '%', true]],
      [['filter[id]', '%ED%A0%80', true]],
      [['filter%5Bid%5D', '%00', true]],
      [['filter[id][x]', '1']],
    ),
  );
  return either(
    h.shape * 0.2,
    fc.oneof({ weight: 4, arbitrary: classic }, { weight: 3, arbitrary: newSyntax }, { weight: 3, arbitrary: byRelationship }, { weight: 1, arbitrary: search }),
    odd,
  );
}

function sortParam(d: ResourceDescriptor, h: Hostility): fc.Arbitrary<QueryParam[]> {
  const names = ['id', ...d.attributes.filter((a) => a.sortable).map((a) => a.name)];
  const hostile = fc.constantFrom('', '-', '--id', '+id', 'nope', '__proto__', 'account.name', ' id');
  const keys = fc
    .shuffledSubarray(names, { minLength: 1, maxLength: Math.min(3, names.length) })
    .chain((chosen) => fc.tuple(...chosen.map((name) => either(h.shape, fc.constantFrom(name, `-${name}`), hostile))));
  return keys.map((list) => [['sort', list.join(',')]]);
}

function pageParams(h: Hostility): fc.Arbitrary<QueryParam[]> {
  const number = either(
    h.number,
    fc.constantFrom('1', '2', '5', '100', '1000'),
    fc.constantFrom('0', '1001', '-1', '1e3', '', 'x', '1.5', '10001', ...HOSTILE_NUMBER_TEXT.slice(0, 5)),
  );
  // Cursors the server made come from links.next (the test follows them); these are forged.
  const cursor = fc.oneof(
    fc.constantFrom('', 'x', '.', 'a.b', 'eyJ9.x', '%00', 'W10.AAAA'),
    fc.base64String({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 24 }),
  );
  return fc.oneof(
    { weight: 4, arbitrary: number.map((v) => [['page[size]', v]] as QueryParam[]) },
    {
      weight: 1,
      arbitrary: fc.tuple(number, cursor).map(
        ([size, c]) =>
          [
            ['page[size]', size],
            ['page[after]', c],
          ] as QueryParam[],
      ),
    },
    { weight: 1, arbitrary: cursor.map((c) => [['page[before]', c]] as QueryParam[]) },
    { weight: 2, arbitrary: number.map((v) => [['page[offset]', v]] as QueryParam[]) },
    {
      weight: 1,
      arbitrary: fc.tuple(number, number).map(
        ([offset, limit]) =>
          [
            ['page[offset]', offset],
            ['page[limit]', limit],
          ] as QueryParam[],
      ),
    },
  );
}

export function includeParam(d: ResourceDescriptor, h: Hostility, descriptorOf: DescriptorOf): fc.Arbitrary<QueryParam[]> {
  // Link-only (to-many) relationships cannot be included: they are among the hostile paths.
  const toOnes = (of: ResourceDescriptor | undefined) => (of?.relationships ?? []).filter((r) => r.kind === 'toOne');
  const paths: string[] = [];
  for (const rel of toOnes(d)) {
    paths.push(rel.name);
    for (const next of toOnes(descriptorOf(rel.target))) paths.push(`${rel.name}.${next.name}`);
  }
  const toMany = d.relationships.find((r) => r.kind === 'toMany')?.name ?? 'nope';
  const hostile = fc.constantFrom(
    '',
    'nope',
    toMany,
    '..',
    'a.b.c.d.e',
    '__proto__',
    'constructor',
    `${paths[0] ?? 'x'}.${paths[0] ?? 'x'}.${paths[0] ?? 'x'}.${paths[0] ?? 'x'}`,
  );
  const path = paths.length ? either(h.shape, fc.constantFrom(...paths), hostile) : hostile;
  return fc.array(path, { minLength: 1, maxLength: 3 }).map((list) => [['include', list.join(',')]]);
}

export function fieldsParam(d: ResourceDescriptor, h: Hostility): fc.Arbitrary<QueryParam[]> {
  const names = [...d.attributes.map((a) => a.name), ...d.relationships.map((r) => r.name)];
  const type = either(h.shape, fc.constant(d.type), fc.constantFrom('prospect', 'nope', '__proto__', ''));
  const name = either(h.shape, fc.constantFrom(...names), fc.constantFrom('', 'nope', 'id', '__proto__'));
  return fc.tuple(type, fc.array(name, { maxLength: 3 })).map(([t, list]) => [[`fields[${t}]`, list.join(',')]]);
}

const countParam = (h: Hostility) =>
  either(h.shape, fc.constantFrom('true', 'false'), fc.constantFrom('1', '', 'TRUE', 'yes')).map((v) => [['count', v]] as QueryParam[]);
export const strayParam = fc.constantFrom<QueryParam[]>(
  [['nope', 'x']],
  [['page[x]', '1']],
  [['%00', 'x', true]],
  [['%', 'x', true]],
  [
    ['sort', 'id'],
    ['sort', '-id'],
  ],
  [
    ['include', 'a'],
    ['include', 'b'],
  ],
);
export const maybeParams = (arbitrary: fc.Arbitrary<QueryParam[]>, p: number) => maybe(arbitrary, p, [] as QueryParam[]);

export function listQuery(d: ResourceDescriptor, h: Hostility, samplesOf: SampleOf, descriptorOf: DescriptorOf): fc.Arbitrary<QueryParam[]> {
  return fc
    .tuple(
      fc.array(filterParams(d, h, samplesOf, descriptorOf), { maxLength: 2 }),
      maybeParams(sortParam(d, h), 0.4),
      maybeParams(pageParams(h), 0.4),
      maybeParams(includeParam(d, h, descriptorOf), 0.3),
      maybeParams(fieldsParam(d, h), 0.2),
      maybeParams(countParam(h), 0.3),
      maybeParams(strayParam, h.shape * 0.3),
    )
    .map(([filters, ...rest]) => [...filters.flat(), ...rest.flat()]);
}
