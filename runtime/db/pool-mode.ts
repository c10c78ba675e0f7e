/**
 * How the server at a database URL pools connections. `session`: a connection is the client's
 * for as long as it is open (PostgreSQL itself, or PgBouncer's session pooling). `transaction`:
 * only for the length of a transaction (PgBouncer's transaction pooling), so nothing may outlive
 * one: no named prepared statements, no session settings, no LISTEN, no session-level locks.
 */
export const POOL_MODES = ['session', 'transaction'] as const;
export type PoolMode = (typeof POOL_MODES)[number];

export function isPoolMode(text: string): text is PoolMode {
  return (POOL_MODES as readonly string[]).includes(text);
}
