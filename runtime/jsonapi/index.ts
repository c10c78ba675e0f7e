export * from './errors.js';
export { MEDIA_TYPE, jsonApiMediaType } from './media-type.js';
export { parseRequestBody } from './body.js';
export { jsonApi, errorResponse } from './response.js';
