import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDebianProgram } from './debian-packages.js';
import { until } from './wait.js';

/**
 * Debian's Prometheus, for the metrics test: a real server scraping real Cadence processes. The
 * test setup installs it when it is missing and the tests run as root (CI machines start
 * without it), as chromium.ts does for Chromium; otherwise it says how to install it.
 */
export const PROMETHEUS_PATH = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';

export function ensurePrometheus(): string {
  return ensureDebianProgram(PROMETHEUS_PATH, 'prometheus', 'PROMETHEUS_PATH');
}

export interface ScrapeTarget {
  /** Prometheus's job label. */
  readonly job: string;
  /** host:port, scraped at /metrics. */
  readonly address: string;
  /** Sent as Authorization: Bearer. */
  readonly token?: string;
}

/** One sample of an instant query's vector: its labels and value. */
export interface Sample {
  readonly metric: Record<string, string>;
  readonly value: number;
}

export interface RunningPrometheus {
  readonly url: string;
  /** An instant query through the HTTP API (/api/v1/query). */
  query(expression: string): Promise<Sample[]>;
  /** Resolves once every target's last scrape succeeded. */
  targetsUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now; Prometheus takes no port 0 that it would report back. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The configuration: every target scraped each second, with its bearer token. */
function configText(targets: readonly ScrapeTarget[]): string {
  const jobs = targets.map((t) =>
    [
      `  - job_name: ${JSON.stringify(t.job)}`,
      ...(t.token === undefined ? [] : ['    authorization:', `      credentials: ${JSON.stringify(t.token)}`]),
      '    static_configs:',
      `      - targets: [${JSON.stringify(t.address)}]`,
    ].join('\n'),
  );
  return ['global:', '  scrape_interval: 1s', '  scrape_timeout: 1s', 'scrape_configs:', ...jobs, ''].join('\n');
}

/** Starts Prometheus on 127.0.0.1 with its storage in a temporary folder; resolves once it is ready. */
export async function startPrometheus(targets: readonly ScrapeTarget[]): Promise<RunningPrometheus> {
  const binary = ensurePrometheus();
  const dir = await mkdtemp(join(tmpdir(), 'cadence-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  await writeFile(configFile, configText(targets));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    binary,
    [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const api = async (path: string): Promise<any> => {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as { status: string; data: any; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error}`);
    return body.data;
  };
  try {
    await until(
      `Prometheus to be ready at ${url} (stderr: ${stderr})`,
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${stderr}`);
        const ready = await fetch(`${url}/-/ready`).catch(() => undefined);
        return ready?.status === 200 ? true : undefined;
      },
      60_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    async query(expression) {
      const data = (await api(`/api/v1/query?query=${encodeURIComponent(expression)}`)) as { result: { metric: Record<string, string>; value: [number, string] }[] };
      return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    async targetsUp(timeoutMs = 60_000) {
      let last = '';
      const allUp = async () => {
        const data = (await api('/api/v1/targets?state=active')) as { activeTargets: { labels: { job: string }; health: string; lastError: string }[] };
        last = JSON.stringify(data.activeTargets.map((t) => ({ job: t.labels.job, health: t.health, lastError: t.lastError })));
        return data.activeTargets.length === targets.length && data.activeTargets.every((t) => t.health === 'up') ? true : undefined;
      };
      await until('every target to be up', allUp, timeoutMs).catch((error: Error) => {
        throw new Error(`${error.message}; the targets: ${last}`);
      });
    },
    stop,
  };
}
