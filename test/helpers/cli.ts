import { spawn } from 'node:child_process';
import { until } from './wait.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `cadence` CLI (bin/cadence.js) against a test database, as an operator would,
 * with `input` on its standard input.
 */
export function runCadence(databaseUrl: string, args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/cadence.js', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface RunningCadence {
  /** The process's id. */
  readonly pid: number | undefined;
  /** Everything printed so far on standard output (JSON log lines for serve and worker). */
  stdout(): string;
  /** Resolves with the first standard-output line that matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then the result once the process has exited. */
  stop(): Promise<CliResult>;
  /** SIGKILL, for cleaning up after a failed test; safe to call more than once. */
  kill(): void;
  /** The result once the process has exited, however it ended; sends no signal. */
  exited(): Promise<CliResult>;
}

/** Starts a long-running `cadence` command (serve, worker) against a test database. */
export function startCadence(databaseUrl: string, args: readonly string[], env: Record<string, string> = {}): RunningCadence {
  const child = spawn(process.execPath, ['bin/cadence.js', ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  return {
    pid: child.pid,
    stdout: () => stdout,
    waitForLine: (pattern, timeoutMs = 60_000) =>
      until(
        `a line matching ${pattern} from cadence ${args.join(' ')} (stderr: ${stderr})`,
        () => {
          if (child.exitCode !== null) throw new Error(`cadence ${args.join(' ')} exited with ${child.exitCode}: ${stderr}`);
          return stdout.split('\n').find((line) => pattern.test(line));
        },
        timeoutMs,
      ),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return { code: await exited, stdout, stderr };
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
    async exited() {
      return { code: await exited, stdout, stderr };
    },
  };
}
