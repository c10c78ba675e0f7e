// The OpenAPI emitter as tables: given a piece of the model, want the piece of the document it
// becomes. The whole document of the repository's schema is checked by test/api/openapi.test.ts.
import { describe, expect, test } from 'vitest';
import { emitOpenApi, openApiResourceOf } from '../../generator/emit/openapi.js';
import type { ActionModel, AttributeModel, ResourceModel, ToOneModel } from '../../generator/model.js';
import { openApiDocument, withResources, type OpenApiDocument } from '../../runtime/openapi/index.js';
import { attribute } from './model-builders.js';

function resource(type: string, given: Partial<ResourceModel> = {}): ResourceModel {
  return {
    type,
    file: `schema/${type}.json`,
    collection: `${type}s`,
    table: `${type}s`,
    scope: `${type}s`,
    stability: 'stable',
    description: `A ${type}.`,
    webhookActions: [],
    attributes: [],
    relationships: [],
    operations: { list: true, get: true, create: true, update: true, delete: true },
    actions: [],
    collectionActions: [],
    definition: {},
    ...given,
  };
}

const toOne = (name: string, target: string, given: Partial<ToOneModel> = {}): ToOneModel => ({
  kind: 'toOne',
  name,
  target,
  column: `${name}_id`,
  writableOnCreate: true,
  writableOnUpdate: true,
  required: false,
  filterBy: [],
  ...given,
});

function documentOf(...resources: ResourceModel[]): OpenApiDocument {
  return JSON.parse(emitOpenApi({ resources })) as OpenApiDocument;
}

type Json = any;

describe('attributes as the resource object shows them', () => {
  const cases: { name: string; given: Partial<AttributeModel>; want: Json }[] = [
    { name: 'nullable by default', given: {}, want: { type: ['string', 'null'] } },
    { name: 'x-required: never null', given: { required: true, maxLength: 64 }, want: { type: 'string', maxLength: 64 } },
    { name: 'an enum admits null when nullable', given: { enum: ['a', 'b'] }, want: { type: ['string', 'null'], enum: ['a', 'b', null] } },
    { name: 'read-only', given: { type: 'boolean', readOnly: true, default: false }, want: { type: ['boolean', 'null'], default: false, readOnly: true } },
    { name: 'a timestamp', given: { format: 'date-time', description: 'When.' }, want: { type: ['string', 'null'], format: 'date-time', description: 'When.' } },
    { name: 'html', given: { format: 'html' }, want: { type: ['string', 'null'], contentMediaType: 'text/html' } },
    {
      name: 'an integer within int4',
      given: { type: 'integer', required: true },
      want: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
    },
    {
      name: 'a list',
      given: { type: 'array', items: { type: 'string', format: 'email' } },
      want: { type: ['array', 'null'], items: { type: 'string', format: 'email' }, maxItems: 1000 },
    },
  ];
  test.each(cases)('$name', ({ given, want }) => {
    const document = documentOf(resource('widget', { attributes: [attribute('value', given)] }));
    expect((document.components.schemas.widget as Json).properties.attributes.properties.value).toEqual(want);
  });
});

