export * from './errors.js';
export { MEDIA_TYPE, jsonApiMediaType } from './media-type.js';
export { isObject, parseLargeRequestBody, parseRequestBody } from './body.js';
export { isPathId, MAX_ID, parseId } from './ids.js';
export { jsonApi, errorResponse } from './response.js';
