import { randomBytes } from 'node:crypto';
import type { AttributeDescriptor, ResourceDescriptor, ToOneDescriptor, WriteEffects } from '../engine/index.js';
import { writeOne, type MadeRecord } from './writes.js';

/**
 * A sample record of any resource, built from its descriptor: its required attributes get a
 * value that fits their type, format or enum, a few common attributes (name, subject, ...) a
 * readable one, and each required to-one a sample record of its target, made first.
 */

/** How deep required to-ones are followed (a prospect note needs a prospect, ...). */
const MAX_DEPTH = 3;

/** Readable values of attributes many resources have, used where the resource has them writable. */
function commonValues(type: string, now: Date): Readonly<Record<string, unknown>> {
  return {
    name: `Sample ${type}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    title: `Sample ${type}`,
    subject: `Hello from a sample ${type}`,
    bodyHtml: '<p>Hello from the Cadence sandbox.</p>',
    note: `Sample ${type}, made by cadence trigger at ${now.toISOString()}`,
  };
}

/**
 * Values the writer's rules need where the schema does not say so: a step of an interval
 * sequence (the sample sequence's kind) needs its interval in minutes.
 */
const RULE_VALUES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  sequenceStep: { interval: 1440, order: 1 },
};

/** A value of the attribute's type, or undefined when none can be made (an object of unknown shape). */
export function sampleValue(attribute: AttributeDescriptor, type: string, now: Date): unknown {
  if (attribute.enum && attribute.enum.length > 0) return attribute.enum[0];
  switch (attribute.type) {
    case 'string':
      // Unique, as some addresses must be in their org (users'): a trigger can run again.
      if (attribute.format === 'email') return `sample.${type.toLowerCase()}.${randomBytes(4).toString('hex')}@example.test`;
      if (attribute.format === 'uri') return `https://example.test/${type}`;
      if (attribute.format === 'date-time') return now.toISOString();
      if (attribute.format === 'date') return now.toISOString().slice(0, 10);
      if (attribute.format !== undefined) return undefined;
      return `Sample ${type} ${attribute.name}`;
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return attribute.itemType === 'string' ? [`sample-${type}`] : [];
    default:
      return undefined;
  }
}

const writable = (a: AttributeDescriptor) => !a.readOnly && a.relationshipIdOf === undefined;

function requiredToOnes(descriptor: ResourceDescriptor): ToOneDescriptor[] {
  return descriptor.relationships.filter((r): r is ToOneDescriptor => r.kind === 'toOne' && r.required);
}

/**
 * Whether a sample record of the resource can be made from its descriptor alone: the API can
 * create it, every required attribute has a sample value, no required relationship is
 * polymorphic, and required to-ones lead to resources that can be sampled too.
 */
export function canSample(descriptors: ReadonlyMap<string, ResourceDescriptor>, descriptor: ResourceDescriptor, depth = 0): boolean {
  if (!descriptor.operations.create || descriptor.createBody || depth > MAX_DEPTH) return false;
  if (descriptor.attributes.some((a) => a.required && writable(a) && sampleValue(a, descriptor.type, new Date(0)) === undefined)) return false;
  if (descriptor.relationships.some((r) => r.kind === 'polymorphicToOne' && r.required)) return false;
  return requiredToOnes(descriptor).every((r) => {
    const target = descriptors.get(r.target);
    return target !== undefined && canSample(descriptors, target, depth + 1);
  });
}

/** The values of a sample record: required attributes, the common ones it has, and `given`. */
export function sampleValues(descriptor: ResourceDescriptor, now: Date, given: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const common = commonValues(descriptor.type, now);
  for (const attribute of descriptor.attributes.filter(writable)) {
    if (attribute.name in common && attribute.type === 'string' && !attribute.enum && !attribute.format) values[attribute.name] = common[attribute.name];
    else if (attribute.required) values[attribute.name] = sampleValue(attribute, descriptor.type, now);
  }
  return { ...values, ...RULE_VALUES[descriptor.type], ...given };
}

/**
 * Writes a sample record of `descriptor`'s resource, after a sample of each required to-one's
 * target, and returns them all, the record itself last.
 */
export async function writeSampleRecord(
  effects: WriteEffects,
  descriptors: ReadonlyMap<string, ResourceDescriptor>,
  descriptor: ResourceDescriptor,
  given: Readonly<Record<string, unknown>> = {},
): Promise<MadeRecord[]> {
  const made: MadeRecord[] = [];
  const links: Record<string, unknown> = {};
  for (const relationship of requiredToOnes(descriptor)) {
    if (relationship.name in given) continue;
    const targetRecords = await writeSampleRecord(effects, descriptors, descriptors.get(relationship.target)!);
    made.push(...targetRecords);
    links[relationship.name] = targetRecords.at(-1)!.id;
  }
  const row = await writeOne(effects, effects.create(descriptor.type, sampleValues(descriptor, effects.now, { ...links, ...given })));
  made.push({ type: descriptor.type, id: Number(row.id) });
  return made;
}

/** A writable text attribute (no enum, no format) an update can change, if the resource has one. */
export function updatableText(descriptor: ResourceDescriptor): AttributeDescriptor | undefined {
  const texts = descriptor.attributes.filter((a) => writable(a) && !a.writeOnly && a.type === 'string' && !a.enum && !a.format);
  return texts.find((a) => ['name', 'title', 'note', 'subject', 'body', 'description'].includes(a.name)) ?? texts[0];
}
