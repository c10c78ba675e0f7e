import type { SchemaModel } from '../model.js';

/**
 * The document GET /api/v2/schema serves: the schema files themselves under `definitions`,
 * with root `properties` pointing at each, as the reference deployment shapes it.
 */
export function servedSchema(model: SchemaModel): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/hyper-schema#',
    definitions: Object.fromEntries(model.resources.map((r) => [r.type, r.definition])),
    properties: Object.fromEntries(model.resources.map((r) => [r.type, { $ref: `#/definitions/${r.type}` }])),
    type: 'object',
  };
}

export function emitServedSchema(model: SchemaModel): string {
  return `${JSON.stringify(servedSchema(model), null, 2)}\n`;
}
