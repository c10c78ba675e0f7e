import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { ensureDebianProgram } from './debian-packages.js';
import { freePort } from '../runtime/webhooks/receivers.js';
import { until } from './wait.js';

/**
 * A real PgBouncer (Debian's, 1.18) in transaction pooling mode in front of one test database:
 * its own configuration in a temporary folder, on a free 127.0.0.1 port.
 */
export interface RunningPgBouncer {
  /** The test database through PgBouncer, with the upstream's user and a password PgBouncer checks. */
  readonly url: string;
  /** The admin console's SHOW STATS row of the test database: transactions and queries it pooled. */
  stats(): Promise<{ transactions: number; queries: number }>;
  stop(): Promise<void>;
}

const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';
/** PgBouncer checks clients' passwords itself: the upstream's, or this one when the upstream trusts loopback. */
const FALLBACK_PASSWORD = 'pooled';

export async function startPgBouncer(upstreamUrl: string, options: { poolSize: number }): Promise<RunningPgBouncer> {
  const program = ensureDebianProgram(PGBOUNCER, 'pgbouncer', 'PGBOUNCER_PATH');
  const upstream = new URL(upstreamUrl);
  const user = decodeURIComponent(upstream.username || 'postgres');
  const password = decodeURIComponent(upstream.password) || FALLBACK_PASSWORD;
  const database = upstream.pathname.slice(1);
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'cadence-pgbouncer-'));
  const authFile = join(dir, 'userlist.txt');
  const ini = join(dir, 'pgbouncer.ini');
  // A plain-text password in auth_file serves both ways: SCRAM with clients, and whatever the server asks.
  await writeFile(authFile, `"${user}" "${password}"\n`);
  await writeFile(
    ini,
    [
      '[databases]',
      `${database} = host=${upstream.hostname} port=${upstream.port || 5432} dbname=${database} user=${user}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${authFile}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize}`,
      'max_client_conn = 200',
      'idle_transaction_timeout = 60',
      // Quiet: only what goes wrong reaches the test's output.
      'log_connections = 0',
      'log_disconnections = 0',
      'log_pooler_errors = 1',
      '',
    ].join('\n'),
  );
  // PgBouncer will not run as root; as root it drops to `postgres`, which must read the folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chmod(dir, 0o755);
  const child = spawn(program, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  // The admin console speaks only the simple protocol, and has no types to fetch.
  const admin = postgres(url.replace(/\/[^/]*$/, '/pgbouncer'), { max: 1, fetch_types: false, onnotice: () => {} });
  const stop = async () => {
    await admin.end({ timeout: 1 });
    // SIGTERM is 1.18's immediate shutdown; SIGINT would wait for every client to disconnect.
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await until(`PgBouncer to accept connections (stderr: ${stderr})`, async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}: ${stderr}`);
      return admin.unsafe('show version').then(
        () => true,
        () => undefined,
      );
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    async stats() {
      const rows = await admin.unsafe<{ database: string; total_xact_count: string; total_query_count: string }[]>('show stats');
      const row = rows.find((r) => r.database === database);
      return { transactions: Number(row?.total_xact_count ?? 0), queries: Number(row?.total_query_count ?? 0) };
    },
    stop,
  };
}
