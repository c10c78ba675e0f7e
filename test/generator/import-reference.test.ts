// The one-off reference importer (generator/import/): how reference definitions become schema
// definitions, given/want, and how a merge adds to schema/ without changing what it says.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { asRelationshipId, mapAttribute, mapToMany, mapToOne, nameProblem, type Json } from '../../generator/import/map-member.js';
import { mergeReference, schemaFileText } from '../../generator/import/merge-reference.js';

const BOTH = { create: true, update: true };

describe('mapAttribute', () => {
  const cases: { name: string; given: Json; want: Json }[] = [
    {
      name: 'a string keeps its flags',
      given: { filterable: true, sortable: false, type: 'string' },
      want: { type: 'string', filterable: true, sortable: false },
    },
    {
      name: 'a number with format integer is an integer',
      given: { filterable: false, format: 'integer', readOnly: true, sortable: true, type: 'number' },
      want: { type: 'integer', readOnly: true, filterable: false, sortable: true },
    },
    {
      name: 'a number with format float is a number',
      given: { filterable: true, format: 'float', sortable: true, type: 'number' },
      want: { type: 'number', filterable: true, sortable: true },
    },
    {
      name: 'date-time, date and email formats are kept',
      given: { filterable: true, format: 'date-time', readOnly: true, sortable: true, type: 'string' },
      want: { type: 'string', format: 'date-time', readOnly: true, filterable: true, sortable: true },
    },
    {
      name: 'a format Cadence does not know is dropped',
      given: { filterable: false, format: 'password', sortable: false, type: 'string' },
      want: { type: 'string', filterable: false, sortable: false },
    },
    {
      name: 'writeOnly is kept',
      given: { filterable: false, writeOnly: true, sortable: false, type: 'boolean' },
      want: { type: 'boolean', writeOnly: true, filterable: false, sortable: false },
    },
    {
      name: 'an object is an object (a jsonb column)',
      given: { filterable: false, sortable: false, type: 'object' },
      want: { type: 'object', filterable: false, sortable: false },
    },
    {
      name: 'an array takes its flags from its items, where the reference puts them',
      given: { type: 'array', items: { filterable: true, format: 'email', sortable: false, type: 'string' } },
      want: { type: 'array', items: { type: 'string', format: 'email' }, filterable: true, sortable: false },
    },
    {
      name: 'an array of sub-schema objects stores JSON objects',
      given: { filterable: false, readOnly: true, sortable: false, type: 'array', items: { $ref: '#/definitions/kaiaRecording/definitions/Topic' } },
      want: {
        type: 'array',
        items: { type: 'object' },
        readOnly: true,
        filterable: false,
        sortable: false,
        description: 'Items are objects (kaiaRecording/definitions/Topic) in the reference; each is stored as a JSON value.',
      },
    },
    {
      name: 'an array of arrays stores JSON values',
      given: { filterable: false, readOnly: true, sortable: false, type: 'array', items: { type: 'number[]', items: { type: 'number' } } },
      want: {
        type: 'array',
        items: { type: 'object' },
        readOnly: true,
        filterable: false,
        sortable: false,
        description: 'Items are number[] values in the reference; each is stored as a JSON value.',
      },
    },
  ];
  test.each(cases)('$name', ({ given, want }) => {
    expect(mapAttribute(given)).toEqual({ definition: want });
  });

  test('a type Cadence cannot store is skipped with the reason', () => {
    expect(mapAttribute({ type: 'null', filterable: false, sortable: false })).toEqual({ skip: 'type "null" has no Cadence equivalent' });
  });
});

describe('mapToOne', () => {
  const cases: { name: string; given: Json; operations?: { create: boolean; update: boolean }; want: Json | string }[] = [
    {
      name: 'a writable to-one is writable wherever the resource writes',
      given: { data: true, links: true, $ref: '#/definitions/user' },
      want: { data: true, links: true, $ref: '#/definitions/user', 'x-writable': ['create', 'update'] },
    },
    {
      name: 'a resource without update writes it on create only',
      given: { data: true, links: true, $ref: '#/definitions/team' },
      operations: { create: true, update: false },
      want: { data: true, links: true, $ref: '#/definitions/team', 'x-writable': ['create'] },
    },
    {
      name: 'a read-only anyOf of one type is a read-only to-one',
      given: { data: true, links: true, readOnly: true, anyOf: [{ $ref: '#/definitions/user' }] },
      want: { data: true, links: true, $ref: '#/definitions/user', readOnly: true, 'x-writable': [] },
    },
    {
      name: 'a links-only to-one is served with data, and says so',
      given: { data: false, links: true, readOnly: true, $ref: '#/definitions/account' },
      want: {
        data: true,
        links: true,
        $ref: '#/definitions/account',
        readOnly: true,
        'x-writable': [],
        description: 'Served with data: the reference serves only links.related.',
      },
    },
    {
      name: 'an anyOf of several types is skipped',
      given: { data: true, links: true, anyOf: [{ $ref: '#/definitions/account' }, { $ref: '#/definitions/prospect' }] },
      want: 'polymorphic to-one (account, prospect): a Cadence relationship has one target type',
    },
  ];
  test.each(cases)('$name', ({ given, operations, want }) => {
    expect(mapToOne(given, operations ?? BOTH)).toEqual(typeof want === 'string' ? { skip: want } : { definition: want });
  });
});

