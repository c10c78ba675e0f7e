import fc from 'fast-check';
import type { PolymorphicToOneDescriptor, ResourceDescriptor, ToOneDescriptor } from '../../../runtime/model/descriptor.js';
import {
  defined,
  deepArray,
  either,
  hostileId,
  hostileJson,
  hostileValue,
  jsonText,
  kindOf,
  maybe,
  plausibleIdValue,
  plausibleValue,
  raw,
  type Hostility,
  type SampleOf,
} from './values.js';

/** Create and update bodies of fuzzed requests, from a resource's descriptor. */

function attributesArbitrary(d: ResourceDescriptor, h: Hostility, samplesOf: SampleOf, creating: boolean): fc.Arbitrary<Record<string, unknown>> {
  const entries = d.attributes.map((a) => {
    const value = either(h.shape * 0.3, either(h[kindOf(a)], plausibleValue(a, samplesOf(d.type, a)), hostileValue(a)), hostileJson);
    // Read-only attributes are sent too, sometimes: they must be refused cleanly. Attributes of
    // the kind a request is hostile in are nearly always there.
    const p = a.readOnly ? h.shape * 0.3 : (a.required && creating) || h[kindOf(a)] > 0 ? 0.9 : 0.4;
    return maybe(
      value.map((v) => [a.name, v] as const),
      p,
    );
  });
  const unknown = maybe(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'nope', ''), hostileJson), h.shape * 0.2);
  return fc.tuple(fc.tuple(...entries), unknown).map(([list, extra]) => Object.fromEntries(defined([...list, extra])));
}

function linkageArbitrary(rel: ToOneDescriptor | PolymorphicToOneDescriptor, h: Hostility): fc.Arbitrary<unknown> {
  const target = rel.kind === 'toOne' ? fc.constant(rel.target) : fc.constantFrom(...rel.targets);
  const plausible = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(target, plausibleIdValue).map(([type, id]) => ({ data: { type, id } })) },
    { weight: 1, arbitrary: fc.constant({ data: null }) },
  );
  const hostile = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(target, hostileId).map(([type, id]) => ({ data: { type, id } })) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('prospect', 'nope', ''), plausibleIdValue).map(([type, id]) => ({ data: { type, id } })) },
    { weight: 1, arbitrary: fc.tuple(target, plausibleIdValue, hostileJson).map(([type, id, meta]) => ({ data: { type, id, meta }, meta })) },
    { weight: 1, arbitrary: hostileJson.map((data) => ({ data })) },
    { weight: 1, arbitrary: hostileJson },
  );
  return either(Math.max(h.id, h.shape), plausible, hostile);
}

function relationshipsArbitrary(d: ResourceDescriptor, h: Hostility, creating: boolean): fc.Arbitrary<Record<string, unknown>> {
  const entries = d.relationships.map((rel) => {
    if (rel.kind === 'toMany')
      return maybe(
        hostileJson.map((v) => [rel.name, v] as const),
        h.shape * 0.2,
      );
    const writable = creating ? rel.writableOnCreate : rel.writableOnUpdate;
    const p = !writable ? h.shape * 0.3 : rel.required && creating ? 0.95 : 0.4;
    return maybe(
      linkageArbitrary(rel, h).map((v) => [rel.name, v] as const),
      p,
    );
  });
  return fc.tuple(...entries).map((list) => Object.fromEntries(defined(list)));
}

/** A create or update body: mostly a document with some hostile parts, sometimes not a document at all. */
export function bodyArbitrary(d: ResourceDescriptor, h: Hostility, samplesOf: SampleOf, id: string | undefined): fc.Arbitrary<string> {
  const creating = id === undefined;
  const document = fc
    .record({
      attributes: attributesArbitrary(d, h, samplesOf, creating),
      relationships: relationshipsArbitrary(d, h, creating),
      type: either(h.shape * 0.2, fc.constant<unknown>(d.type), hostileJson),
      id: creating
        ? maybe(either(0.5, plausibleIdValue, hostileId), h.shape * 0.2)
        : either(Math.max(h.id, h.shape) * 0.3, fc.constantFrom<unknown>(id, Number(id)), either(0.5, plausibleIdValue, hostileId)),
      meta: maybe(hostileJson, h.shape * 0.3),
    })
    .map(({ attributes, relationships, type, id: dataId, meta }) => ({
      data: {
        type,
        ...(dataId !== undefined && { id: dataId }),
        attributes,
        ...(Object.keys(relationships).length > 0 && { relationships }),
        ...(meta !== undefined && { meta }),
      },
    }));
  const mangled = fc.record({ type: hostileJson, attributes: hostileJson, relationships: hostileJson }).map((data) => ({ data }));
  const notADocument = fc.constantFrom<unknown>(
    raw(''),
    raw('null'),
    raw('[]'),
    raw('{}'),
    raw('{"data":null}'),
    raw('{"data":[]}'),
    raw('{"data":"x"}'),
    raw('not json'),
    raw(`{"data":{"type":"${d.type}"`),
    deepArray(100_000),
    raw(`{"data":{"type":"${d.type}","type":"x"}}`),
  );
  return fc
    .oneof(
      { weight: 1000 - Math.round(h.shape * 400), arbitrary: document },
      { weight: Math.round(h.shape * 200) || 1, arbitrary: mangled },
      { weight: Math.round(h.shape * 200) || 1, arbitrary: notADocument },
    )
    .map(jsonText);
}
