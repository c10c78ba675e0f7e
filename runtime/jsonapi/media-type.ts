import type { MiddlewareHandler } from 'hono';
import { notAcceptable, unsupportedMediaType } from './errors.js';

export const MEDIA_TYPE = 'application/vnd.api+json';

function hasBody(header: (name: string) => string | undefined): boolean {
  const length = header('content-length');
  return header('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON:API content negotiation. A request body must be `application/vnd.api+json` with no
 * media type parameters (415 otherwise). An Accept header that lists the JSON:API media type
 * only with parameters gets 406. Body-less requests may carry the media type or none.
 */
export function jsonApiMediaType(): MiddlewareHandler {
  return async function negotiateMediaType(c, next) {
    const contentType = c.req.header('content-type');
    if (hasBody((name) => c.req.header(name)) || contentType !== undefined) {
      if (contentType === undefined) {
        throw unsupportedMediaType(`A request body must be sent with Content-Type: ${MEDIA_TYPE}`);
      }
      const [type, ...parameters] = contentType.split(';');
      if (type!.trim().toLowerCase() !== MEDIA_TYPE) {
        throw unsupportedMediaType(`Content-Type must be ${MEDIA_TYPE}, not ${type!.trim()}`);
      }
      if (parameters.some((p) => p.trim() !== '')) {
        throw unsupportedMediaType(`Content-Type ${MEDIA_TYPE} must not carry media type parameters`);
      }
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