describe('mapToMany', () => {
  const prospects = { data: false, links: true, readOnly: true, type: 'array', items: { $ref: '#/definitions/prospect' } };
  test('link-only, with the target to-one named after this type as its inverse', () => {
    expect(mapToMany('persona', prospects, new Map([['persona', 'persona']]))).toEqual({
      definition: { ...prospects, 'x-inverse': 'persona' },
    });
  });
  test('a to-many the reference serves with data becomes link-only, and says so', () => {
    expect(mapToMany('persona', { ...prospects, data: true }, new Map([['persona', 'persona']]))).toEqual({
      definition: { ...prospects, 'x-inverse': 'persona', description: 'Served as links.related only: the reference also serves data.' },
    });
  });
  test.each([
    ['no to-one on the target', new Map<string, string>()],
    ['a to-one of that name to another type', new Map([['persona', 'user']])],
    ['only a differently named to-one back', new Map([['creator', 'persona']])],
  ])('skipped when there is %s', (_, toOnes) => {
    expect(mapToMany('persona', prospects, toOnes)).toEqual({
      skip: 'no to-one "persona" on prospect points back, so links.related has nothing to filter by (many-to-many or polymorphic in the reference)',
    });
  });
});

describe('asRelationshipId and nameProblem', () => {
  const userId = { type: 'integer', readOnly: true, filterable: true, sortable: true };
  test('<rel>Id next to a to-one <rel> becomes its read-only id', () => {
    expect(asRelationshipId('userId', { ...userId, readOnly: false }, new Set(['user']))).toEqual({
      type: 'integer',
      readOnly: true,
      filterable: true,
      sortable: true,
      description: "The user relationship's id as an attribute; read-only here, because it is the user relationship's column (write the relationship).",
      'x-relationshipId': 'user',
    });
  });
  test('any other attribute is left alone', () => {
    expect(asRelationshipId('userId', userId, new Set(['owner']))).toBe(userId);
    expect(asRelationshipId('name', userId, new Set(['name']))).toBe(userId);
  });
  test.each([
    ['orgId', true],
    ['id', true],
    ['type', true],
    ['KaiaRecordingTopic', true],
    ['snake_case', true],
    ['addressStreet2', false],
  ])('%s: problem %s', (name, problem) => {
    expect(nameProblem(name) !== undefined).toBe(problem);
  });
});

/** A schema file as schema/ holds them, with the given definitions and links. */
function file(type: string, collection: string, definitions: Json, rels: string[]): Json {
  const hrefs: Record<string, [string, string]> = {
    self: ['GET', `/api/v2/${collection}/{:id}`],
    instances: ['GET', `/api/v2/${collection}`],
    create: ['POST', `/api/v2/${collection}`],
    update: ['PATCH', `/api/v2/${collection}/{:id}`],
  };
  return {
    $schema: 'http://json-schema.org/draft-07/hyper-schema#',
    title: type,
    description: `A ${type}.`,
    type: 'object',
    stability: 'prototype',
    'x-scope': collection,
    'x-webhookActions': [],
    definitions,
    properties: Object.fromEntries(Object.keys(definitions).map((n) => [n, { $ref: `#/definitions/${type}/definitions/${n}` }])),
    links: rels.map((rel) => ({ href: hrefs[rel]![1], method: hrefs[rel]![0], rel })),
  };
}

