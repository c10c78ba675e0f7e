import type { MiddlewareHandler } from 'hono';
import { notAcceptable, unsupportedMediaType } from './errors.js';

export const MEDIA_TYPE = 'application/vnd.api+json';

function hasBody(header: (name: string) => string | undefined): boolean {
  const length = header('content-length');
  return header('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/** Media types a request body is read as: JSON:API's own, and plain JSON as clients of the real service send. */
const BODY_MEDIA_TYPES = new Set([MEDIA_TYPE, 'application/json']);

/**
 * Why a body's Content-Type is refused, or undefined when it is accepted: JSON:API's media type
 * or application/json, with at most a `charset=utf-8` parameter (bodies are always read as
 * UTF-8). JSON:API 1.0 allows its media type no other parameters.
 */
export function refusedBodyMediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return `A request body must be sent with Content-Type: ${MEDIA_TYPE}`;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim());
  const mediaType = type!.toLowerCase();
  if (!BODY_MEDIA_TYPES.has(mediaType)) return `Content-Type must be ${MEDIA_TYPE} (or application/json), not ${type}`;
  for (const parameter of parameters) {
    if (parameter === '') continue;
    const [name, value = ''] = parameter.split('=').map((part) => part.trim().toLowerCase());
    if (name !== 'charset' || value.replace(/^"(.*)"$/, '$1') !== 'utf-8') {
      return `Content-Type ${mediaType} may carry only charset=utf-8, not ${parameter}`;
    }
  }
  return undefined;
}

/**
 * JSON:API content negotiation, tolerant of what clients of the real service send. A request
 * without a body is never refused for its Content-Type (generated clients send one on every
 * GET and DELETE, and the real service's own examples send a form type on body-less POSTs). A
 * body must be JSON (415 otherwise, see refusedBodyMediaType). An Accept header that lists the
 * JSON:API media type only with parameters gets 406.
 */
export function jsonApiMediaType(): MiddlewareHandler {
  return async function negotiateMediaType(c, next) {
    if (hasBody((name) => c.req.header(name))) {
      const refused = refusedBodyMediaType(c.req.header('content-type'));
      if (refused) throw unsupportedMediaType(refused);
    }
    const accept = c.req.header('accept');
    if (accept) {
      const jsonApi = accept
        .split(',')
        .map((part) => part.split(';').map((s) => s.trim()))
        .filter(([type]) => type?.toLowerCase() === MEDIA_TYPE);
      if (jsonApi.length > 0 && jsonApi.every((params) => params.slice(1).some((p) => p !== '' && !p.startsWith('q=')))) {
        throw notAcceptable(`Accept lists ${MEDIA_TYPE} only with media type parameters`);
      }
    }
    await next();
  };
}
