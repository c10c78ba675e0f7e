// Child processes of the benchmark: the servers under load, each on its own free port on
// 127.0.0.1, stopped at the end, on Ctrl-C, and when the benchmark process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ChildServer {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const running = new Set<ChildProcess>();

/** Kills every child still running; synchronous, so it works from an exit handler too. */
export function killChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}
process.on('exit', killChildren);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 1000 });
    const finish = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.once('timeout', () => finish(false));
  });
}

export interface ChildOptions {
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Open an IPC channel, which a child can watch to exit when the benchmark process dies. */
  readonly ipc?: boolean;
}

/** A child process that is not a server: started at once, stopped like the servers. */
export interface ChildProcessHandle {
  readonly name: string;
  readonly pid: number;
  /** Whether it has exited (on its own or stopped). */
  exited(): boolean;
  stop(): Promise<void>;
}

/**
 * BENCH_NODE_FLAGS (space-separated) go to every `cadence` child before its script, to try a
 * runtime setting or profile one: `--cpu-prof --cpu-prof-dir=/tmp/p`, `--trace-gc`, or
 * `--heap-growing-percent=0` for V8's own heap growth instead of bin/cadence.js's.
 */
function nodeFlagsFor(args: readonly string[]): string[] {
  if (args[0] !== 'bin/cadence.js') return [];
  return (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
}

/** Spawns `node <args>` (no wrapper process, so the pid is the program's own). */
export function startChildProcess(name: string, { args, env, cwd, ipc = false }: ChildOptions): ChildProcessHandle {
  const child = spawn(process.execPath, [...nodeFlagsFor(args), ...args], {
    cwd,
    env,
    stdio: ['ignore', 'inherit', 'inherit', ...(ipc ? ['ipc' as const] : [])],
  });
  running.add(child);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exit.then(() => {
    exited = true;
    running.delete(child);
  });
  return {
    name,
    pid: child.pid!,
    exited: () => exited,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exit.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
      if (!stopped) child.kill('SIGKILL');
      await exit;
    },
  };
}

/**
 * Spawns `node <args>` with PORT set (and HOST=127.0.0.1), and waits until the port accepts
 * connections.
 */
export async function startChildServer(name: string, options: ChildOptions): Promise<ChildServer> {
  const port = await freePort();
  const child = startChildProcess(name, { ...options, env: { ...options.env, PORT: String(port), HOST: '127.0.0.1' } });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (child.exited()) throw new Error(`${name} exited before it listened on port ${port}`);
    if (Date.now() > deadline) {
      await child.stop();
      throw new Error(`${name} did not listen on port ${port} within ${START_TIMEOUT_MS / 1000} s`);
    }
    await sleep(200);
  }
  return { name, url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.stop() };
}

/**
 * Samples a process's resident set size (VmRSS) every `intervalMs`, starting at once, and keeps
 * the first sample and the largest: the growth over a stretch of work is the one minus the other.
 */
export function sampleRss(pid: number, intervalMs = 500): { firstMb(): number; maxMb(): number; stop(): void } {
  let firstKb: number | undefined;
  let maxKb = 0;
  const sample = () => {
    try {
      const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
      if (!match) return;
      firstKb ??= Number(match[1]);
      maxKb = Math.max(maxKb, Number(match[1]));
    } catch {
      // The process is gone; the samples so far stand.
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return { firstMb: () => (firstKb ?? Number.NaN) / 1024, maxMb: () => maxKb / 1024, stop: () => clearInterval(timer) };
}

// Linux reports CPU times in clock ticks of USER_HZ, which is 100 on every common kernel.
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in milliseconds; NaN once it is gone. */
export function cpuMilliseconds(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return Number.NaN;
  }
  // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted after the command's ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
