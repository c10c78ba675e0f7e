// The README's two commands in a clone only root can enter (root's home is 0700; here a folder
// made like `mktemp -d`). As root the embedded PostgreSQL runs as user `postgres`, which cannot
// pass through that folder to node_modules or .data: it must still start.
// The clone is of the committed HEAD: uncommitted changes are not in it.
import { spawn, type ChildProcess } from 'node:child_process';
import { lstat, mkdtemp, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { SHARED_CLUSTERS_ROOT } from '../../../runtime/db/cluster-directory.js';
import { until } from '../../helpers/wait.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const running = new Set<ChildProcess>();
let folder: string | undefined;
let relocatedCluster: string | undefined;

afterAll(async () => {
  for (const child of running) killGroup(child, 'SIGKILL');
  if (relocatedCluster?.startsWith(`${SHARED_CLUSTERS_ROOT}/`)) await rm(relocatedCluster, { recursive: true, force: true });
  if (folder) await rm(folder, { recursive: true, force: true });
}, 60_000);

/** The environment of a fresh shell: nothing from this test run, its database or npm's script. */
function freshEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(VITEST|__VITEST|npm_|DATABASE_URL$|CADENCE_|PORT$|TEST_)/.test(name)) env[name] = value;
  }
  return { ...env, PORT: '0', LOG_LEVEL: 'info' };
}

interface Started {
  readonly child: ChildProcess;
  output(): string;
  /** The exit code, once the command has ended. */
  readonly exited: Promise<number | null>;
}

/** A command in its own process group, as a terminal would run it, so a signal reaches all of it. */
function start(command: string, args: string[], cwd: string): Started {
  const child = spawn(command, args, { cwd, env: freshEnvironment(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  void exited.then(() => running.delete(child));
  return { child, output: () => output, exited };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

async function finish(started: Started, what: string, timeoutMs: number): Promise<number | null> {
  const late = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms:\n${started.output()}`)), timeoutMs).unref(),
  );
  return Promise.race([started.exited, late]);
}

it('npm ci, npm start and npm test work in a clone inside a folder only root can enter', async (context) => {
  context.skip(process.getuid?.() !== 0, 'runs only as root: the embedded PostgreSQL then runs as user postgres, whose reach is the defect');

  folder = await mkdtemp(join(tmpdir(), 'cadence-private-'));
  expect((await stat(folder)).mode & 0o777).toBe(0o700);
  const clone = join(folder, 'cadence');
  expect(await finish(start('git', ['clone', '--quiet', REPO_ROOT, clone], REPO_ROOT), 'git clone', 60_000)).toBe(0);
  // --prefer-offline: the packages are in npm's cache from this repository's own install.
  const install = start('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], clone);
  expect(await finish(install, 'npm ci', 300_000), install.output()).toBe(0);

  const server = start('npm', ['start'], clone);
  const serving = await until(
    'npm start to say it is serving',
    () => {
      if (server.child.exitCode !== null) throw new Error(`npm start exited with ${server.child.exitCode}:\n${server.output()}`);
      const line = server
        .output()
        .split('\n')
        .find((l) => l.includes('"cadence is serving"'));
      return line ? (JSON.parse(line) as { url: string }) : undefined;
    },
    120_000,
  );
  const ready = await fetch(`${serving.url}/readyz`);
  expect(ready.status).toBe(200);
  // The cluster is kept outside the folder postgres cannot reach, linked from .data/pg.
  const link = join(clone, '.data', 'pg');
  expect((await lstat(link)).isSymbolicLink()).toBe(true);
  relocatedCluster = await readlink(link);
  expect(relocatedCluster.startsWith(`${SHARED_CLUSTERS_ROOT}/`)).toBe(true);

  killGroup(server.child, 'SIGTERM');
  await until('npm start and everything it started to stop', () => (groupAlive(server.child) ? undefined : true), 30_000);
  expect(server.output()).toContain('"shutting down"');
  expect(server.output()).not.toMatch(/"level":50|Error:/);
  await expect(stat(join(relocatedCluster, 'postmaster.pid'))).rejects.toThrow(/ENOENT/);

  const tests = start('npm', ['test', '--', 'test/helpers/database.test.ts'], clone);
  expect(await finish(tests, 'npm test', 300_000), tests.output()).toBe(0);
  // eslint-disable-next-line no-control-regex -- strips the terminal's colour codes (ESC [ ... m)
  expect(tests.output().replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests +1 passed/);

  // Nothing loosened the private folder to get there.
  expect((await stat(folder)).mode & 0o777).toBe(0o700);
}, 900_000);
