import { createCatalog, type DynamicReferences, type ResourceDescriptor, type ToOneDescriptor } from '../engine/index.js';
import { definitionOf } from './definitions.js';
import { orgDescriptors, withoutDanglingInverses } from './org-descriptors.js';

/**
 * Custom-object relationships pointing at a type, for the record writer to clear (with an
 * `updated` event per record) when records of the type are deleted: custom records carry no
 * foreign keys, as their targets vary. The org's definitions are read in the deleting
 * transaction, and the catalog their objects resolve in is built from them only when some
 * relationship points at the type.
 */
export function customObjectReferences(standard: ReadonlyMap<string, ResourceDescriptor>): DynamicReferences {
  return async (tx, orgId, type) => {
    const rows = await tx`select * from custom_object_definitions where org_id = ${orgId} order by name`;
    const definitions = rows.map((row) => definitionOf(row as never));
    if (!definitions.some((d) => d.relationships.some((r) => 'slot' in r && r.target === type))) return undefined;
    const descriptors = orgDescriptors(standard, withoutDanglingInverses(definitions));
    const references = definitions.flatMap((d) => {
      const descriptor = descriptors.get(d.name)!;
      return descriptor.relationships.filter((r): r is ToOneDescriptor => r.kind === 'toOne' && r.target === type).map((relationship) => ({ descriptor, relationship }));
    });
    return { references, catalog: createCatalog(descriptors) };
  };
}
