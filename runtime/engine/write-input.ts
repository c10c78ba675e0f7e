import { badRequest, conflict, forbidden, isObject, isPathId, validationError, type FieldError } from '../jsonapi/index.js';
import { fieldErrorsOf } from './body-issues.js';
import type { AttributeDescriptor, BodyValidator, PolymorphicToOneDescriptor, ResourceDescriptor, ResourceIdentifier, ToOneDescriptor } from '../model/descriptor.js';
import { isRepresentableDate, parseTimestamp } from '../model/timestamps.js';
import { fieldsByName } from './record-rules.js';

export type WriteOperation = 'create' | 'update';

/** A checked create or update: which columns get which values. */
export interface WriteInput {
  readonly attributes: ReadonlyMap<AttributeDescriptor, unknown>;
  readonly relationships: ReadonlyMap<ToOneDescriptor, number | null>;
  readonly polymorphic: ReadonlyMap<PolymorphicToOneDescriptor, ResourceIdentifier | null>;
  /** Relationship objects' `meta` (e.g. `meta.complete` on a call's task), by relationship name. */
  readonly relationshipMeta: ReadonlyMap<string, Record<string, unknown>>;
  readonly meta: Readonly<Record<string, unknown>>;
}

/**
 * Reads a create or update body for `descriptor`. Identity problems come first (409 for a
 * wrong type or id, 403 for a client-generated id), then writes the resource does not allow
 * (read-only attributes, relationships not writable here), then the generated validator.
 */
export function readWriteBody(
  descriptor: ResourceDescriptor,
  body: Record<string, unknown>,
  operation: WriteOperation,
  validate: BodyValidator,
  pathId?: number,
): WriteInput {
  const data = body.data;
  if (!isObject(data)) throw badRequest('invalidBody', 'The body must have a "data" object', { pointer: '/data' });
  checkIdentity(descriptor, data, operation, pathId);
  const named = isObject(data.attributes) ? namedAttributes(descriptor, data.attributes) : [];
  const refused = refusedMembers(descriptor, data, operation, named);
  if (refused.length) throw validationError(refused);
  if (!validate(body)) throw validationError(fieldErrorsOf(validate.errors ?? []));

  const attributes = new Map<AttributeDescriptor, unknown>();
  const given = (data.attributes ?? {}) as Record<string, unknown>;
  for (const a of named) attributes.set(a, given[a.name]);
  const unrepresentable = unrepresentableTimes(attributes);
  if (unrepresentable.length) throw validationError(unrepresentable);

  const relationships = new Map<ToOneDescriptor, number | null>();
  const relationshipMeta = new Map<string, Record<string, unknown>>();
  const rels = (data.relationships ?? {}) as Record<string, RelationshipObject>;
  for (const rel of descriptor.relationships) {
    if (rel.kind !== 'toOne' || !Object.hasOwn(rels, rel.name)) continue;
    const identifier = rels[rel.name]!.data;
    relationships.set(rel, identifier === null ? null : Number(identifier.id));
    const meta = { ...rels[rel.name]!.meta, ...identifier?.meta };
    if (Object.keys(meta).length) relationshipMeta.set(rel.name, meta);
  }
  const polymorphic = polymorphicInput(descriptor, rels);
  return { attributes, relationships, polymorphic, relationshipMeta, meta: isObject(data.meta) ? data.meta : {} };
}

type RelationshipObject = { data: { type: string; id: number | string; meta?: object } | null; meta?: object };

/** The polymorphic to-ones a valid body sets; a type that is none of the targets is refused at the identifier. */
function polymorphicInput(descriptor: ResourceDescriptor, rels: Record<string, RelationshipObject>): Map<PolymorphicToOneDescriptor, ResourceIdentifier | null> {
  const polymorphic = new Map<PolymorphicToOneDescriptor, ResourceIdentifier | null>();
  const refused: FieldError[] = [];
  for (const rel of descriptor.relationships) {
    if (rel.kind !== 'polymorphicToOne' || !Object.hasOwn(rels, rel.name)) continue;
    const identifier = rels[rel.name]!.data;
    if (identifier !== null && !rel.targets.includes(identifier.type)) {
      refused.push({ pointer: `/data/relationships/${rel.name}/data`, detail: `${rel.name} must be a ${rel.targets.join(', ')}, not a ${identifier.type}` });
    }
    polymorphic.set(rel, identifier === null ? null : { type: identifier.type, id: Number(identifier.id) });
  }
  if (refused.length) throw validationError(refused);
  return polymorphic;
}

