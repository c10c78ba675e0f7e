import type { ResourceDescriptor } from '../engine/index.js';
import type { Definition } from './definition.js';
import { customObjectDescriptor } from './descriptor.js';

/**
 * The descriptors of an org's resources: the standard ones and one per custom object, built
 * from its definitions as served (withoutDanglingInverses). The registry serves them; deletes
 * resolve the custom objects that refer to a deleted record in them.
 */
export function orgDescriptors(standard: ReadonlyMap<string, ResourceDescriptor>, served: readonly Definition[]): Map<string, ResourceDescriptor> {
  const displayFields = new Map(served.map((d) => [d.name, d.displayField]));
  const descriptors = new Map(standard);
  for (const definition of served) descriptors.set(definition.name, customObjectDescriptor(definition, displayFields));
  return descriptors;
}

/**
 * Drops to-many relationships whose inverse to-one was since removed from the target, so a
 * later change to one object never leaves another unservable.
 */
export function withoutDanglingInverses(definitions: readonly Definition[]): Definition[] {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  return definitions.map((d) => ({
    ...d,
    relationships: d.relationships.filter(
      (r) => 'slot' in r || byName.get(r.target)?.relationships.some((back) => back.name === r.inverse && 'slot' in back && back.target === d.name),
    ),
  }));
}
