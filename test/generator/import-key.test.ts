// x-importKey in the generator's output: the descriptor carries it where the schema sets it, and
// it adds no index to the resource's table (duplicate lookups go through import_keys, kept by
// triggers: see migrations/0019_import_key_triggers.sql and test/api/import-keys.test.ts).
import { describe, expect, test } from 'vitest';
import { descriptorOf } from '../../generator/emit/descriptors.js';
import { emitTable } from '../../generator/emit/drizzle-tables.js';
import type { AttributeModel, ResourceModel } from '../../generator/model.js';
import { attribute } from './model-builders.js';

function contact(...attributes: AttributeModel[]): ResourceModel {
  return {
    type: 'contact',
    file: 'schema/contact.json',
    collection: 'contacts',
    table: 'contacts',
    scope: 'contacts',
    stability: 'stable',
    description: 'A contact.',
    webhookActions: [],
    attributes,
    relationships: [],
    operations: { list: true, get: true, create: true, update: true, delete: true },
    actions: [],
    collectionActions: [],
    definition: {},
  };
}

describe('x-importKey', () => {
  test('the descriptor carries importKey only where the schema sets it', () => {
    const [domain, nickname] = descriptorOf(contact(attribute('domain', { importKey: 1 }), attribute('nickname'))).attributes;
    expect(domain).toMatchObject({ name: 'domain', importKey: 1 });
    expect(nickname).not.toHaveProperty('importKey');
  });

  test('the table is the same with or without it', () => {
    const keyed = contact(attribute('emails', { type: 'array', items: { type: 'string' }, importKey: 1 }));
    const plain = contact(attribute('emails', { type: 'array', items: { type: 'string' } }));
    expect(emitTable(keyed, { resources: [keyed] })).toBe(emitTable(plain, { resources: [plain] }));
  });
});
