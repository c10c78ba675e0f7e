/**
 * Errors that mean the database connection went away (a failover, a restart, an operator's
 * pg_terminate_backend, idle_in_transaction_session_timeout) rather than that a statement was
 * wrong: the request can be sent again once the pool has reconnected, so it is answered 503,
 * not 500. postgres.js names its own with a `code` string; the server's are SQLSTATE classes
 * 08 (connection exception) and 57P01-57P03 (shutdown, crash, cannot connect now).
 */
const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);

export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return DRIVER_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}