/**
 * Timestamps and dates the validator's format accepts but JavaScript or PostgreSQL cannot hold
 * (a leap second, year 0, February 30): refused here, before any SQL runs.
 */
function unrepresentableTimes(attributes: ReadonlyMap<AttributeDescriptor, unknown>): FieldError[] {
  const refused: FieldError[] = [];
  for (const [a, value] of attributes) {
    if (typeof value !== 'string') continue;
    if (a.format === 'date-time' && !parseTimestamp(value)) {
      refused.push({ pointer: `/data/attributes/${a.name}`, detail: `${a.name} must be a timestamp that exists: years 0001–9999, seconds 0–59, offsets within ±15:59` });
    }
    if (a.format === 'date' && !isRepresentableDate(value)) {
      refused.push({ pointer: `/data/attributes/${a.name}`, detail: `${a.name} must be a date (YYYY-MM-DD) that exists` });
    }
  }
  return refused;
}

function checkIdentity(descriptor: ResourceDescriptor, data: Record<string, unknown>, operation: WriteOperation, pathId?: number): void {
  if (typeof data.type === 'string' && data.type !== descriptor.type) {
    throw conflict(`data.type "${data.type}" does not match this collection's type "${descriptor.type}"`, { pointer: '/data/type' });
  }
  if (operation === 'create' && data.id !== undefined) {
    throw forbidden('clientGeneratedId', 'Ids are assigned by the service; remove data.id from the create request', {
      pointer: '/data/id',
    });
  }
  if (operation === 'update' && data.id !== undefined && !isPathId(data.id, pathId)) {
    throw conflict(`data.id ${JSON.stringify(data.id)} does not match the id in the path (${pathId})`, { pointer: '/data/id' });
  }
}

/** `named`: the attributes the body names (namedAttributes). */
function refusedMembers(descriptor: ResourceDescriptor, data: Record<string, unknown>, operation: WriteOperation, named: readonly AttributeDescriptor[]): FieldError[] {
  const refused: FieldError[] = [];
  for (const a of named) {
    if (a.readOnly) refused.push({ pointer: `/data/attributes/${a.name}`, detail: `${a.name} is read-only` });
  }
  if (isObject(data.relationships)) {
    for (const rel of descriptor.relationships) {
      if (!Object.hasOwn(data.relationships, rel.name)) continue;
      const writable = rel.kind !== 'toMany' && (operation === 'create' ? rel.writableOnCreate : rel.writableOnUpdate);
      if (!writable) {
        refused.push({
          pointer: `/data/relationships/${rel.name}`,
          detail:
            rel.kind === 'toMany'
              ? `${rel.name} is a to-many relationship and cannot be written; set the ${rel.inverse} relationship of each ${rel.target} instead`
              : `${rel.name} cannot be set on ${operation}`,
        });
      }
    }
  }
  return refused;
}

/**
 * The attributes of `descriptor` that `given` names, in the descriptor's order (the order of the
 * columns a write sets, and of its errors). Looked up by the names given: a body, or a CSV row,
 * names a few of a prospect's 250 attributes, and asking each of the 250 whether it was given
 * was a measurable part of an import's time in the worker.
 */
function namedAttributes(descriptor: ResourceDescriptor, given: Record<string, unknown>): AttributeDescriptor[] {
  const { attributes, positions } = fieldsByName(descriptor);
  const named: AttributeDescriptor[] = [];
  for (const name of Object.keys(given)) {
    const attribute = attributes.get(name);
    if (attribute) named.push(attribute);
  }
  return named.sort((a, b) => positions.get(a.name)! - positions.get(b.name)!);
}
