import type postgres from 'postgres';
import { until } from './wait.js';

/**
 * The server's connections left inside a transaction once requests have ended: each is a
 * pooled connection that leaked a transaction, so there must be none. A read's COMMIT may still
 * be on its way when the last response arrives, so this gives them a moment to settle.
 */
export async function idleInTransaction(sql: postgres.Sql, settleMs = 2000): Promise<string[]> {
  const open = async () =>
    (
      await sql<{ state: string; query: string }[]>`
        select state, query from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'`
    ).map((row) => `${row.state}: ${row.query}`);
  await until('pooled connections to leave their transactions', async () => ((await open()).length === 0 ? true : undefined), settleMs).catch(() => undefined);
  return open();
}
