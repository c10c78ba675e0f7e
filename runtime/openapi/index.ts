export { openApiDocument, withResources, type OpenApiDocument } from './document.js';
export { actionPath, collectionPath, memberPath } from './paths.js';
export type { JsonSchema, OpenApiAttribute, OpenApiResource, OutlineLookup, ResourceOutline } from './shapes.js';
