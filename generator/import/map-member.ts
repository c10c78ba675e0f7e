import { snakeCase } from '../naming.js';

/**
 * How one member (attribute or relationship) of a reference definition becomes a member of a
 * Cadence schema file. Pure: a reference definition in, a schema definition or a reason out.
 */

export type Json = Record<string, unknown>;

/** A member the importer leaves out, and why; the schema coverage test lists the same ones. */
export interface Skipped {
  readonly type: string;
  readonly member: string;
  readonly reason: string;
}

export type Mapped = { readonly definition: Json } | { readonly skip: string };

/** Which operations a resource offers, as its links say. */
export interface Operations {
  readonly create: boolean;
  readonly update: boolean;
}

const NAME = /^[a-z][A-Za-z0-9]*$/;
/** Names every table or resource object already uses for itself. */
const RESERVED = new Set(['id', 'type', 'orgId']);
const FORMATS = new Set(['date-time', 'date', 'email', 'uri']);

/** A reference definition that only describes the shape of another's items (no member). */
export function isSubSchema(definition: Json): boolean {
  return definition.definitions !== undefined && definition.data === undefined && definition.filterable === undefined;
}

export function isToMany(definition: Json): boolean {
  return definition.data !== undefined && definition.type === 'array';
}

function refTarget(ref: unknown): string | undefined {
  return typeof ref === 'string' ? ref.replace(/^#\/definitions\//, '') : undefined;
}

/** The target types of a relationship: `$ref`, `anyOf` of refs, or `items.$ref` for a to-many. */
export function targetsOf(definition: Json): string[] {
  if (definition.$ref !== undefined) return [refTarget(definition.$ref)!];
  if (Array.isArray(definition.anyOf)) return definition.anyOf.map((one) => refTarget((one as Json).$ref)!);
  return [refTarget((definition.items as Json | undefined)?.$ref)].filter((t): t is string => t !== undefined);
}

/** Checks a member name against what the schema format allows. */
export function nameProblem(name: string): string | undefined {
  if (!NAME.test(name)) return 'its name is not camelCase ASCII, which every Cadence member name must be';
  if (RESERVED.has(name)) return `"${name}" names the record's own identity (id, type, org_id column) in every Cadence table`;
  return undefined;
}

/** `number` with format integer is Cadence's `integer`; any other number is a float. */
function scalarOf(type: unknown, format: unknown): { type: string; format?: string } | undefined {
  if (type === 'number') return { type: format === 'integer' ? 'integer' : 'number' };
  if (type === 'string') return typeof format === 'string' && FORMATS.has(format) ? { type, format } : { type };
  if (type === 'boolean' || type === 'object') return { type };
  return undefined;
}

/** Flags in the order existing schema files write them: readOnly, writeOnly, filterable, sortable. */
function flags(reference: Json, items: Json | undefined): Json {
  return {
    ...(reference.readOnly === true && { readOnly: true }),
    ...(reference.writeOnly === true && { writeOnly: true }),
    filterable: reference.filterable === true || items?.filterable === true,
    sortable: reference.sortable === true || items?.sortable === true,
  };
}

export function mapAttribute(reference: Json): Mapped {
  if (reference.type === 'array') {
    const items = (reference.items ?? {}) as Json;
    const scalar = items.$ref === undefined ? scalarOf(items.type, items.format) : undefined;
    if (scalar) return { definition: { type: 'array', items: scalar, ...flags(reference, items) } };
    // Items described by a sub-schema (or nested arrays) are stored as JSON values.
    const shape = items.$ref !== undefined ? `objects (${refTarget(items.$ref)})` : `${String(items.type)} values`;
    return {
      definition: {
        type: 'array',
        items: { type: 'object' },
        ...flags(reference, items),
        description: `Items are ${shape} in the reference; each is stored as a JSON value.`,
      },
    };
  }
  const scalar = scalarOf(reference.type, reference.format);
  if (!scalar) return { skip: `type ${JSON.stringify(reference.type)} has no Cadence equivalent` };
  return { definition: { ...scalar, ...flags(reference, undefined) } };
}

export function mapToOne(reference: Json, operations: Operations): Mapped {
  const targets = targetsOf(reference);
  if (targets.length !== 1) {
    return { skip: `polymorphic to-one (${targets.join(', ')}): a Cadence relationship has one target type` };
  }
  const readOnly = reference.readOnly === true;
  const writable = readOnly ? [] : (['create', 'update'] as const).filter((op) => operations[op]);
  return {
    definition: {
      data: true,
      links: true,
      $ref: `#/definitions/${targets[0]}`,
      ...(readOnly && { readOnly: true }),
      'x-writable': writable,
      ...(reference.data === false && { description: 'Served with data: the reference serves only links.related.' }),
    },
  };
}

/**
 * A to-many becomes link-only, its `links.related` filtering the target by the to-one named
 * after this type that points back (`account.prospects` -> `prospect.account`). Without one
 * there is nothing to filter by, and the member is skipped.
 */
export function mapToMany(type: string, reference: Json, targetToOnes: ReadonlyMap<string, string>): Mapped {
  const target = targetsOf(reference)[0]!;
  if (targetToOnes.get(type) !== type) {
    return { skip: `no to-one "${type}" on ${target} points back, so links.related has nothing to filter by (many-to-many or polymorphic in the reference)` };
  }
  return {
    definition: {
      data: false,
      links: true,
      readOnly: true,
      type: 'array',
      items: { $ref: `#/definitions/${target}` },
      'x-inverse': type,
      ...(reference.data === true && { description: 'Served as links.related only: the reference also serves data.' }),
    },
  };
}

/**
 * An attribute `<rel>Id` next to a to-one `<rel>` would share its column `<rel>_id`: it becomes
 * that relationship's id, read-only (the relationship is what clients write).
 */
export function asRelationshipId(name: string, attribute: Json, toOnes: ReadonlySet<string>): Json {
  const rel = name.endsWith('Id') ? name.slice(0, -2) : undefined;
  if (rel === undefined || !toOnes.has(rel) || snakeCase(name) !== `${snakeCase(rel)}_id`) return attribute;
  return {
    type: 'integer',
    readOnly: true,
    filterable: attribute.filterable,
    sortable: attribute.sortable,
    description: `The ${rel} relationship's id as an attribute; read-only here, because it is the ${rel} relationship's column (write the relationship).`,
    'x-relationshipId': rel,
  };
}
