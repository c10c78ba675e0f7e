import { describe, expect, test } from 'vitest';
import { descriptors } from '../../../generated/resources/index.js';
import { allowedMethods, resourceRoutes, type RouteShape } from '../../../runtime/engine/routes.js';

const all = { list: true, get: true, create: true, update: true, delete: true };
const none = { list: false, get: false, create: false, update: false, delete: false };

const cases: { name: string; shape: RouteShape; want: string[] }[] = [
  {
    name: 'every operation, actions, collection actions and relationships',
    shape: { operations: all, actions: true, collectionActions: true, relationships: true },
    want: [
      'get /tasks list',
      'post /tasks create',
      'post /tasks/actions/:action collectionAction',
      'get /tasks/:id{[0-9]+} get',
      'patch /tasks/:id{[0-9]+} update',
      'delete /tasks/:id{[0-9]+} destroy',
      'post /tasks/:id{[0-9]+}/actions/:action action',
      'get /tasks/:id{[0-9]+}/:relationship{[A-Za-z][A-Za-z0-9]*} related',
    ],
  },
  {
    name: 'read-only, without actions',
    shape: { operations: { ...none, list: true, get: true }, actions: false, collectionActions: false, relationships: true },
    want: ['get /tasks list', 'get /tasks/:id{[0-9]+} get', 'get /tasks/:id{[0-9]+}/:relationship{[A-Za-z][A-Za-z0-9]*} related'],
  },
  {
    name: 'collection actions without any operation',
    shape: { operations: none, actions: false, collectionActions: true, relationships: false },
    want: ['post /tasks/actions/:action collectionAction'],
  },
  {
    name: 'relationships of a resource that cannot be read have no related URLs',
    shape: { operations: { ...none, create: true }, actions: false, collectionActions: false, relationships: true },
    want: ['post /tasks create'],
  },
];

describe('resourceRoutes', () => {
  test.each(cases)('$name', ({ shape, want }) => {
    expect(resourceRoutes(shape, '/tasks').map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual(want);
  });
});

describe('allowedMethods', () => {
  test('by collection and member path, from the standard descriptors', () => {
    const allowed = allowedMethods(descriptors.values());
    expect(allowed.get('/tasks')).toEqual(['GET', 'POST']);
    expect(allowed.get('/tasks/:id{[0-9]+}')).toEqual(['GET', 'PATCH', 'DELETE']);
    expect(allowed.get('/batches')).toEqual(['GET']);
    expect(allowed.get('/batches/:id{[0-9]+}')).toEqual(['GET']);
    expect(allowed.get('/batches/actions/:action')).toEqual(['POST']);
    expect(allowed.get('/imports/actions/:action')).toEqual(['POST']);
    expect(allowed.has('/tasks/actions/:action')).toBe(false);
  });
});
