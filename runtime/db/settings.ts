import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';

/**
 * A per-deployment secret kept in cadence_system.settings, so every server and worker process
 * uses the same one; the first process to start creates it.
 */
async function loadSecret(sql: postgres.Sql, name: string): Promise<string> {
  // Read first: every later start finds it, and a start only reads (no row lock on the settings).
  const [existing] = await sql<{ value: string }[]>`select value from cadence_system.settings where name = ${name}`;
  if (existing) return existing.value;
  await sql`insert into cadence_system.settings (name, value) values (${name}, ${randomBytes(32).toString('hex')}) on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from cadence_system.settings where name = ${name}`;
  return row!.value;
}

/** The secret that signs page cursors. */
export function loadCursorSecret(sql: postgres.Sql): Promise<string> {
  return loadSecret(sql, 'cursor_secret');
}

/**
 * The secret that signs the tracking URLs in mail (runtime/mail/tracking). Its own, not the
 * cursors': cursors live for minutes, links in sent mail for years, so either can be replaced
 * without the other.
 */
export function loadTrackingSecret(sql: postgres.Sql): Promise<string> {
  return loadSecret(sql, 'tracking_secret');
}
