import type { AttributeDescriptor, OperationsDescriptor, RelationshipDescriptor, ResourceDescriptor } from '../engine/index.js';
import type { Definition, FieldDefinition } from './definition.js';

export const CUSTOM_OBJECT_TABLE = 'custom_object_records';
export const CUSTOM_OBJECT_SCOPE = 'customObjects';

/** Every custom object can be listed, read, created, changed and deleted. */
export const CUSTOM_OBJECT_OPERATIONS: OperationsDescriptor = { list: true, get: true, create: true, update: true, delete: true };

/** What filter[<rel>][<attr>] may use per target (SPEC.md's custom object rule 2). */
function filterByFor(target: string, customDisplayFields: ReadonlyMap<string, string>): string[] {
  const custom = customDisplayFields.get(target);
  if (custom) return [custom];
  if (target === 'user') return ['email', 'name'];
  if (target === 'prospect' || target === 'account' || target === 'opportunity') return ['name'];
  return [];
}

function attributeOf(field: FieldDefinition): AttributeDescriptor {
  return {
    name: field.name,
    column: field.slot,
    type: field.type === 'date-time' ? 'string' : field.type,
    ...(field.type === 'date-time' && { format: 'date-time' }),
    filterable: field.filterable,
    sortable: field.sortable,
    readOnly: false,
    required: field.required,
    search: false,
  };
}

const timestamps: AttributeDescriptor[] = ['createdAt', 'updatedAt'].map((name) => ({
  name,
  column: name === 'createdAt' ? 'created_at' : 'updated_at',
  type: 'string',
  format: 'date-time',
  filterable: true,
  sortable: true,
  readOnly: true,
  required: false,
  search: false,
}));

/**
 * The engine's descriptor of a custom object: its fields are slot columns of the shared table,
 * its rows those with its definition id. From here on the engine treats it like any resource.
 */
export function customObjectDescriptor(definition: Definition, customDisplayFields: ReadonlyMap<string, string>): ResourceDescriptor {
  const relationships: RelationshipDescriptor[] = definition.relationships.map((r) =>
    'slot' in r
      ? {
          kind: 'toOne',
          name: r.name,
          target: r.target,
          column: r.slot,
          writableOnCreate: true,
          writableOnUpdate: true,
          required: false,
          filterBy: filterByFor(r.target, customDisplayFields),
        }
      : { kind: 'toMany', name: r.name, target: r.target, inverse: r.inverse },
  );
  return {
    type: definition.name,
    collection: `customObjects/${definition.name}`,
    table: CUSTOM_OBJECT_TABLE,
    scope: CUSTOM_OBJECT_SCOPE,
    webhookActions: ['created', 'updated', 'destroyed'],
    attributes: [...definition.fields.map(attributeOf), ...timestamps],
    relationships,
    operations: CUSTOM_OBJECT_OPERATIONS,
    actions: [],
    collectionActions: [],
    partition: { column: 'definition_id', value: definition.id },
    foreignKeys: false,
  };
}
