// The one place where a postgres.js client is configured.
import postgres from 'postgres';
import type { PoolMode } from './pool-mode.js';
import { safeSerializingTypes } from './serializers.js';

export interface ConnectOptions {
  /** Pool size; postgres.js opens connections lazily up to this many. */
  max?: number;
  /**
   * Called with the text of every statement sent, including BEGIN/COMMIT and the
   * array-type lookup postgres.js runs once per new connection. Tests count queries with it.
   */
  onQuery?: (sql: string) => void;
  /** How the server at `url` pools connections (config.ts); `session` unless said otherwise. */
  poolMode?: PoolMode;
}

const INT8_OID = 20;
/** No request of Cadence's sits between two statements of its transaction for anywhere near this. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Behind a transaction pooler, the next transaction of a connection may run on another server
 * connection: a named prepared statement would be missing there (or be another one of the same
 * name), so statements go unnamed. PgBouncer also refuses startup parameters it does not know;
 * its own idle_transaction_timeout stands in for PostgreSQL's.
 */
function sessionOptions(poolMode: PoolMode): Pick<postgres.Options<never>, 'prepare'> & { connection: Record<string, string | number> } {
  if (poolMode === 'transaction') return { prepare: false, connection: { application_name: 'cadence' } };
  return {
    prepare: true,
    connection: {
      application_name: 'cadence',
      // The last wall against a leaked transaction: a connection left inside one (by a bug, or a
      // request that stalled between statements) is closed by PostgreSQL, which frees its locks,
      // and the pool opens a new one, instead of the pool shrinking for good.
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
  };
}

export function connectDatabase(url: string, options: ConnectOptions = {}): postgres.Sql {
  const { onQuery } = options;
  return postgres(url, {
    max: options.max ?? 10,
    ...sessionOptions(options.poolMode ?? 'session'),
    // Ids are bigint columns, but they stay far below 2^53: plain numbers are what
    // the API sends, so they are parsed as such instead of postgres.js's default strings.
    types: {
      ...safeSerializingTypes,
      int8: {
        to: INT8_OID,
        from: [INT8_OID],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    // Notices ("relation already exists, skipping" and the like) are not errors, and
    // postgres.js would print each one to the console.
    onnotice: () => {},
    ...(onQuery ? { debug: (_connection: number, query: string) => onQuery(query) } : {}),
  });
}
