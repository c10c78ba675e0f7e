import type { ResourceDescriptor } from '../engine/index.js';
import { withResources, type OpenApiAttribute, type OpenApiDocument, type OpenApiResource } from '../openapi/index.js';
import type { Definition } from './definition.js';
import { fieldSchema } from './validators.js';

const TIMESTAMP = { type: 'string', format: 'date-time' };

/**
 * A custom object as the OpenAPI builder describes resources: its engine descriptor (fields,
 * timestamps, relationships, operations) with the value schemas its validators check.
 */
export function customObjectOpenApiResource(definition: Definition, descriptor: ResourceDescriptor): OpenApiResource {
  const fields = new Map(definition.fields.map((f) => [f.name, f]));
  const attributes: OpenApiAttribute[] = descriptor.attributes.map((a) => {
    const field = fields.get(a.name);
    return {
      name: a.name,
      type: a.type,
      schema: field ? fieldSchema(field) : TIMESTAMP,
      readOnly: a.readOnly,
      required: a.required,
      filterable: a.filterable,
      sortable: a.sortable,
      search: a.search,
    };
  });
  return {
    type: descriptor.type,
    collection: descriptor.collection,
    scope: descriptor.scope,
    description: definition.displayName,
    attributes,
    relationships: descriptor.relationships,
    operations: descriptor.operations,
    actions: descriptor.actions,
    collectionActions: descriptor.collectionActions,
  };
}

/**
 * The served OpenAPI document with an organisation's custom objects added: their paths under
 * /api/v2/customObjects/<name>, schemas, parameters and the customObjects scopes.
 * `descriptors` holds the standard resources and these custom objects, as the registry built them.
 */
export function withCustomObjectsOpenApi(
  document: OpenApiDocument,
  objects: { readonly definitions: readonly Definition[]; readonly descriptors: ReadonlyMap<string, ResourceDescriptor> },
): OpenApiDocument {
  const resources = objects.definitions.flatMap((d) => {
    const descriptor = objects.descriptors.get(d.name);
    return descriptor ? [customObjectOpenApiResource(d, descriptor)] : [];
  });
  return withResources(document, resources, (type) => objects.descriptors.get(type));
}
