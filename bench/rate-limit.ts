// The request rate limit's cost: the same list page on `cadence serve` with rate limiting on and
// with it off (RATE_LIMIT_PER_HOUR=0), in rounds alternating which goes first.
import { measure, type LoadOptions, type LoadResult, type Target } from './load.js';
import { startChildServer, type ChildServer } from './processes.js';
import { medianRound, number, table, verdict } from './report.js';

/** High enough that nothing the benchmark sends is ever refused. */
export const BENCH_RATE_LIMIT_PER_HOUR = '1000000000';
export const RATE_LIMIT_TARGET = 0.95;

const PATH = '/api/v2/prospects';

export interface RateLimitResult {
  readonly rounds: readonly { on: LoadResult; off: LoadResult; ratio: number }[];
  /** The round with the median ratio. */
  readonly median: { on: LoadResult; off: LoadResult; ratio: number };
}

export interface RateLimitBenchOptions {
  readonly token: string;
  readonly rounds: number;
  readonly load: LoadOptions;
  /** The environment of a `cadence serve` child, with `extra` added. */
  readonly serverEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly print: (line: string) => void;
  /** Where the servers are registered, so that an interrupted run stops them. */
  readonly servers: ChildServer[];
}

async function serve(options: RateLimitBenchOptions, name: string, perHour: string): Promise<ChildServer> {
  const server = await startChildServer(name, {
    args: ['bin/cadence.js', 'serve'],
    env: options.serverEnv({ CADENCE_IN_PROCESS_WORKER: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_PER_HOUR: perHour }),
    cwd: options.cwd,
  });
  options.servers.push(server);
  return server;
}

/** A page of 50 prospects, rate limited against not, one server each, both running throughout. */
export async function runRateLimitBench(options: RateLimitBenchOptions): Promise<RateLimitResult> {
  const limited = await serve(options, 'cadence serve (rate limited)', BENCH_RATE_LIMIT_PER_HOUR);
  const unlimited = await serve(options, 'cadence serve (RATE_LIMIT_PER_HOUR=0)', '0');
  const target = (server: ChildServer): Target => ({ baseUrl: server.url, pid: server.pid, paths: [PATH], headers: { authorization: `Bearer ${options.token}` } });
  const on = target(limited);
  const off = target(unlimited);
  const check = await fetch(`${on.baseUrl}${PATH}`, { headers: on.headers });
  if (check.status !== 200 || check.headers.get('x-ratelimit-limit') !== BENCH_RATE_LIMIT_PER_HOUR)
    throw new Error(`the rate-limited server answered ${check.status} without its limit`);
  await check.arrayBuffer();
  const rounds: { on: LoadResult; off: LoadResult; ratio: number }[] = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? [on, off] : [off, on];
      const measured = new Map<Target, LoadResult>();
      for (const t of order) measured.set(t, await measure(t, options.load));
      const pair = { on: measured.get(on)!, off: measured.get(off)! };
      rounds.push({ ...pair, ratio: pair.on.requestsPerSecond / pair.off.requestsPerSecond });
      options.print(
        `  list, page of 50, round ${round + 1}: rate limited ${Math.round(pair.on.requestsPerSecond)} req/s, off ${Math.round(pair.off.requestsPerSecond)} req/s`,
      );
    }
  } finally {
    for (const server of [limited, unlimited]) {
      await server.stop();
      options.servers.splice(options.servers.indexOf(server), 1);
    }
  }
  const median = medianRound(rounds)!;
  return { rounds, median };
}

export function rateLimitTable(result: RateLimitResult): string {
  const row = (label: string, r: LoadResult) => [label, number(r.requestsPerSecond), number(r.p50Ms), number(r.p99Ms), number(r.failures), number(r.cpuMsPerRequest, 2)];
  return table(
    ['cadence serve', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx+errors', 'CPU ms/req'],
    [row(`rate limited (RATE_LIMIT_PER_HOUR=${BENCH_RATE_LIMIT_PER_HOUR})`, result.median.on), row('RATE_LIMIT_PER_HOUR=0 (off)', result.median.off)],
  );
}

export function rateLimitTargetLine(result: RateLimitResult): string {
  const each = result.rounds.map((r) => `${number(r.ratio, 2)}x`).join(', ');
  return verdict(
    result.median.ratio >= RATE_LIMIT_TARGET,
    `rate limited / off, list page of 50: ${number(result.median.ratio, 2)}x (median round; each round ${each}), target >= ${RATE_LIMIT_TARGET}x`,
  );
}