describe('operations: the paths a resource gets', () => {
  const gadget = resource('gadget', { operations: { list: false, get: false, create: false, update: false, delete: false } });
  const cases: { name: string; given: Partial<ResourceModel>; want: string[] }[] = [
    {
      name: 'every standard operation',
      given: {},
      want: [
        'GET /api/v2/widgets widget.list',
        'POST /api/v2/widgets widget.create',
        'GET /api/v2/widgets/{id} widget.get',
        'PATCH /api/v2/widgets/{id} widget.update',
        'DELETE /api/v2/widgets/{id} widget.delete',
      ],
    },
    {
      name: 'only those whose link exists',
      given: { operations: { list: true, get: false, create: false, update: false, delete: true } },
      want: ['GET /api/v2/widgets widget.list', 'DELETE /api/v2/widgets/{id} widget.delete'],
    },
    {
      name: 'actions',
      given: {
        operations: { list: false, get: false, create: false, update: false, delete: false },
        actions: [{ name: 'spin', optionalParams: [], requiredParams: [], paramSchemas: {} }],
      },
      want: ['POST /api/v2/widgets/{id}/actions/spin widget.actions.spin'],
    },
    {
      name: 'collection actions',
      given: {
        operations: { list: false, get: false, create: false, update: false, delete: false },
        collectionActions: [{ name: 'spinAll', optionalParams: [], requiredParams: [], paramSchemas: {} }],
      },
      want: ['POST /api/v2/widgets/actions/spinAll widget.collectionActions.spinAll'],
    },
    {
      name: 'related-resource URLs of a resource that has get',
      given: { operations: { list: false, get: true, create: false, update: false, delete: false }, relationships: [toOne('gadget', 'gadget')] },
      want: ['GET /api/v2/widgets/{id} widget.get', 'GET /api/v2/widgets/{id}/gadget widget.related.gadget'],
    },
    {
      name: 'no related-resource URLs without get',
      given: { operations: { list: true, get: false, create: false, update: false, delete: false }, relationships: [toOne('gadget', 'gadget')] },
      want: ['GET /api/v2/widgets widget.list'],
    },
  ];
  test.each(cases)('$name', ({ given, want }) => {
    const document = documentOf(resource('widget', given), gadget);
    const operations = Object.entries(document.paths)
      .filter(([path]) => !path.startsWith('/api/v2/schema'))
      .flatMap(([path, item]) =>
        Object.entries(item as Record<string, { operationId: string }>).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
      );
    expect(operations.sort()).toEqual([...want].sort());
  });
});

describe('query parameters of a collection', () => {
  function listParameterNames(widget: ResourceModel, ...others: ResourceModel[]): string[] {
    const document = documentOf(widget, ...others);
    const refs = (document.paths['/api/v2/widgets'] as Json).get.parameters as { $ref: string }[];
    return refs.map((r) => (document.components.parameters[r.$ref.replace('#/components/parameters/', '')] as Json).name);
  }
  const paging = ['page[size]', 'page[after]', 'page[before]', 'page[offset]', 'page[limit]', 'count', 'newFilterSyntax'];
  const idFilters = ['filter[id]', 'filter[id][]', 'filter[id][gte]', 'filter[id][lte]'];
  const cases: { name: string; given: Partial<ResourceModel>; want: string[] }[] = [
    { name: 'no flags: id filters, sort by id, fields', given: { attributes: [attribute('note')] }, want: [...idFilters, 'sort', 'fields[widget]', ...paging] },
    {
      name: 'a filterable attribute in both syntaxes',
      given: { attributes: [attribute('name', { filterable: true })] },
      want: [...idFilters, 'filter[name]', 'filter[name][]', 'filter[name][gte]', 'filter[name][lte]', 'sort', 'fields[widget]', ...paging],
    },
    {
      name: 'a list attribute has no ranges',
      given: { attributes: [attribute('tags', { type: 'array', items: { type: 'string' }, filterable: true })] },
      want: [...idFilters, 'filter[tags]', 'filter[tags][]', 'sort', 'fields[widget]', ...paging],
    },
    {
      name: 'search',
      given: { attributes: [attribute('name', { search: true })] },
      want: [...idFilters, 'filter[q]', 'sort', 'fields[widget]', ...paging],
    },
    {
      name: 'a to-one relationship: its id, its filterBy attributes, include and its fields',
      given: { relationships: [toOne('gadget', 'gadget', { filterBy: ['label'] })] },
      want: [
        ...idFilters,
        'filter[gadget][id]',
        'filter[gadget][id][]',
        'filter[gadget][label]',
        'filter[gadget][label][]',
        'filter[gadget][label][gte]',
        'filter[gadget][label][lte]',
        'sort',
        'include',
        'fields[gadget]',
        'fields[widget]',
        ...paging,
      ],
    },
  ];
  test.each(cases)('$name', ({ given, want }) => {
    const gadget = resource('gadget', { attributes: [attribute('label', { filterable: true })] });
    expect(listParameterNames(resource('widget', given), gadget)).toEqual(want);
  });

  test('sort takes the sortable attributes and id, each maybe descending', () => {
    const document = documentOf(resource('widget', { attributes: [attribute('name', { sortable: true }), attribute('note')] }));
    expect((document.components.parameters['widget.sort'] as Json).schema).toEqual({
      type: 'string',
      pattern: '^-?(?:id|name)(?:,-?(?:id|name))*$',
    });
  });
});

