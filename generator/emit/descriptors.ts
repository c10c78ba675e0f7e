import type { ResourceModel } from '../model.js';
import type { ResourceDescriptor } from '../../runtime/model/descriptor.js';
import { generatedHeader } from './header.js';

/** The runtime descriptor of one resource: the model without what only the generator needs. */
export function descriptorOf(resource: ResourceModel): ResourceDescriptor {
  return {
    type: resource.type,
    collection: resource.collection,
    table: resource.table,
    scope: resource.scope,
    webhookActions: resource.webhookActions,
    attributes: resource.attributes.map((a) => ({
      name: a.name,
      column: a.column,
      type: a.type,
      ...(a.format !== undefined && { format: a.format }),
      ...(a.renderedAs !== undefined && { renderedAs: a.renderedAs }),
      ...(a.items !== undefined && { itemType: a.items.type }),
      ...(a.enum !== undefined && { enum: a.enum }),
      ...(a.relationshipId !== undefined && { relationshipIdOf: a.relationshipId }),
      filterable: a.filterable,
      sortable: a.sortable,
      readOnly: a.readOnly,
      ...(a.writeOnly && { writeOnly: true }),
      required: a.required,
      ...(a.default !== undefined && { default: a.default }),
      search: a.search,
      ...(a.importKey !== undefined && { importKey: a.importKey }),
    })),
    relationships: resource.relationships,
    operations: resource.operations,
    actions: resource.actions,
    collectionActions: resource.collectionActions,
    ...(resource.listedWhen && { listedWhen: resource.listedWhen }),
    ...(resource.createBody && { createBody: resource.createBody }),
  };
}

export function emitDescriptor(resource: ResourceModel): string {
  return [
    generatedHeader(resource.file),
    `import type { ResourceDescriptor } from '../../runtime/model/descriptor.js';`,
    ``,
    `export const descriptor: ResourceDescriptor = ${JSON.stringify(descriptorOf(resource))};`,
    ``,
  ].join('\n');
}
