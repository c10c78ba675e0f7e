import { describe, expect, it } from 'vitest';
import { readConfig } from '../../runtime/config.js';

/** The settings of a pooler in front of the API's connections, and of the shutdown drain. */

const DIRECT = 'postgres://cadence@db.internal:5432/cadence';
const POOLER = 'postgres://cadence:secret@pgbouncer.internal:6432/cadence';

describe('readConfig: pooler and drain settings', () => {
  it.each([
    { given: {}, want: { databasePoolUrl: undefined, databasePoolMode: 'session', shutdownDrainMs: 0 } },
    { given: { DATABASE_URL: DIRECT, DATABASE_POOL_URL: POOLER }, want: { databasePoolUrl: POOLER, databasePoolMode: 'session' } },
    { given: { DATABASE_URL: DIRECT, DATABASE_POOL_URL: POOLER, DATABASE_POOL_MODE: 'transaction' }, want: { databasePoolUrl: POOLER, databasePoolMode: 'transaction' } },
    { given: { SHUTDOWN_DRAIN_SECONDS: '5' }, want: { shutdownDrainMs: 5000 } },
  ])('$given', ({ given, want }) => {
    expect(readConfig(given)).toMatchObject(want);
  });

  it.each([
    {
      given: { DATABASE_URL: DIRECT, DATABASE_POOL_URL: POOLER, DATABASE_POOL_MODE: 'statement' },
      error: 'DATABASE_POOL_MODE must be one of session, transaction, not "statement"',
    },
    {
      given: { DATABASE_URL: DIRECT, DATABASE_POOL_MODE: 'transaction' },
      error: 'DATABASE_POOL_MODE=transaction needs DATABASE_POOL_URL (the pooler); DATABASE_URL stays a direct connection, for migrations and workers',
    },
    { given: { DATABASE_POOL_URL: POOLER }, error: 'DATABASE_POOL_URL needs DATABASE_URL too: a direct connection to the same database, for migrations and workers' },
    { given: { SHUTDOWN_DRAIN_SECONDS: '-1' }, error: 'SHUTDOWN_DRAIN_SECONDS must be a non-negative integer, not "-1"' },
  ])('refuses $given', ({ given, error }) => {
    expect(() => readConfig(given)).toThrow(error);
  });
});
