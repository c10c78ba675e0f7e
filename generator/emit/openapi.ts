import { openApiDocument, type OpenApiAttribute, type OpenApiResource } from '../../runtime/openapi/index.js';
import type { AttributeModel, ResourceModel, SchemaModel } from '../model.js';
import { attributeValueSchema } from './body-schemas.js';

/**
 * generated/openapi.json: the OpenAPI 3.1 document of the standard resources, built by the
 * runtime's own builder (which adds custom objects per organisation when it serves it), from
 * the same value schemas the request validators check.
 */

function attributeOf(a: AttributeModel): OpenApiAttribute {
  return {
    name: a.name,
    type: a.type,
    schema: {
      ...attributeValueSchema(a),
      ...(a.format === 'html' && { contentMediaType: 'text/html' }),
      ...(a.default !== undefined && { default: a.default }),
      ...(a.description !== undefined && { description: a.description }),
    },
    readOnly: a.readOnly,
    ...(a.writeOnly && { writeOnly: true }),
    required: a.required,
    filterable: a.filterable,
    sortable: a.sortable,
    search: a.search,
  };
}

export function openApiResourceOf(resource: ResourceModel): OpenApiResource {
  return {
    type: resource.type,
    collection: resource.collection,
    scope: resource.scope,
    description: resource.description,
    attributes: resource.attributes.map(attributeOf),
    relationships: resource.relationships,
    operations: resource.operations,
    actions: resource.actions,
    collectionActions: resource.collectionActions,
    ...(resource.createBody && { createBody: resource.createBody }),
  };
}

export function emitOpenApi(model: SchemaModel): string {
  return `${JSON.stringify(openApiDocument(model.resources.map(openApiResourceOf)), null, 2)}\n`;
}
