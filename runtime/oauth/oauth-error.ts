/**
 * An error of the token endpoint, rendered as RFC 6749 section 5.2 says:
 * `{"error": "...", "error_description": "..."}`, status 400, or 401 for a client that failed
 * to authenticate.
 */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }

  get status(): 400 | 401 {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}
