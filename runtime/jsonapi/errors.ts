/**
 * ApiError is the one way a handler reports a failure to a client: a JSON:API error object
 * with an HTTP status. It is thrown anywhere and rendered by the app's single error handler.
 */

export interface ErrorSource {
  readonly pointer?: string;
  readonly parameter?: string;
}

export interface ErrorObject {
  readonly id: string;
  readonly status: string;
  readonly title: string;
  readonly detail: string;
  readonly source?: ErrorSource;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: readonly ErrorObject[],
    /** Extra response headers, such as WWW-Authenticate or Allow. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(errors.map((e) => `${e.id}: ${e.detail}`).join('; '));
    this.name = 'ApiError';
  }
}

function single(status: number, id: string, title: string, detail: string, source?: ErrorSource): ApiError {
  return new ApiError(status, [{ id, status: String(status), title, detail, ...(source && { source }) }]);
}

export function badRequest(id: string, detail: string, source?: ErrorSource): ApiError {
  return single(400, id, 'Bad Request', detail, source);
}

export function invalidQueryParameter(parameter: string, detail: string): ApiError {
  return badRequest('invalidQueryParameter', detail, { parameter });
}

export function unauthorized(detail: string): ApiError {
  const error = single(401, 'unauthorized', 'Unauthorized', detail);
  return new ApiError(401, error.errors, { 'WWW-Authenticate': 'Bearer realm="cadence"' });
}

export function forbidden(id: string, detail: string, source?: ErrorSource): ApiError {
  return single(403, id, 'Forbidden', detail, source);
}

export function resourceNotFound(detail: string): ApiError {
  return single(404, 'resourceNotFound', 'Resource Not Found', detail);
}

export function methodNotAllowed(method: string, path: string, allow: readonly string[]): ApiError {
  const error = single(405, 'methodNotAllowed', 'Method Not Allowed', `${method} is not supported on ${path}`);
  return new ApiError(405, error.errors, { Allow: allow.join(', ') });
}

export function notAcceptable(detail: string): ApiError {
  return single(406, 'notAcceptable', 'Not Acceptable', detail);
}

export function conflict(detail: string, source?: ErrorSource): ApiError {
  return single(409, 'conflict', 'Conflict', detail, source);
}

/** Something that existed and can no longer be used, such as an expired install setup token. */
export function gone(id: string, detail: string): ApiError {
  return single(410, id, 'Gone', detail);
}

/**
 * The rest of the body is never read, so the connection cannot carry another request: the
 * answer says `Connection: close` rather than letting the client reuse a socket about to close.
 */
export function payloadTooLarge(limit: number): ApiError {
  const error = single(413, 'requestTooLarge', 'Payload Too Large', `The request body is larger than ${limit} bytes`);
  return new ApiError(413, error.errors, { Connection: 'close' });
}

export function unsupportedMediaType(detail: string): ApiError {
  return single(415, 'unsupportedMediaType', 'Unsupported Media Type', detail);
}

export interface FieldError {
  readonly pointer: string;
  readonly detail: string;
}

/** An object key as one segment of a JSON pointer (RFC 6901): `~` and `/` escaped. */
export function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function validationError(fields: readonly FieldError[]): ApiError {
  return new ApiError(
    422,
    fields.map((f) => ({
      id: 'validationError',
      status: '422',
      title: 'Validation Error',
      detail: f.detail,
      source: { pointer: f.pointer },
    })),
  );
}

export function actionFailed(id: string, detail: string, source?: ErrorSource): ApiError {
  return single(422, id, 'Unprocessable Entity', detail, source);
}

export function internalError(requestId: string): ApiError {
  return single(500, 'internalServerError', 'Internal Server Error', `Something went wrong; quote request id ${requestId}`);
}

export function serviceUnavailable(id: string, detail: string): ApiError {
  return single(503, id, 'Service Unavailable', detail);
}
