import { invalidQueryParameter } from '../jsonapi/index.js';
import type { PolymorphicToOneDescriptor, ResourceDescriptor, ToOneDescriptor } from '../model/descriptor.js';

/**
 * include=a,b.c as a tree of to-one relationships, checked against the schema. A polymorphic
 * to-one gives one node per target type, each taking the rows whose relationship names that type.
 */
export interface IncludeNode {
  readonly relationship: ToOneDescriptor | PolymorphicToOneDescriptor;
  readonly target: ResourceDescriptor;
  readonly children: IncludeNode[];
}

export const MAX_INCLUDE_DEPTH = 3;

export function parseInclude(descriptor: ResourceDescriptor, text: string | undefined, descriptorOf: (type: string) => ResourceDescriptor | undefined): IncludeNode[] {
  const roots: IncludeNode[] = [];
  for (const path of (text ?? '').split(',').filter((p) => p !== '')) {
    const names = path.split('.');
    if (names.length > MAX_INCLUDE_DEPTH) throw invalidQueryParameter('include', `include paths are limited to ${MAX_INCLUDE_DEPTH} levels`);
    let level = roots;
    let current = descriptor;
    for (const [depth, name] of names.entries()) {
      // SPEC.md's custom object rule 4: include goes one level deep through custom objects.
      if (depth > 0 && current.partition) {
        throw invalidQueryParameter('include', `include goes only one level deep through custom object relationships (${path})`);
      }
      const relationship = current.relationships.find((r) => r.name === name);
      if (!relationship) throw invalidQueryParameter('include', `${current.type} has no relationship ${name} (in include path ${path})`);
      if (relationship.kind === 'toMany') {
        throw invalidQueryParameter('include', `${name} is a link-only relationship and cannot be included; follow its links.related`);
      }
      if (relationship.kind === 'polymorphicToOne') {
        // Its records are of several types, so a path cannot name what lies beyond them.
        if (depth < names.length - 1) throw invalidQueryParameter('include', `${name} names records of several types and must end its include path (${path})`);
        for (const type of relationship.targets) {
          if (!level.some((n) => n.relationship.name === name && n.target.type === type)) level.push({ relationship, target: descriptorOf(type)!, children: [] });
        }
        break;
      }
      const target = descriptorOf(relationship.target)!;
      let node = level.find((n) => n.relationship.name === name);
      if (!node) {
        node = { relationship, target, children: [] };
        level.push(node);
      }
      level = node.children;
      current = target;
    }
  }
  return roots;
}
