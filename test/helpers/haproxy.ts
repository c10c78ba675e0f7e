import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDebianProgram } from './debian-packages.js';
import { freePort } from '../runtime/webhooks/receivers.js';
import { until } from './wait.js';

/**
 * A real HAProxy (Debian's) in front of Cadence processes on 127.0.0.1: its own configuration in a
 * temporary folder, a free port, health checks on /readyz every 200 ms (three failed checks take a
 * server out, one good one puts it back), and connection failures retried on another server.
 * This is the configuration README's "Behind a load balancer: restarts" describes.
 */
export interface RunningHaproxy {
  readonly url: string;
  /** What HAProxy thinks of a server now: UP, DOWN, MAINT, or a transition such as "UP 1/2". */
  serverStatus(name: string): Promise<string>;
  stop(): Promise<void>;
}

export interface Backend {
  readonly name: string;
  readonly port: number;
}

const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
const BACKEND = 'cadence';

export interface HaproxyOptions {
  /**
   * Whether a connection refused by one server is retried on another (`retries 3`, `option
   * redispatch`), as README advises; without, a request sent to a process that no longer
   * listens fails, so only the process's own drain can keep requests from failing.
   */
  readonly retryConnections: boolean;
}

export function haproxyConfig(port: number, statsSocket: string, backends: readonly Backend[], options: HaproxyOptions): string {
  return [
    'global',
    `  stats socket ${statsSocket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    // Without it a check must be answered within `inter` (200 ms), which a busy server can miss.
    '  timeout check 2s',
    ...(options.retryConnections ? ['  retries 3', '  option redispatch'] : ['  retries 0']),
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    `  default_backend ${BACKEND}`,
    `backend ${BACKEND}`,
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    // Three failed checks take a server out: one slow answer of a busy server does not.
    '  default-server inter 200ms fall 3 rise 1',
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
    '',
  ].join('\n');
}

export async function startHaproxy(backends: readonly Backend[], options: HaproxyOptions): Promise<RunningHaproxy> {
  const program = ensureDebianProgram(HAPROXY, 'haproxy', 'HAPROXY_PATH');
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'cadence-haproxy-'));
  const statsSocket = join(dir, 'stats.sock');
  const config = join(dir, 'haproxy.cfg');
  await writeFile(config, haproxyConfig(port, statsSocket, backends, options));
  // -db: in the foreground, so that the test owns the process; -q: no warnings about running as root.
  const child = spawn(program, ['-db', '-q', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const serverStatus = async (name: string) => {
    const [header, ...rows] = (await askStatsSocket(statsSocket, 'show stat')).split('\n').map((line) => line.split(','));
    const status = header!.indexOf('status');
    const row = rows.find((r) => r[0] === BACKEND && r[1] === name);
    if (!row) throw new Error(`HAProxy has no server ${name}`);
    return row[status]!;
  };
  try {
    await until(`HAProxy to start (stderr: ${stderr})`, async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${stderr}`);
      return serverStatus(backends[0]!.name).catch(() => undefined);
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, serverStatus, stop };
}

/** One command on HAProxy's stats socket; the answer once HAProxy has closed the connection. */
function askStatsSocket(path: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = createConnection(path, () => socket.end(`${command}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer.replace(/^# /, '')));
    socket.on('error', reject);
  });
}
