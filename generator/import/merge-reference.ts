import { byCodePoint } from '../compare.js';
import {
  asRelationshipId,
  isSubSchema,
  isToMany,
  mapAttribute,
  mapToMany,
  mapToOne,
  nameProblem,
  targetsOf,
  type Json,
  type Mapped,
  type Operations,
  type Skipped,
} from './map-member.js';

/**
 * Merges a reference hyper-schema (GET /api/v2/schema of the service Cadence stands in for)
 * into schema/: types it lacks become new files, members a file lacks are added, and nothing a
 * file already says is changed, because existing files carry SPEC.md's decisions. Meant to be
 * run once; afterwards schema/ is edited by hand. Pure: documents in, documents out.
 */

export interface MergeResult {
  /** Every schema file after the merge, by type (unchanged ones included). */
  readonly files: ReadonlyMap<string, Json>;
  readonly addedTypes: readonly string[];
  /** `type.member` of every member added to a file, new files included. */
  readonly addedMembers: readonly string[];
  readonly skipped: readonly Skipped[];
  /** Reference action links not carried over: actions need handlers, added by hand. */
  readonly skippedActions: readonly string[];
}

const STANDARD_RELS = ['self', 'instances', 'create', 'update', 'destroy'] as const;
const WEBHOOK_ACTIONS: Record<string, string> = { create: 'created', update: 'updated', destroy: 'destroyed' };

interface Link {
  readonly href: string;
  readonly method: string;
  readonly rel: string;
  readonly targetSchema?: unknown;
}

function linksOf(definition: Json): Link[] {
  return (definition.links ?? []) as Link[];
}

function operationsOf(links: readonly Link[]): Operations {
  return { create: links.some((l) => l.rel === 'create'), update: links.some((l) => l.rel === 'update') };
}

function collectionOf(links: readonly Link[]): string {
  return links[0]!.href.split('/')[3]!;
}

/** A reference link as a schema file holds it: what the meta-schema allows, nothing else. */
function ownLink({ href, method, rel, targetSchema }: Link): Link {
  return { href, method, rel, ...(targetSchema !== undefined && { targetSchema }) };
}

function isStandard(link: Link): boolean {
  return (STANDARD_RELS as readonly string[]).includes(link.rel);
}

/** The reference's standard links, with `self` added where missing: every rendered record links to it. */
function newLinks(type: string, reference: readonly Link[]): Link[] {
  const standard = reference.filter(isStandard).map(ownLink);
  if (standard.some((l) => l.rel === 'self')) return standard;
  const self = { href: `/api/v2/${collectionOf(reference)}/{:id}`, method: 'GET', rel: 'self', targetSchema: { $ref: `#/definitions/${type}` } };
  return [self, ...standard];
}

/**
 * An existing file's links plus the reference's standard ones it lacks (undefined when it lacks
 * none). Its own links stay as they are: Cadence's actions are named as SPEC.md names them.
 */
function withStandardLinks(own: readonly Link[], reference: readonly Link[]): Link[] | undefined {
  const missing = reference.filter((l) => isStandard(l) && !own.some((o) => o.rel === l.rel));
  if (missing.length === 0) return undefined;
  return [...own, ...missing.map(ownLink)];
}

/** A file for a type schema/ lacks; its description is a placeholder to rewrite by hand. */
function newFile(type: string, reference: Json): Json {
  const links = newLinks(type, linksOf(reference));
  return {
    $schema: 'http://json-schema.org/draft-07/hyper-schema#',
    title: type,
    description: `The ${type} resource of the reference schema.`,
    type: 'object',
    stability: typeof reference.stability === 'string' ? reference.stability : 'prototype',
    'x-scope': collectionOf(links),
    // As the webhook table's "*" row: created, updated and destroyed wherever they apply.
    'x-webhookActions': ['create', 'update', 'destroy'].filter((rel) => links.some((l) => l.rel === rel)).map((rel) => WEBHOOK_ACTIONS[rel]),
    definitions: {},
    properties: {},
    links,
  };
}

function sortedObject(entries: Iterable<[string, unknown]>): Json {
  return Object.fromEntries([...entries].sort(([a], [b]) => byCodePoint(a, b)));
}

/** The file with `additions` among its definitions and properties, both kept in name order. */
function withMembers(type: string, file: Json, additions: ReadonlyMap<string, Json>): Json {
  const definitions = { ...(file.definitions as Json), ...Object.fromEntries(additions) };
  const properties = Object.fromEntries(Object.keys(definitions).map((name) => [name, { $ref: `#/definitions/${type}/definitions/${name}` }]));
  return { ...file, definitions: sortedObject(Object.entries(definitions)), properties: sortedObject(Object.entries(properties)) };
}