describe('actions', () => {
  const cases: { name: string; given: Pick<ActionModel, 'optionalParams' | 'requiredParams' | 'paramSchemas'>; want: Json[] }[] = [
    { name: 'no parameters', given: { optionalParams: [], requiredParams: [], paramSchemas: {} }, want: [] },
    {
      name: 'required before optional, each value as its x-paramSchemas entry says, its description on the parameter',
      given: {
        optionalParams: ['dueAt', 'note', 'urgent'],
        requiredParams: ['count'],
        paramSchemas: {
          count: { type: 'integer', minimum: 1 },
          dueAt: { type: 'string', format: 'date-time', description: 'When it is due.' },
          note: { type: 'string', maxLength: 10 },
          urgent: { type: 'boolean' },
        },
      },
      want: [
        { name: 'actionParams[count]', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
        { name: 'actionParams[dueAt]', in: 'query', required: false, description: 'When it is due.', schema: { type: 'string', format: 'date-time' } },
        { name: 'actionParams[note]', in: 'query', required: false, schema: { type: 'string', maxLength: 10 } },
        { name: 'actionParams[urgent]', in: 'query', required: false, schema: { type: 'boolean' } },
      ],
    },
  ];
  test.each(cases)('$name', ({ given, want }) => {
    const document = documentOf(resource('widget', { actions: [{ name: 'spin', ...given }] }));
    const post = (document.paths['/api/v2/widgets/{id}/actions/spin'] as Json).post;
    expect(post.parameters).toEqual([{ $ref: '#/components/parameters/Id' }, ...want]);
    expect(post.security).toEqual([{ bearerAuth: [] }, { oauth2: ['widgets.write'] }]);
  });
});

describe('collection actions', () => {
  const filter = { name: 'actionParams[filter]', in: 'query', required: false, style: 'deepObject', explode: true };
  const cases: { name: string; given: Partial<ActionModel>; parameters: Json[]; response: string; scopes: string[] }[] = [
    {
      name: 'filter as a deep object, required before optional; answers with its own type',
      given: {
        optionalParams: ['filter', 'skipConfirmation'],
        requiredParams: ['objectName'],
        paramSchemas: { filter: { type: 'object' }, objectName: { type: 'string' }, skipConfirmation: { type: 'boolean' } },
      },
      parameters: [
        { name: 'actionParams[objectName]', in: 'query', required: true, schema: { type: 'string' } },
        filter,
        { name: 'actionParams[skipConfirmation]', in: 'query', required: false, schema: { type: 'boolean' } },
      ],
      response: 'widget.document',
      scopes: ['widgets.read', 'widgets.write'],
    },
    {
      name: 'answering with another type needs read on it',
      given: { target: 'gadget' },
      parameters: [],
      response: 'gadget.document',
      scopes: ['gadgets.read', 'widgets.read', 'widgets.write'],
    },
  ];
  test.each(cases)('$name', ({ given, parameters, response, scopes }) => {
    const action = { name: 'spinAll', optionalParams: [], requiredParams: [], paramSchemas: {}, ...given };
    const document = documentOf(resource('widget', { collectionActions: [action] }), resource('gadget'));
    const post = (document.paths['/api/v2/widgets/actions/spinAll'] as Json).post;
    expect(post.parameters).toEqual(parameters.map((p) => expect.objectContaining(p)));
    expect(post.requestBody.required).toBe(false);
    expect(post.responses['200'].content['application/vnd.api+json'].schema).toEqual({ $ref: `#/components/schemas/${response}` });
    expect(post.security).toEqual([{ bearerAuth: [] }, { oauth2: scopes }]);
  });
});

describe('request bodies', () => {
  const gadget = resource('gadget');
  const cases: { name: string; given: Partial<ResourceModel>; create: Json; update: Json }[] = [
    {
      name: 'x-required attributes are required on create only; read-only ones are absent',
      given: { attributes: [attribute('name', { required: true }), attribute('note'), attribute('count', { type: 'integer', readOnly: true })] },
      create: { data: ['type', 'attributes'], attributes: ['name'], names: ['name', 'note'] },
      update: { data: ['type', 'id'], attributes: [], names: ['name', 'note'] },
    },
    {
      name: 'relationships writable per operation',
      given: { relationships: [toOne('gadget', 'gadget', { writableOnUpdate: false, required: true })] },
      create: { data: ['type', 'relationships'], attributes: [], names: [], relationships: ['gadget'] },
      update: { data: ['type', 'id'], attributes: [], names: [], relationships: [] },
    },
  ];
  test.each(cases)('$name', ({ given, create, update }) => {
    const document = documentOf(resource('widget', given), gadget);
    for (const [name, want] of [
      ['widget.create', create],
      ['widget.update', update],
    ] as const) {
      const data = (document.components.schemas[name] as Json).properties.data;
      expect(data.required, name).toEqual(want.data);
      expect(data.properties.type, name).toEqual({ type: 'string', const: 'widget' });
      expect('id' in data.properties, name).toBe(name === 'widget.update');
      expect(data.properties.attributes.required, name).toEqual(want.attributes);
      expect(Object.keys(data.properties.attributes.properties), name).toEqual(want.names);
      if (want.relationships) expect(Object.keys(data.properties.relationships.properties), name).toEqual(want.relationships);
    }
  });
});

describe('a create that is no JSON:API create (x-createBody)', () => {
  test('takes its own attributes and answers data without type or id', () => {
    const createBody = {
      attributes: { requester_email: { type: 'string', format: 'email' }, request_type: { type: 'string', enum: ['Delete'] } },
      required: ['requester_email'],
      answer: { ticket: { type: 'string', format: 'uuid' } },
    };
    const create = (documentOf(resource('widget', { createBody })).paths['/api/v2/widgets'] as Json).post;
    const body = create.requestBody.content['application/vnd.api+json'].schema.properties.data;
    expect(body.properties.type).toEqual({ type: 'string', enum: ['widget'] });
    expect(body.properties.attributes).toEqual({ type: 'object', properties: createBody.attributes, required: ['requester_email'] });
    expect(create.responses['201'].content['application/vnd.api+json'].schema).toEqual({
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'object', properties: createBody.answer, required: ['ticket'] } },
    });
    expect(create.responses['201'].headers).toBeUndefined();
  });
});

describe('adding resources at run time', () => {
  test('gives the document that would have been emitted with them', () => {
    const gadget = resource('gadget', { attributes: [attribute('label', { filterable: true, sortable: true })] });
    const widget = resource('widget', {
      scope: 'customObjects',
      collection: 'customObjects/widget',
      attributes: [attribute('name', { required: true, filterable: true })],
      relationships: [toOne('gadget', 'gadget', { filterBy: ['label'] })],
    });
    const all = [gadget, widget].map(openApiResourceOf);
    const byType = new Map(all.map((r) => [r.type, r]));
    const added = withResources(openApiDocument([all[0]!]), [all[1]!], (type) => byType.get(type));
    expect(JSON.stringify(added, null, 2)).toBe(JSON.stringify(openApiDocument(all), null, 2));
  });
});
