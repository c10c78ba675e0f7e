import { invalidQueryParameter } from '../jsonapi/index.js';
import type { ResourceDescriptor } from '../model/descriptor.js';

/** fields[type]=a,b: per resource type, the attributes and relationships to return. */
export type Fieldsets = ReadonlyMap<string, ReadonlySet<string>>;

const FIELDS_PARAM = /^fields\[([A-Za-z0-9_]+)\]$/;

export function isFieldsParam(name: string): boolean {
  return FIELDS_PARAM.test(name);
}

export function parseFields(params: Map<string, string[]>, descriptorOf: (type: string) => ResourceDescriptor | undefined): Fieldsets {
  const fieldsets = new Map<string, Set<string>>();
  for (const [parameter, values] of params) {
    const match = parameter.match(FIELDS_PARAM);
    if (!match) continue;
    const type = match[1]!;
    const descriptor = descriptorOf(type);
    if (!descriptor) throw invalidQueryParameter(parameter, `${type} is not a resource type (fields[] takes a type, not a relationship name)`);
    if (new Set(values).size > 1) throw invalidQueryParameter(parameter, `${parameter} is given more than once with different values`);
    const names = values[0]!.split(',').filter((n) => n !== '');
    for (const name of names) {
      const known = descriptor.attributes.some((a) => a.name === name) || descriptor.relationships.some((r) => r.name === name);
      if (!known) throw invalidQueryParameter(parameter, `${type} has no field ${name}`);
    }
    fieldsets.set(type, new Set(names));
  }
  return fieldsets;
}
