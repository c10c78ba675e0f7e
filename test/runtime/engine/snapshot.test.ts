import { describe, expect, it } from 'vitest';
import { descriptors } from '../../../generated/resources/index.js';
import { standardBehaviours } from '../../../runtime/behaviours/index.js';
import { snapshot } from '../../../runtime/engine/record-rules.js';

const context = { descriptor: descriptors.get('webhook')!, behaviours: standardBehaviours };
const attributeNames = context.descriptor.attributes.filter((a) => !a.writeOnly).map((a) => a.name);
/** An attribute events copy but never show (the webhook behaviour's sensitive ones that are readable). */
const sensitiveNames = standardBehaviours.get('webhook')!.sensitiveAttributes ?? [];
const sensitive = sensitiveNames.find((name) => attributeNames.includes(name))!;

describe('snapshot limited to names, as an update event takes it', () => {
  it('copies the named attributes only, in the resource order whatever the order of the names, redacting sensitive ones', () => {
    expect(sensitive).toBeDefined();
    const [first, second, third] = attributeNames.filter((name) => !sensitiveNames.includes(name));
    const row = { id: 1, [first!]: 'a', [second!]: null, [third!]: 'c', [sensitive]: 'hunter2' };
    const names = new Set([third!, 'noSuchAttribute', first!, sensitive, second!]);
    const taken = snapshot(context, row, names);
    expect(Object.keys(taken.attributes)).toEqual(attributeNames.filter((name) => names.has(name)));
    expect(taken.attributes).toEqual({ [first!]: 'a', [second!]: null, [third!]: 'c', [sensitive]: '[REDACTED]' });
  });

  it('copies every attribute when no names are given, nulls included', () => {
    expect(Object.keys(snapshot(context, { id: 1 }).attributes)).toEqual(attributeNames);
  });
});
