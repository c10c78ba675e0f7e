/**
 * What a failed connection to a mail server is called when a tenant is told. Only our own
 * words and Node's error codes: never the text the other end sent (its greeting or banner),
 * which for a service that is not a mail server would be that service's answer.
 */

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ETIMEOUT', 'CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EADDRNOTAVAIL']);
const CLOSED_CODES = new Set(['ECONNRESET', 'EPIPE', 'EConnectionClosed', 'NoConnection', 'ClosedAfterConnectText', 'ClosedAfterConnectTLS']);
// OpenSSL's verification codes and Node's TLS errors name our side's verdict, not the server's words.
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

/** A socket or TLS error code in words; undefined when the code is none of those. */
export function connectionFailureOf(code: unknown): string | undefined {
  if (typeof code !== 'string') return undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (TIMEOUT_CODES.has(code)) return 'timed out';
  if (UNREACHABLE_CODES.has(code)) return 'address unreachable';
  if (CLOSED_CODES.has(code)) return 'connection closed by the server';
  if (TLS_CODE.test(code)) return `TLS failed (${code})`;
  return undefined;
}
