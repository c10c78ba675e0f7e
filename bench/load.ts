// Load generation: autocannon against one server, a warm-up first, then the measured run.
import autocannon, { type Request } from 'autocannon';
import { cpuMilliseconds } from './processes.js';

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly warmUpSeconds: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  /** CPU time the server process spent per request during the measured run. */
  readonly cpuMsPerRequest: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses that were not 2xx, plus connection errors and timeouts. */
  readonly failures: number;
  /** 2xx responses of the warm-up and the measured run together: every request the server handled. */
  readonly answered: number;
}

export interface Target {
  readonly baseUrl: string;
  /** The server's process, whose CPU time is read before and after the run. */
  readonly pid: number;
  /** Paths sent in turn by every connection. */
  readonly paths: readonly string[];
  readonly headers: Record<string, string>;
  /** GET when unset; a POST sends `body` with every request (and its content-type in `headers`). */
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  /** When set, every request's path is drawn from it instead of `paths` (each connection draws its own). */
  readonly pickPath?: () => string;
}

const running = new Set<{ stop(): void }>();

/** Stops any run in progress (on Ctrl-C), which then ends with what it has. */
export function stopLoad(): void {
  for (const instance of running) instance.stop();
}

async function run(target: Target, connections: number, seconds: number) {
  const instance = autocannon({
    url: target.baseUrl,
    connections,
    duration: seconds,
    timeout: 10,
    headers: target.headers,
    requests: target.pickPath
      ? [{ method: target.method ?? 'GET', path: '/', setupRequest: (request: Request) => ({ ...request, path: target.pickPath!() }) }]
      : target.paths.map((path) => ({ method: target.method ?? 'GET', path, ...(target.body !== undefined && { body: target.body }) })),
  });
  running.add(instance);
  try {
    return await instance;
  } finally {
    running.delete(instance);
  }
}

export async function measure(target: Target, options: LoadOptions): Promise<LoadResult> {
  // The warm-up fills caches, prepares statements on every pooled connection and lets V8
  // optimise the hot paths; its numbers are thrown away.
  const warmUp = await run(target, options.connections, options.warmUpSeconds);
  const cpuBefore = cpuMilliseconds(target.pid);
  const result = await run(target, options.connections, options.seconds);
  const cpuUsed = cpuMilliseconds(target.pid) - cpuBefore;
  return {
    requestsPerSecond: result.requests.total / result.duration,
    cpuMsPerRequest: cpuUsed / Math.max(result.requests.total, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors,
    answered: warmUp['2xx'] + result['2xx'],
  };
}
