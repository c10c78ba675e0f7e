import fc from 'fast-check';
import type { ResourceDescriptor } from '../../../runtime/model/descriptor.js';
import { bodyArbitrary } from './bodies.js';
import { fieldsParam, includeParam, listQuery, maybeParams, queryString, strayParam, type QueryParam } from './queries.js';
import {
  CALM,
  defined,
  either,
  hostileJson,
  hostilePathId,
  hostileString,
  hostileTimestamp,
  hostility,
  jsonText,
  maybe,
  pathId,
  plausibleId,
  type DescriptorOf,
  type Hostility,
  type SampleOf,
} from './values.js';

/**
 * Requests for the fuzz test (fuzz.test.ts), made from resource descriptors so that a new
 * resource, attribute, relationship or action is fuzzed without anyone listing it here.
 */

export interface FuzzRequest {
  readonly method: string;
  /** Path and query, already percent-encoded (sometimes deliberately badly). */
  readonly path: string;
  /** Raw body text: JSON, broken JSON, or anything else. */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The route it exercises, `PATCH /prospects/:id`, to group findings by. */
  readonly route: string;
  /** Answers by design without a body (the webhook cleanup endpoint): only the status is checked. */
  readonly bodiless?: boolean;
}

const MEDIA_TYPE = 'application/vnd.api+json';
/** Mostly the JSON:API media type; sometimes another, to reach content negotiation. */
const contentType = (h: Hostility) => either(h.shape * 0.2, fc.constant(MEDIA_TYPE), fc.constantFrom('application/json', `${MEDIA_TYPE}; ext=x`, 'text/plain', ''));

export interface WeightedRequest {
  readonly weight: number;
  readonly arbitrary: fc.Arbitrary<FuzzRequest>;
}

/**
 * Every operation of one resource, as its descriptor declares them, plus methods it does not
 * have. Deletes weigh least, so records live long enough for the other operations to find.
 */
export function resourceRequests(d: ResourceDescriptor, descriptorOf: DescriptorOf, samplesOf: SampleOf): WeightedRequest[] {
  const base = `/api/v2/${d.collection}`;
  const route = (method: string, suffix = '') => `${method} /${d.collection}${suffix}`;
  const requests: [number, (h: Hostility) => fc.Arbitrary<FuzzRequest>][] = [];
  if (d.operations.list) {
    requests.push([3, (h) => listQuery(d, h, samplesOf, descriptorOf).map((q) => ({ method: 'GET', path: `${base}${queryString(q)}`, route: route('GET') }))]);
  }
  if (d.operations.get) {
    requests.push([
      2,
      (h) =>
        fc
          .tuple(pathId(h), maybeParams(includeParam(d, h, descriptorOf), 0.4), maybeParams(fieldsParam(d, h), 0.3), maybeParams(strayParam, h.shape * 0.3))
          .map(([id, ...q]) => ({ method: 'GET', path: `${base}/${id}${queryString(q.flat())}`, route: route('GET', '/:id') })),
    ]);
  }
  if (d.operations.create) {
    requests.push([
      3,
      (h) =>
        fc.tuple(bodyArbitrary(d, h, samplesOf, undefined), contentType(h), maybeParams(fieldsParam(d, h), 0.1)).map(([body, type, q]) => ({
          method: 'POST',
          path: `${base}${queryString(q)}`,
          body,
          headers: { 'content-type': type },
          route: route('POST'),
        })),
    ]);
  }
  if (d.operations.update) {
    requests.push([
      2,
      (h) =>
        pathId(h).chain((id) =>
          fc
            .tuple(bodyArbitrary(d, h, samplesOf, id), contentType(h))
            .map(([body, type]) => ({ method: 'PATCH', path: `${base}/${id}`, body, headers: { 'content-type': type }, route: route('PATCH', '/:id') })),
        ),
    ]);
  }
  if (d.operations.delete) {
    requests.push([
      1,
      (h) =>
        fc
          .tuple(pathId(h), maybeParams(strayParam, h.shape * 0.3))
          .map(([id, q]) => ({ method: 'DELETE', path: `${base}/${id}${queryString(q)}`, route: route('DELETE', '/:id') })),
    ]);
  }
  for (const action of d.actions) {
    const paramValue = (h: Hostility) =>
      either(
        Math.max(h.time, h.number, h.text),
        fc.oneof(
          plausibleId.map(String),
          fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((x) => x.toISOString()),
        ),
        fc.oneof(hostileString, hostileTimestamp),
      );
    const actionParams = (h: Hostility) =>
      fc
        .tuple(
          fc.tuple(
            ...action.requiredParams.map((p) =>
              maybe(
                paramValue(h).map((v) => [`actionParams[${p}]`, v] as const),
                1 - h.shape * 0.3,
              ),
            ),
          ),
          fc.tuple(
            ...action.optionalParams.map((p) =>
              maybe(
                paramValue(h).map((v) => [`actionParams[${p}]`, v] as const),
                0.5,
              ),
            ),
          ),
          maybe(fc.constant(['actionParams[nope]', 'x'] as const), h.shape * 0.2),
        )
        .map(([required, optional, stray]) => defined([...required, ...optional, stray]) as QueryParam[]);
    requests.push([
      2,
      (h) =>
        fc
          .tuple(pathId(h), either(h.shape * 0.2, fc.constant(action.name), fc.constantFrom('nope', 'constructor', '__proto__')), actionParams(h))
          .map(([id, name, q]) => ({
            method: 'POST',
            path: `${base}/${id}/actions/${name}${queryString(q)}`,
            route: route('POST', `/:id/actions/${action.name}`),
          })),
    ]);
  }
  const weighted = requests.map(([weight, request]) => ({ weight, arbitrary: hostility.chain(request) }));
  // Methods no route of the collection has: the fallbacks answer them.
  weighted.push({
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS'), fc.option(pathId({ ...CALM, id: 0.3 }), { nil: undefined }))
      .map(([method, id]) => ({ method, path: id ? `${base}/${id}` : base, route: route(method, id ? '/:id' : '') })),
  });
  return weighted;
}

