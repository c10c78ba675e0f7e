// The table emitter's import-key indexes as a table: given an attribute, want the index lines of
// its table. The repository's own tables are checked by generator.test.ts and its migrations.
import { describe, expect, test } from 'vitest';
import { descriptorOf } from '../../generator/emit/descriptors.js';
import { emitTable } from '../../generator/emit/drizzle-tables.js';
import type { AttributeModel, ResourceModel } from '../../generator/model.js';

function attribute(name: string, given: Partial<AttributeModel> = {}): AttributeModel {
  return { name, column: name, type: 'string', filterable: false, sortable: false, readOnly: false, writeOnly: false, required: false, search: false, ...given };
}

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

function tableOf(resource: ResourceModel): string {
  return emitTable(resource, { resources: [resource] });
}

/** The index( calls of a table, one a line, without the comma (or the list's closing bracket) after each. */
function indexesOf(table: string): string[] {
  return table
    .split('\n')
    .filter((line) => line.trimStart().startsWith('index('))
    .map((line) => line.trim().replace(/\]?,$/, ''));
}

describe('import-key indexes', () => {
  const cases: { name: string; given: AttributeModel; want: string[] }[] = [
    {
      name: 'a text array: GIN over its lower-cased elements',
      given: attribute('emails', { type: 'array', items: { type: 'string', format: 'email' }, importKey: 1 }),
      want: [`index('contacts_emails_import_key_idx').using('gin', sql\`cadence_system.lower_text_array(\${t.emails})\`)`],
    },
    {
      name: 'a string: btree on org_id and lower(column)',
      given: attribute('domainName', { column: 'domain_name', importKey: 1 }),
      want: [`index('contacts_domain_name_import_key_idx').on(t.orgId, sql\`lower(\${t.domainName})\`)`],
    },
    {
      name: 'a searched string: its search index serves, no second one',
      given: attribute('name', { search: true, importKey: 2 }),
      want: [`index('contacts_name_search_idx').on(t.orgId, sql\`lower(\${t.name}) text_pattern_ops\`)`],
    },
    { name: 'no import key: no index', given: attribute('nickname'), want: [] },
  ];
  for (const { name, given, want } of cases) {
    test(name, () => {
      expect(indexesOf(tableOf(contact(given)))).toEqual(want);
    });
  }

  test('a table whose only sql`` is an import key imports sql', () => {
    expect(tableOf(contact(attribute('domain', { importKey: 1 })))).toContain(`import { sql } from 'drizzle-orm';`);
    expect(tableOf(contact(attribute('domain')))).not.toContain(`from 'drizzle-orm'`);
  });
});

describe('the descriptor', () => {
  test('carries importKey only where the schema sets it', () => {
    const [domain, nickname] = descriptorOf(contact(attribute('domain', { importKey: 1 }), attribute('nickname'))).attributes;
    expect(domain).toMatchObject({ name: 'domain', importKey: 1 });
    expect(nickname).not.toHaveProperty('importKey');
  });
});
