import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

/**
 * `cadence serve` runs its background work in a child `cadence worker` process rather than on
 * its own event loop: a job that blocks, spins or crashes its process then costs the API
 * nothing. This module starts that child, restarts it whenever it ends without being asked to,
 * and stops it with the server.
 *
 * The child gets a process group of its own, so that a Ctrl-C in a terminal reaches only the
 * server, which then stops the child itself: otherwise the child would end first and be
 * restarted in the middle of the shutdown. It also gets an IPC channel, which closes when the
 * server dies however it dies (kill -9 included); the worker stops when it does (cli/main.ts),
 * so no orphan keeps running jobs.
 */

export interface RestartPolicy {
  /** The wait before the first restart; it doubles with each restart that follows a short run. */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A child that ran this long had a good run: the next restart waits initialDelayMs again. */
  readonly resetAfterMs: number;
}

/** Short at first: a worker starts in 2 to 7 s (loading its modules), and should be back within 10. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 10_000, resetAfterMs: 60_000 };

/** How long a stopping worker may finish its running jobs before it is killed. */
export const DEFAULT_STOP_GRACE_MS = 30_000;

export interface SupervisorOptions {
  /** The environment of the child: the server's own, with DATABASE_URL set to the database the server uses. */
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  readonly restart?: RestartPolicy;
  readonly stopGraceMs?: number;
}

export interface SupervisedWorker {
  /** The running child's process id; undefined between a death and its restart. */
  pid(): number | undefined;
  /** SIGTERM to the child, SIGKILL after the grace; resolves once it has exited. No restart follows. */
  stop(): Promise<void>;
}

const CADENCE_BIN = fileURLToPath(new URL('../../bin/cadence.js', import.meta.url));

/** The wait before the next restart, given the one before it and how long the child ran. */
export function nextRestartDelay(policy: RestartPolicy, previousDelayMs: number | undefined, ranMs: number): number {
  if (previousDelayMs === undefined || ranMs >= policy.resetAfterMs) return policy.initialDelayMs;
  return Math.min(policy.maxDelayMs, previousDelayMs * 2);
}

/** Starts `cadence worker` as a supervised child process. */
export function superviseWorker(options: SupervisorOptions): SupervisedWorker {
  const policy = options.restart ?? DEFAULT_RESTART_POLICY;
  const log = options.log.child({ component: 'worker-supervisor' });
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let restartTimer: NodeJS.Timeout | undefined;
  let delayMs: number | undefined;
  let stopping = false;

  const start = (): void => {
    restartTimer = undefined;
    const startedAt = Date.now();
    const worker = spawn(process.execPath, [CADENCE_BIN, 'worker'], {
      env: options.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    child = worker;
    exited = new Promise((resolve) => {
      // 'error' alone is the spawn failing (no 'exit' follows); either way the child is gone.
      let gone = false;
      const onGone = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
        if (gone) return;
        gone = true;
        child = undefined;
        resolve();
        if (stopping) return;
        delayMs = nextRestartDelay(policy, delayMs, Date.now() - startedAt);
        log.error({ pid: worker.pid, code, signal, err: error, restartInMs: delayMs }, 'worker process ended; restarting it');
        restartTimer = setTimeout(start, delayMs);
      };
      worker.once('exit', (code, signal) => onGone(code, signal));
      worker.once('error', (error) => onGone(null, null, error));
    });
    log.info({ pid: worker.pid }, 'worker process started');
  };

  start();
  return {
    pid: () => child?.pid,
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const running = child;
      if (!running) return;
      running.kill('SIGTERM');
      const grace = setTimeout(() => {
        log.warn({ pid: running.pid }, 'worker process did not stop in time; killing it');
        running.kill('SIGKILL');
      }, options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
      await exited;
      clearTimeout(grace);
    },
  };
}
