import { isObject, validationError, type FieldError } from '../jsonapi/index.js';
import { slotNames, type SlotKind } from './tables.js';

/**
 * A custom object definition as an admin writes it, checked, with storage slots assigned.
 * Field types: string, integer, number, boolean, date-time. Relationships are to-one, to a
 * standard resource or another custom object of the same org.
 */

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date-time';

export interface FieldDefinition {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  readonly filterable: boolean;
  readonly sortable: boolean;
  readonly slot: string;
}

/**
 * A to-one relationship has a slot holding the target's id. A to-many one is the other side of
 * a to-one on the target (`inverse`): it has no storage and is read through links.related.
 */
export type RelationshipDefinition =
  | { readonly name: string; readonly target: string; readonly cardinality?: 'toOne'; readonly slot: string }
  | { readonly name: string; readonly target: string; readonly cardinality: 'toMany'; readonly inverse: string };

export interface Definition {
  readonly id: number;
  readonly name: string;
  readonly displayName: string;
  readonly displayField: string;
  readonly fields: readonly FieldDefinition[];
  readonly relationships: readonly RelationshipDefinition[];
  readonly version: number;
}

export type DefinitionInput = Omit<Definition, 'id' | 'version'>;

const NAME = /^[a-z][A-Za-z0-9]{0,62}$/;
const FIELD_TYPES: readonly FieldType[] = ['string', 'integer', 'number', 'boolean', 'date-time'];
const RESERVED_FIELDS = new Set(['id', 'type', 'createdAt', 'updatedAt', 'links', 'relationships', 'attributes', 'meta']);

export function slotKindOf(type: FieldType): SlotKind {
  if (type === 'string') return 'string';
  if (type === 'boolean') return 'boolean';
  if (type === 'date-time') return 'timestamp';
  return 'number';
}

export interface DefinitionContext {
  /** Types a relationship may target: the standard resources plus the org's custom objects. */
  readonly knownTypes: ReadonlySet<string>;
  /** The org's other custom objects, whose to-one relationships a to-many can be the inverse of. */
  readonly customObjects: ReadonlyMap<string, Pick<Definition, 'relationships'>>;
  /** Names a custom object may not take: standard types and the removed customDuty. */
  readonly reservedNames: ReadonlySet<string>;
  /** The definition being changed, whose slots are kept for fields that keep their type. */
  readonly previous?: Definition;
}

/**
 * Checks a definition document (`/data/attributes` of the API, or the CLI's file) and assigns
 * slots. A field that keeps its name and type keeps its slot (and its values); a new or retyped
 * field gets a free slot, whose old values the caller clears.
 */
