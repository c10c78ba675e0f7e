import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MEDIA_TYPE } from './media-type.js';
import type { ApiError } from './errors.js';

/** Every JSON:API response goes out through here, so the media type is never forgotten. */
export function jsonApi(c: Context, status: ContentfulStatusCode, document: unknown, headers: Record<string, string> = {}): Response {
  return c.body(JSON.stringify(document), status, { ...headers, 'Content-Type': MEDIA_TYPE });
}

export function errorResponse(c: Context, error: ApiError): Response {
  return jsonApi(c, error.status as ContentfulStatusCode, { errors: error.errors }, { ...error.headers });
}