/** One type's additions so far, and the targets of its to-ones once merged (existing and added). */
interface TypeAdditions {
  readonly members: Map<string, Json>;
  readonly toOnes: Map<string, string>;
}

function referenceMembers(referenceTypes: Record<string, Json>, type: string): [string, Json][] {
  return Object.entries((referenceTypes[type]?.definitions ?? {}) as Record<string, Json>);
}

function has(file: Json, name: string): boolean {
  return Object.hasOwn(file.definitions as Json, name);
}

/** Attributes and to-ones a file lacks, mapped; to-manys wait until every type's to-ones are known. */
function addAttributesAndToOnes(type: string, file: Json, members: [string, Json][], skipped: Skipped[]): TypeAdditions {
  const result: TypeAdditions = { members: new Map(), toOnes: new Map() };
  for (const [name, d] of Object.entries(file.definitions as Record<string, Json>)) if (d.data === true) result.toOnes.set(name, targetsOf(d)[0]!);
  const operations = operationsOf(linksOf(file));
  for (const [name, d] of members) {
    if (has(file, name) || isSubSchema(d) || isToMany(d)) continue;
    const problem = nameProblem(name);
    const mapped: Mapped = problem ? { skip: problem } : d.data !== undefined ? mapToOne(d, operations) : mapAttribute(d);
    if ('skip' in mapped) {
      skipped.push({ type, member: name, reason: mapped.skip });
      continue;
    }
    result.members.set(name, mapped.definition);
    if (mapped.definition.data === true) result.toOnes.set(name, targetsOf(mapped.definition)[0]!);
  }
  return result;
}

/** `<rel>Id` attributes beside a to-one, then the to-manys, whose inverses are now all known. */
function addToManys(type: string, file: Json, members: [string, Json][], all: ReadonlyMap<string, TypeAdditions>, skipped: Skipped[]): void {
  const own = all.get(type)!;
  const rels = new Set(own.toOnes.keys());
  for (const [name, d] of own.members) if (d.data === undefined) own.members.set(name, asRelationshipId(name, d, rels));
  for (const [name, d] of members) {
    if (has(file, name) || !isToMany(d)) continue;
    const mapped = mapToMany(type, d, all.get(targetsOf(d)[0]!)?.toOnes ?? new Map());
    if ('skip' in mapped) skipped.push({ type, member: name, reason: mapped.skip });
    else own.members.set(name, mapped.definition);
  }
}

export function mergeReference(reference: Json, existing: ReadonlyMap<string, Json>): MergeResult {
  const referenceTypes = (reference.definitions ?? {}) as Record<string, Json>;
  const files = new Map(existing);
  const addedTypes = Object.keys(referenceTypes)
    .filter((type) => !existing.has(type))
    .sort(byCodePoint);
  for (const type of addedTypes) files.set(type, newFile(type, referenceTypes[type]!));

  const skipped: Skipped[] = [];
  const additions = new Map<string, TypeAdditions>();
  for (const [type, file] of files) additions.set(type, addAttributesAndToOnes(type, file, referenceMembers(referenceTypes, type), skipped));
  for (const [type, file] of files) addToManys(type, file, referenceMembers(referenceTypes, type), additions, skipped);

  const addedMembers: string[] = [];
  for (const [type, { members }] of additions) {
    if (members.size === 0) continue;
    files.set(type, withMembers(type, files.get(type)!, members));
    addedMembers.push(...[...members.keys()].map((name) => `${type}.${name}`));
  }
  for (const type of existing.keys()) {
    const links = withStandardLinks(linksOf(files.get(type)!), linksOf(referenceTypes[type] ?? {}));
    if (links) files.set(type, { ...files.get(type)!, links });
  }
  const skippedActions = [...files.keys()].flatMap((type) =>
    linksOf(referenceTypes[type] ?? {})
      .filter((l) => !isStandard(l))
      .filter((l) => !linksOf(files.get(type)!).some((own) => own.href === l.href))
      .map((l) => `${type}: ${l.method} ${l.href}`),
  );
  return {
    files,
    addedTypes,
    addedMembers: addedMembers.sort(byCodePoint),
    skipped: skipped.sort((a, b) => byCodePoint(`${a.type}.${a.member}`, `${b.type}.${b.member}`)),
    skippedActions: skippedActions.sort(byCodePoint),
  };
}

/** A schema file's text: two-space JSON with a final newline, as every file in schema/ is written. */
export function schemaFileText(file: Json): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