export function parseDefinition(input: unknown, context: DefinitionContext, pointer = '/data/attributes'): DefinitionInput {
  const errors: FieldError[] = [];
  const fail = (path: string, detail: string) => errors.push({ pointer: `${pointer}${path}`, detail });
  if (!isObject(input)) throw validationError([{ pointer, detail: 'A definition must be an object' }]);
  const name = input.name;
  if (typeof name !== 'string' || !NAME.test(name)) fail('/name', 'name must be a camelCase identifier starting with a lowercase letter');
  else if (context.reservedNames.has(name)) fail('/name', `${name} is a standard resource type (or reserved) and cannot name a custom object`);
  else if (context.previous && context.previous.name !== name) fail('/name', 'the name of a custom object cannot change');
  const displayName = input.displayName ?? name;
  if (typeof displayName !== 'string' || displayName.trim() === '' || displayName.length > 255) fail('/displayName', 'displayName must be a non-empty string');

  const rawFields = input.fields ?? [];
  const rawRelationships = input.relationships ?? [];
  if (!Array.isArray(rawFields)) fail('/fields', 'fields must be an array');
  if (!Array.isArray(rawRelationships)) fail('/relationships', 'relationships must be an array');
  if (errors.length) throw validationError(errors);

  const names = new Set<string>();
  const used = new Map<SlotKind, Set<string>>();
  const take = (kind: SlotKind, keep?: string): string | undefined => {
    const taken = used.get(kind) ?? new Set<string>();
    used.set(kind, taken);
    const slot = keep && !taken.has(keep) ? keep : slotNames(kind).find((s) => !taken.has(s));
    if (slot) taken.add(slot);
    return slot;
  };

  const fields: FieldDefinition[] = [];
  (rawFields as unknown[]).forEach((raw, i) => {
    const at = `/fields/${i}`;
    if (!isObject(raw)) return fail(at, 'a field must be an object');
    const fieldName = raw.name;
    const type = raw.type as FieldType;
    if (typeof fieldName !== 'string' || !NAME.test(fieldName) || RESERVED_FIELDS.has(fieldName))
      return fail(`${at}/name`, 'name must be a camelCase identifier (not id, type, createdAt or updatedAt)');
    if (names.has(fieldName)) return fail(`${at}/name`, `${fieldName} is defined twice`);
    names.add(fieldName);
    if (!FIELD_TYPES.includes(type)) return fail(`${at}/type`, `type must be one of ${FIELD_TYPES.join(', ')}`);
    for (const flag of ['required', 'filterable', 'sortable']) {
      if (raw[flag] !== undefined && typeof raw[flag] !== 'boolean') fail(`${at}/${flag}`, `${flag} must be true or false`);
    }
    const before = context.previous?.fields.find((f) => f.name === fieldName && f.type === type);
    const slot = take(slotKindOf(type), before?.slot);
    if (!slot) return fail(at, `no more ${type} fields fit in one custom object`);
    fields.push({ name: fieldName, type, required: raw.required === true, filterable: raw.filterable === true, sortable: raw.sortable === true, slot });
  });

  const relationships: RelationshipDefinition[] = [];
  (rawRelationships as unknown[]).forEach((raw, i) => {
    const at = `/relationships/${i}`;
    if (!isObject(raw)) return fail(at, 'a relationship must be an object');
    const relName = raw.name;
    if (typeof relName !== 'string' || !NAME.test(relName) || RESERVED_FIELDS.has(relName)) return fail(`${at}/name`, 'name must be a camelCase identifier');
    if (names.has(relName)) return fail(`${at}/name`, `${relName} is already a field or relationship`);
    names.add(relName);
    const target = raw.target;
    if (typeof target !== 'string' || (!context.knownTypes.has(target) && target !== name))
      return fail(`${at}/target`, `target must be a resource type or a custom object of this organisation`);
    if (raw.cardinality === 'toMany') {
      // The target's to-one that points back here; for a self-reference, one in this document.
      const targetRelationships = target === name ? (rawRelationships as Record<string, unknown>[]) : context.customObjects.get(target)?.relationships;
      const back = targetRelationships?.find((r) => r?.name === raw.inverse && r?.target === name && (r?.cardinality ?? 'toOne') === 'toOne');
      if (!back) {
        return fail(
          `${at}/inverse`,
          `a to-many relationship is the other side of a to-one: inverse must name a to-one relationship of custom object ${target} that targets ${String(name)}`,
        );
      }
      relationships.push({ name: relName, target, cardinality: 'toMany', inverse: raw.inverse as string });
      return;
    }
    if (raw.cardinality !== undefined && raw.cardinality !== 'toOne') return fail(`${at}/cardinality`, 'cardinality must be toOne or toMany');
    const before = context.previous?.relationships.find(
      (r): r is Extract<RelationshipDefinition, { slot: string }> => r.name === relName && r.target === target && 'slot' in r,
    );
    const slot = take('reference', before?.slot);
    if (!slot) return fail(at, 'no more relationships fit in one custom object');
    relationships.push({ name: relName, target, slot });
  });

  const displayField = input.displayField;
  const display = fields.find((f) => f.name === displayField);
  if (!display) fail('/displayField', 'displayField must name one of the fields');
  else if (display.type !== 'string') fail('/displayField', 'the display field must be a string field');
  if (errors.length) throw validationError(errors);
  return { name: name as string, displayName: displayName as string, displayField: displayField as string, fields, relationships };
}
