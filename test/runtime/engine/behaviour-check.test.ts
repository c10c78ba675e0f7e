import { describe, expect, test } from 'vitest';
import { descriptors } from '../../../generated/resources/index.js';
import { checkBehaviours, declaredChanges } from '../../../runtime/engine/behaviour-check.js';
import type { ActionHandler, ResourceBehaviour } from '../../../runtime/engine/behaviour.js';
import type { ResourceDescriptor } from '../../../runtime/model/descriptor.js';
import { standardBehaviours } from '../../../runtime/behaviours/index.js';

function attribute(name: string) {
  return { name, column: name, type: 'string', filterable: false, sortable: false, readOnly: false, required: false, search: false } as const;
}

/** A door with a state, an owner (to-one), keys (to-many) and an open action. */
const door: ResourceDescriptor = {
  type: 'door',
  collection: 'doors',
  table: 'doors',
  scope: 'doors',
  webhookActions: [],
  attributes: [attribute('state'), attribute('openedAt')],
  relationships: [
    { kind: 'toOne', name: 'owner', target: 'user', column: 'owner_id', writableOnCreate: true, writableOnUpdate: true, required: false, filterBy: [] },
    { kind: 'toMany', name: 'keys', target: 'key', inverse: 'door' },
  ],
  operations: { list: true, get: true, create: true, update: true, delete: true },
  actions: [{ name: 'open', optionalParams: [], requiredParams: [], paramSchemas: {} }],
  collectionActions: [],
};

const open: ActionHandler = { changes: ['state', 'openedAt'], handle: ({ now }) => ({ changes: { state: 'open', openedAt: now.toISOString() } }) };

const cases: { name: string; behaviours: Record<string, ResourceBehaviour>; want: string }[] = [
  {
    name: 'a behaviour for a type no descriptor has',
    behaviours: { door: { actions: { open } }, window: {} },
    want: 'window: a behaviour is given, but no resource has this type',
  },
  { name: 'a declared action without a handler', behaviours: {}, want: 'door: the schema declares action open, which has no handler' },
  {
    name: 'a handler for an action the schema does not declare',
    behaviours: { door: { actions: { open, slam: { changes: [], handle: () => ({ changes: {} }) } } } },
    want: 'door: action slam has a handler, but the schema does not declare it',
  },
  {
    name: 'derive changing an unknown name',
    behaviours: { door: { actions: { open }, derives: ['openedAt', 'colour'], derive: () => ({}) } },
    want: 'door: derive may change colour, which is neither an attribute nor a to-one relationship',
  },
  {
    name: 'derive changing a to-many relationship',
    behaviours: { door: { actions: { open }, derives: ['keys'], derive: () => ({}) } },
    want: 'door: derive may change keys, which is neither an attribute nor a to-one relationship',
  },
  {
    name: 'an action changing an unknown name',
    behaviours: { door: { actions: { open: { ...open, changes: ['state', 'hinge'] } } } },
    want: 'door: action open may change hinge, which is neither an attribute nor a to-one relationship',
  },
  {
    name: 'a sensitive attribute that is not an attribute',
    behaviours: { door: { actions: { open }, sensitiveAttributes: ['state', 'owner'] } },
    want: 'door: sensitive attribute owner is not an attribute',
  },
];

describe('checkBehaviours refuses', () => {
  test.each(cases)('$name', ({ behaviours, want }) => {
    expect(() => checkBehaviours(new Map([['door', door]]), new Map(Object.entries(behaviours)))).toThrow(new Error(want));
  });

  test('every problem at once, one a line', () => {
    const behaviours = new Map<string, ResourceBehaviour>([
      ['window', {}],
      ['door', { derives: ['colour'] }],
    ]);
    expect(() => checkBehaviours(new Map([['door', door]]), behaviours)).toThrow(
      new Error(
        [
          'window: a behaviour is given, but no resource has this type',
          'door: the schema declares action open, which has no handler',
          'door: derive may change colour, which is neither an attribute nor a to-one relationship',
        ].join('\n'),
      ),
    );
  });
});

describe('checkBehaviours accepts', () => {
  test('a behaviour that derives attributes and to-one relationships and handles every declared action', () => {
    const behaviour: ResourceBehaviour = { derives: ['openedAt', 'owner'], derive: () => ({}), actions: { open }, sensitiveAttributes: ['state'] };
    expect(() => checkBehaviours(new Map([['door', door]]), new Map([['door', behaviour]]))).not.toThrow();
  });

  test('the standard behaviours against the generated descriptors', () => {
    expect(() => checkBehaviours(descriptors, standardBehaviours)).not.toThrow();
  });
});

describe('declaredChanges', () => {
  test('returns what was returned when every name is declared', () => {
    const returned = { state: 'open' };
    expect(declaredChanges('door action open', ['state', 'openedAt'], returned)).toBe(returned);
  });

  test('throws naming an undeclared name', () => {
    expect(() => declaredChanges('door derive', ['openedAt'], { openedAt: null, colour: 'red' })).toThrow(
      new Error('door derive changed colour, which it does not declare it may change'),
    );
    expect(() => declaredChanges('door derive', undefined, { openedAt: null })).toThrow(
      new Error('door derive changed openedAt, which it does not declare it may change'),
    );
  });
});
