import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';

/**
 * The secret that signs page cursors. It lives in the database so every server process signs
 * and checks cursors alike; the first process to start creates it.
 */
export async function loadCursorSecret(sql: postgres.Sql): Promise<string> {
  // Read first: every later start finds it, and a start only reads (no row lock on the settings).
  const [existing] = await sql<{ value: string }[]>`select value from cadence_system.settings where name = 'cursor_secret'`;
  if (existing) return existing.value;
  await sql`insert into cadence_system.settings (name, value) values ('cursor_secret', ${randomBytes(32).toString('hex')}) on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from cadence_system.settings where name = 'cursor_secret'`;
  return row!.value;
}
