/**
 * Parameter serializers that never throw. postgres.js serializes a parameter while it writes
 * the statement to the socket; a serializer that throws there (its own for timestamps calls
 * `new Date(x).toISOString()`, which throws for "2026-12-31T23:59:60Z") rejects the wrong
 * query and leaves the one that failed queued for ever, so the request hangs and its
 * connection stays inside its transaction. These hand PostgreSQL text instead, and a value it
 * cannot take becomes an ordinary statement error for the statement that sent it.
 */

const TIMESTAMP_OIDS = [1082, 1114, 1184]; // date, timestamp, timestamptz
const JSON_OIDS = [114, 3802]; // json, jsonb

/** Text that no PostgreSQL input function accepts, so the statement fails cleanly. */
const UNREADABLE = '\u0001unrepresentable value';

/**
 * Dates as ISO 8601; strings as given, for PostgreSQL to parse (JavaScript's parser rolls
 * February 30 over into March, PostgreSQL's refuses it); anything else through Date.
 */
function serializeTimestamp(value: unknown): string {
  if (typeof value === 'string') return value;
  const date = value instanceof Date ? value : new Date(value as number);
  return Number.isNaN(date.getTime()) ? UNREADABLE : date.toISOString();
}

function serializeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    // A BigInt or a cycle: not JSON.
    return UNREADABLE;
  }
}

/** The `types` option of postgres.js: the built-in timestamp and JSON types with safe serializers. */
export const safeSerializingTypes = {
  timestamp: { to: 1184, from: TIMESTAMP_OIDS, serialize: serializeTimestamp, parse: (text: string) => new Date(text) },
  json: { to: 114, from: JSON_OIDS, serialize: serializeJson, parse: (text: string) => JSON.parse(text) as unknown },
};