describe('mergeReference', () => {
  const existingName = { type: 'string', maxLength: 255, filterable: true, sortable: true, description: 'As SPEC.md says.' };
  const reference = {
    definitions: {
      prospect: {
        definitions: {
          name: { filterable: false, sortable: false, type: 'string' },
          tags: { type: 'array', items: { filterable: false, sortable: false, type: 'string' } },
          persona: { data: true, links: true, $ref: '#/definitions/persona' },
          personaId: { filterable: false, format: 'integer', sortable: false, type: 'number' },
        },
        links: [
          { href: '/api/v2/prospects/{:id}', method: 'GET', rel: 'self' },
          { href: '/api/v2/prospects', method: 'GET', rel: 'instances' },
          { href: '/api/v2/prospects', method: 'POST', rel: 'create' },
          { href: '/api/v2/prospects/{:id}', method: 'PATCH', rel: 'update' },
          { href: '/api/v2/prospects/{:id}/actions/pin', method: 'POST', rel: 'pin' },
        ],
      },
      persona: {
        stability: 'beta',
        definitions: {
          title: { filterable: true, sortable: true, type: 'string' },
          prospects: { data: false, links: true, readOnly: true, type: 'array', items: { $ref: '#/definitions/prospect' } },
          Shape: { type: 'object', definitions: { a: { type: 'string' } } },
        },
        links: [
          { href: '/api/v2/personas', method: 'GET', rel: 'instances', targetSchema: { type: 'array' } },
          { href: '/api/v2/personas', method: 'POST', rel: 'create' },
        ],
      },
    },
  };
  const existing = new Map([['prospect', file('prospect', 'prospects', { name: existingName }, ['self', 'instances', 'create'])]]);
  const result = mergeReference(reference, existing);

  test('a new type gets a file: links with self added, scope, webhook actions of its operations', () => {
    expect(result.addedTypes).toEqual(['persona']);
    expect(result.files.get('persona')).toEqual({
      $schema: 'http://json-schema.org/draft-07/hyper-schema#',
      title: 'persona',
      description: 'The persona resource of the reference schema.',
      type: 'object',
      stability: 'beta',
      'x-scope': 'personas',
      'x-webhookActions': ['created'],
      definitions: {
        prospects: {
          data: false,
          links: true,
          readOnly: true,
          type: 'array',
          items: { $ref: '#/definitions/prospect' },
          'x-inverse': 'persona',
        },
        title: { type: 'string', filterable: true, sortable: true },
      },
      properties: {
        prospects: { $ref: '#/definitions/persona/definitions/prospects' },
        title: { $ref: '#/definitions/persona/definitions/title' },
      },
      links: [
        { href: '/api/v2/personas/{:id}', method: 'GET', rel: 'self', targetSchema: { $ref: '#/definitions/persona' } },
        { href: '/api/v2/personas', method: 'GET', rel: 'instances', targetSchema: { type: 'array' } },
        { href: '/api/v2/personas', method: 'POST', rel: 'create' },
      ],
    });
  });

  test('an existing file keeps what it says and gains what it lacks, in name order', () => {
    const prospect = result.files.get('prospect')!;
    expect(Object.keys(prospect.definitions as Json)).toEqual(['name', 'persona', 'personaId', 'tags']);
    expect(Object.keys(prospect.properties as Json)).toEqual(['name', 'persona', 'personaId', 'tags']);
    expect((prospect.definitions as Json).name).toBe(existingName);
    expect((prospect.definitions as Json).persona).toEqual({ data: true, links: true, $ref: '#/definitions/persona', 'x-writable': ['create'] });
    expect(prospect.description).toBe('A prospect.');
  });

  test('<rel>Id beside an added to-one becomes its id; a missing standard link is added', () => {
    const prospect = result.files.get('prospect')!;
    expect((prospect.definitions as Json).personaId).toMatchObject({ type: 'integer', readOnly: true, 'x-relationshipId': 'persona' });
    expect((prospect.links as Json[]).map((l) => l.rel)).toEqual(['self', 'instances', 'create', 'update']);
  });

  test('sub-schemas are no members; actions are reported, not carried over', () => {
    expect(result.addedMembers).toEqual(['persona.prospects', 'persona.title', 'prospect.persona', 'prospect.personaId', 'prospect.tags']);
    expect(result.skipped).toEqual([]);
    expect(result.skippedActions).toEqual(['prospect: POST /api/v2/prospects/{:id}/actions/pin']);
  });

  test('merging again changes nothing', () => {
    const again = mergeReference(reference, result.files);
    expect(again.addedTypes).toEqual([]);
    expect(again.addedMembers).toEqual([]);
    for (const [type, contents] of result.files) expect(schemaFileText(again.files.get(type)!)).toBe(schemaFileText(contents));
  });
});

describe("the repository's schema/", () => {
  test('is the reference merged in: merging it again adds nothing, skipping only what the coverage test explains', () => {
    const referenceDocument = JSON.parse(readFileSync(new URL('../fixtures/reference/outreach-schema.json', import.meta.url), 'utf8')) as Json;
    const dir = new URL('../../schema/', import.meta.url);
    const files = new Map(
      readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => [name.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Json]),
    );
    const result = mergeReference(referenceDocument, files);
    expect(result.addedTypes).toEqual([]);
    expect(result.addedMembers).toEqual([]);
    expect(result.skipped).toHaveLength(19);
  });
});
