import type { AttributeDescriptor, ResourceDescriptor, ToOneDescriptor } from '../engine/index.js';
import { pointerSegment, validationError, type FieldError } from '../jsonapi/index.js';

/**
 * An import's `mappings` (SPEC.md "CSV import" rule 2): CSV header to field name. A field is
 * `id`, an attribute the resource takes on create, or a to-one relationship it takes on create
 * (the cell holds the related record's id). Columns without a mapping, or mapped to null, are
 * ignored.
 */

export type MappedField =
  | { readonly kind: 'id' }
  | { readonly kind: 'attribute'; readonly attribute: AttributeDescriptor }
  | { readonly kind: 'relationship'; readonly relationship: ToOneDescriptor };

/** One mapped column: where its values are in each row and what they become. */
export interface ColumnMapping {
  readonly header: string;
  readonly index: number;
  readonly field: MappedField;
  readonly fieldName: string;
}

function fieldOf(descriptor: ResourceDescriptor, name: string): MappedField | undefined {
  if (name === 'id') return { kind: 'id' };
  const attribute = descriptor.attributes.find((a) => a.name === name);
  if (attribute) return attribute.readOnly || attribute.relationshipIdOf !== undefined ? undefined : { kind: 'attribute', attribute };
  const relationship = descriptor.relationships.find((r): r is ToOneDescriptor => r.kind === 'toOne' && r.name === name);
  return relationship?.writableOnCreate ? { kind: 'relationship', relationship } : undefined;
}

/**
 * Checks `mappings` against the uploaded file's headers and the resource: every mapped header
 * is in the file, every field is one the resource takes, no field is mapped twice, and at least
 * one column is mapped. Problems are a 422 pointing at the mapping.
 */
export function resolveMappings(descriptor: ResourceDescriptor, headers: readonly string[], mappings: Readonly<Record<string, unknown>>): ColumnMapping[] {
  const problems: FieldError[] = [];
  const columns: ColumnMapping[] = [];
  const mappedBy = new Map<string, string>();
  for (const [header, fieldName] of Object.entries(mappings)) {
    const pointer = `/data/attributes/mappings/${pointerSegment(header)}`;
    if (fieldName === null) continue;
    const index = headers.indexOf(header);
    if (index < 0) {
      problems.push({ pointer, detail: `The file has no column "${header}"; its headers are ${headers.map((h) => JSON.stringify(h)).join(', ')}` });
      continue;
    }
    if (typeof fieldName !== 'string') {
      problems.push({ pointer, detail: `The mapping of "${header}" must be a field name (a string), or null to ignore the column` });
      continue;
    }
    const field = fieldOf(descriptor, fieldName);
    if (!field) {
      problems.push({
        pointer,
        detail: `"${fieldName}" is not a field a ${descriptor.type} can be imported into: map columns to id, attributes it accepts on create, or to-one relationships (by id)`,
      });
      continue;
    }
    const earlier = mappedBy.get(fieldName);
    if (earlier !== undefined) {
      problems.push({ pointer, detail: `"${fieldName}" is already mapped from "${earlier}"; a field takes one column` });
      continue;
    }
    mappedBy.set(fieldName, header);
    columns.push({ header, index, field, fieldName });
  }
  if (problems.length) throw validationError(problems);
  if (columns.length === 0) throw validationError([{ pointer: '/data/attributes/mappings', detail: 'mappings must map at least one column of the file to a field' }]);
  return columns;
}
