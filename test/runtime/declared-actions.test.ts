import { describe, expect, test } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { BULK_ACTIONS } from '../../runtime/bulk/actions/definitions.js';
import { checkDeclaredActions, collectionActionProblems } from '../../runtime/declared-actions.js';
import type { ResourceDescriptor } from '../../runtime/model/descriptor.js';

function declaring(type: string, names: string[]): ResourceDescriptor {
  return {
    type,
    collection: `${type}s`,
    table: `${type}s`,
    scope: `${type}s`,
    webhookActions: [],
    attributes: [],
    relationships: [],
    operations: { list: true, get: true, create: false, update: false, delete: false },
    actions: [],
    collectionActions: names.map((name) => ({ name, optionalParams: [], requiredParams: [], paramSchemas: {} })),
  };
}

const cases: { name: string; declared: ResourceDescriptor[]; served: Record<string, string[]>; want: string[] }[] = [
  { name: 'the same names, in any order', declared: [declaring('batch', ['b', 'a'])], served: { batch: ['a', 'b'] }, want: [] },
  {
    name: 'declared but not served',
    declared: [declaring('batch', ['a', 'b'])],
    served: { batch: ['a'] },
    want: ['batch: the schema declares collection action b, which nothing serves'],
  },
  {
    name: 'served but not declared, the type itself missing included',
    declared: [declaring('batch', [])],
    served: { batch: ['a'], import: ['bulkUpsert'] },
    want: [
      'batch: collection action a is served, but the schema does not declare it',
      'import: collection action bulkUpsert is served, but the schema does not declare it',
    ],
  },
  {
    name: 'declared on a type nothing serves collection actions of',
    declared: [declaring('task', ['completeAll'])],
    served: {},
    want: ['task: the schema declares collection action completeAll, which nothing serves'],
  },
];

describe('collectionActionProblems', () => {
  test.each(cases)('$name', ({ declared, served, want }) => {
    expect(collectionActionProblems(new Map(declared.map((d) => [d.type, d])), served)).toEqual(want);
  });
});

describe('checkDeclaredActions', () => {
  test('the schema declares exactly the bulk actions, upserts, upload steps and imports served', () => {
    expect(() => checkDeclaredActions(descriptors)).not.toThrow();
    expect(
      descriptors
        .get('batch')!
        .collectionActions.map((a) => a.name)
        .sort(),
    ).toEqual([...BULK_ACTIONS.keys()].sort());
    expect(
      descriptors
        .get('import')!
        .collectionActions.map((a) => a.name)
        .sort(),
    ).toEqual(['accountsImport', 'bulkUpsert', 'customObjectBulkUpsert', 'generateUploadLink', 'prospectsImport', 'validateUpload']);
  });

  test('throws naming each mismatch', () => {
    const batch = descriptors.get('batch')!;
    const changed = new Map(descriptors).set('batch', {
      ...batch,
      collectionActions: [
        ...batch.collectionActions.filter((a) => a.name !== 'prospectsPauseAll'),
        { name: 'prospectsExplode', optionalParams: [], requiredParams: [], paramSchemas: {} },
      ],
    });
    expect(() => checkDeclaredActions(changed)).toThrow(
      [
        "The schema's collection actions and the routes serving them disagree:",
        'batch: the schema declares collection action prospectsExplode, which nothing serves',
        'batch: collection action prospectsPauseAll is served, but the schema does not declare it',
      ].join('\n'),
    );
  });
});
