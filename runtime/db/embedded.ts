// A PostgreSQL server kept in a data folder, for running Cadence without installing one.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { connectDatabase } from './client.js';
import { clusterDirectory } from './cluster-directory.js';
import { postgresAccount } from './postgres-account.js';
import { postgresBinaries } from './postgres-binaries.js';
import { initialiseCluster, startPostgres } from './postgres-process.js';

export interface EmbeddedPostgresOptions {
  /** Folder for Cadence's local state; the cluster lives in `<dataDir>/pg`. */
  dataDir: string;
  /** Port to listen on (127.0.0.1 only); a free one is picked when omitted. */
  port?: number;
  /** Receives each line that initdb and postgres print. */
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgres {
  /** Points at the `cadence` database. */
  url: string;
  stop: () => Promise<void>;
  /** False when another process had already started a server on this data folder. */
  startedHere: boolean;
}

const USER = 'postgres';
// The server listens on 127.0.0.1 only, so a fixed password is no secret worth keeping.
const PASSWORD = 'cadence';
const APP_DATABASE = 'cadence';

// Without these, initdb takes encoding and locale from the environment: SQL_ASCII on a
// machine with LANG unset. The builtin C.UTF-8 locale behaves the same on every platform.
const INITDB_FLAGS = ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'];

// TCP on loopback only, and no Unix socket: nothing to collide with another server's
// socket directory, and no socket file to leave behind.
const SERVER_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];

function embeddedDatabaseUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  // PostgreSQL refuses to run as root: as root, it runs as user `postgres`, with its programs
  // and cluster where that user can reach them (see postgresBinaries and clusterDirectory).
  const account = await postgresAccount();
  const clusterDir = await clusterDirectory(options.dataDir, account);
  const running = await findRunningServer(clusterDir);
  if (running) {
    return { url: embeddedDatabaseUrl(running.port, APP_DATABASE), stop: async () => {}, startedHere: false };
  }

  const onLog = options.onLog ?? (() => {});
  const port = options.port ?? (await pickFreePort());
  const binaries = await postgresBinaries(account);
  const cluster = { binaries, clusterDir, account, onLog };
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    await initialiseCluster({ ...cluster, user: USER, password: PASSWORD, flags: INITDB_FLAGS });
  }
  const server = await startPostgres({ ...cluster, port, flags: SERVER_FLAGS });
  // While the server runs, its child process keeps the event loop from emptying, so this process
  // cannot just end; but it can exit (process.exit, an uncaught error): then ask for a fast shutdown.
  const stopOnExit = () => {
    if (isProcessAlive(server.pid)) process.kill(server.pid, 'SIGINT');
  };
  process.on('exit', stopOnExit);
  await createDatabaseIfMissing(port, APP_DATABASE);
  return {
    url: embeddedDatabaseUrl(port, APP_DATABASE),
    stop: async () => {
      process.off('exit', stopOnExit);
      await server.stop();
    },
    startedHere: true,
  };
}

/** Reads postmaster.pid, which a server keeps in its data folder while it runs. */
async function findRunningServer(clusterDir: string): Promise<{ pid: number; port: number } | undefined> {
  let contents: string;
  try {
    contents = await readFile(join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = contents.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  // A pid file left by a crash names a dead process, or after a reboot (a container
  // restart) an unrelated one: only a live pid that also answers on its port counts.
  // postgres itself replaces such a stale file when it starts.
  return isProcessAlive(pid) && (await acceptsConnections(port)) ? { pid, port } : undefined;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((settle) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 1000 });
    const finish = (open: boolean) => {
      socket.destroy();
      settle(open);
    };
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.once('timeout', () => finish(false));
  });
}

function pickFreePort(): Promise<number> {
  return new Promise((settle, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') settle(address.port);
        else reject(new Error('could not read the port of a probe socket'));
      });
    });
  });
}

async function createDatabaseIfMissing(port: number, database: string): Promise<void> {
  const sql = connectDatabase(embeddedDatabaseUrl(port, 'postgres'), { max: 1 });
  try {
    const existing = await sql`select 1 from pg_database where datname = ${database}`;
    if (existing.length === 0) await sql`create database ${sql(database)}`;
  } finally {
    await sql.end();
  }
}