/** The admin API of custom object definitions: hostile ids and definitions. */
export function definitionRequests(): fc.Arbitrary<FuzzRequest>[] {
  const base = '/api/v2/customObjectDefinitions';
  // Ids from 1000 on: the test's own definitions (low ids) must survive the fuzz.
  const id = fc.oneof(fc.integer({ min: 1000, max: 1010 }).map(String), hostilePathId);
  const field = fc.record(
    { name: fc.oneof(fc.constantFrom('label', 'n'), hostileString), type: fc.oneof(fc.constantFrom('string', 'integer', 'date-time'), hostileJson) },
    { requiredKeys: [] },
  );
  const definition = fc.record(
    {
      name: fc.oneof(fc.constant('prospect'), hostileString),
      displayName: fc.oneof(fc.constant('Fuzzed'), hostileJson),
      displayField: fc.oneof(fc.constant('label'), hostileJson),
      fields: fc.oneof(fc.array(field, { maxLength: 3 }), hostileJson),
      relationships: fc.oneof(fc.constant([{ name: 'p', target: 'prospect' }]), hostileJson),
    },
    { requiredKeys: [] },
  );
  const body = fc
    .oneof(
      definition.map((attributes) => ({ data: { type: 'customObjectDefinition', attributes } })),
      hostileJson.map((data) => ({ data })),
    )
    .map(jsonText);
  const headers = { 'content-type': MEDIA_TYPE };
  return [
    fc.constant({ method: 'GET', path: base, route: 'GET /customObjectDefinitions' }),
    id.map((i) => ({ method: 'GET', path: `${base}/${i}`, route: 'GET /customObjectDefinitions/:id' })),
    fc.tuple(id, body).map(([i, b]) => ({ method: 'PATCH', path: `${base}/${i}`, body: b, headers, route: 'PATCH /customObjectDefinitions/:id' })),
    id.map((i) => ({ method: 'DELETE', path: `${base}/${i}`, route: 'DELETE /customObjectDefinitions/:id' })),
    body.map((b) => ({ method: 'POST', path: base, body: b, headers, route: 'POST /customObjectDefinitions' })),
    fc
      .constantFrom('nope', 'constructor', '__proto__', '%00', 'prospect')
      .map((name) => ({ method: 'GET', path: `/api/v2/customObjects/${name}`, route: 'GET /customObjects/:unknown' })),
  ];
}

/** Endpoints that take credentials other than access tokens: app tokens and cleanup tokens. */
export function credentialRequests(): fc.Arbitrary<FuzzRequest>[] {
  const segment = fc.oneof(fc.constantFrom('x%00y', '%00', 'ist_x', '00000000-0000-0000-0000-000000000000', '%ED%A0%80', 'x'), fc.uuid());
  const part = (text: string) => Buffer.from(text).toString('base64url');
  const bearer = fc.oneof(
    fc.constantFrom(
      'x',
      'a.b.c',
      `${part('{"alg":"RS256"}')}.${part('{"iss":"\\u0000"}')}.x`,
      `whc_9007199254740993_${'A'.repeat(32)}`,
      `whc_1_${'A'.repeat(32)}`,
      `whc_0_${'A'.repeat(32)}`,
    ),
    fc
      .record({ iss: hostileJson, iat: hostileJson, exp: hostileJson }, { requiredKeys: [] })
      .map((claims) => `${part('{"alg":"RS256","typ":"JWT"}')}.${part(jsonText(claims))}.c2ln`),
  );
  const authorization = bearer.map((token) => ({ authorization: `Bearer ${token}` }));
  return [
    fc.tuple(segment, fc.constantFrom('setupToken', 'accessToken', 'nope'), authorization).map(([s, action, headers]) => ({
      method: 'POST',
      path: `/api/app/installs/${s}/actions/${action}`,
      headers,
      route: `POST /api/app/installs/:x/actions/${action}`,
    })),
    authorization.map((headers) => ({ method: 'POST', path: '/api/v2/webhooks/cleanup', headers, route: 'POST /webhooks/cleanup', bodiless: true })),
  ];
}
