// The tracking pixel under load: `GET /t/o/<token>.gif` on `cadence serve`, each request naming
// one of the mailings just sent at random (the tokens are the ones in the messages the SMTP
// server received, so they are real and signed by the deployment), against pixel-server.ts, a
// bare Hono route answering the same 43-byte GIF. In rounds alternating which server goes
// first, the ratio being the median round's, as for the other ceilings. Then every request on
// one mailing (a hot one), on Cadence only. Cadence answers a hit from memory and appends it
// to tracking_hits within 250 ms (runtime/mail/tracking/hit-buffer.ts); no worker runs during
// the load. Then one `cadence worker` folds them (hit-fold.ts), timed from its start until the
// org has no unfolded hit left, and the opens counted on the mailings (openCount added up) are
// checked against the 200s Cadence answered.
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type postgres from 'postgres';
import { measure, type LoadOptions, type LoadResult, type Target } from './load.js';
import { startChildProcess, startChildServer } from './processes.js';
import { medianRound } from './report.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface PixelOptions {
  readonly apiUrl: string;
  readonly serverPid: number;
  /** Open-pixel tokens of the mailings sent, one per mailing. */
  readonly tokens: readonly string[];
  /** The org of those mailings, whose opens are counted. */
  readonly orgId: number;
  readonly rounds: number;
  readonly load: LoadOptions;
  readonly sql: postgres.Sql;
  /** The environment of the worker that folds the hits after the load. */
  readonly workerEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly print: (line: string) => void;
}

export interface PixelRound {
  readonly cadence: LoadResult;
  readonly bare: LoadResult;
  readonly ratio: number;
}

export interface PixelResult {
  /** Distinct mailings the requests were spread over. */
  readonly mailings: number;
  readonly rounds: readonly PixelRound[];
  /** The round of the median ratio. */
  readonly median: PixelRound;
  /** Every request on one mailing, Cadence only. */
  readonly hot: LoadResult;
  /** Both answer 200, image/gif and the same bytes; the size of Cadence's. */
  readonly sameBody: boolean;
  readonly bytes: number;
  /** 200s Cadence answered (warm-ups included) and openCount added up over the org's mailings once folded. */
  readonly answered: number;
  readonly recorded: number;
  /** Hits appended during the load, and how long one worker took to fold them all (from its start). */
  readonly appended: number;
  readonly foldSeconds: number;
}

/** A fold that has not moved for this long is given up on. */
const FOLD_STALL_MS = 120_000;

const pathOf = (token: string) => `/t/o/${token}.gif`;

async function gifFrom(baseUrl: string, path: string): Promise<{ ok: boolean; bytes: Buffer }> {
  const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { ok: response.status === 200 && response.headers.get('content-type') === 'image/gif', bytes };
}

async function unfoldedOf(sql: postgres.Sql, orgId: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from tracking_hits where org_id = ${orgId}`;
  return row!.n;
}

/**
 * Starts one `cadence worker` and waits until the org has no unfolded hit left (a fold deletes
 * its hits as it commits their counts); the seconds from the worker's start.
 */
async function foldAll(options: PixelOptions): Promise<number> {
  const started = performance.now();
  const worker = startChildProcess('cadence worker', { args: ['bin/cadence.js', 'worker'], env: options.workerEnv({ LOG_LEVEL: 'warn' }), cwd: options.cwd });
  try {
    let left = await unfoldedOf(options.sql, options.orgId);
    let movedAt = performance.now();
    while (left > 0) {
      if (worker.exited()) throw new Error('the worker exited before the hits were folded');
      if (performance.now() - movedAt > FOLD_STALL_MS) throw new Error(`the fold stalled with ${left} hits left`);
      await sleep(200);
      const now = await unfoldedOf(options.sql, options.orgId);
      if (now !== left) movedAt = performance.now();
      left = now;
    }
    return (performance.now() - started) / 1000;
  } finally {
    await worker.stop();
  }
}

async function opensOf(sql: postgres.Sql, orgId: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select coalesce(sum(open_count), 0)::int as n from mailings where org_id = ${orgId}`;
  return row!.n;
}

export async function runPixel(options: PixelOptions): Promise<PixelResult> {
  const { print, load, tokens } = options;
  if (tokens.length === 0) throw new Error('no message carried an open pixel');
  const bareServer = await startChildServer('pixel server', {
    args: ['--import', 'tsx', 'bench/pixel-server.ts'],
    env: { ...process.env },
    cwd: REPO_ROOT,
    ipc: true,
  });
  try {
    const opensBefore = await opensOf(options.sql, options.orgId);
    const pickPath = () => pathOf(tokens[Math.floor(Math.random() * tokens.length)]!);
    const cadence: Target = { baseUrl: options.apiUrl, pid: options.serverPid, paths: [], headers: {}, pickPath };
    const bare: Target = { baseUrl: bareServer.url, pid: bareServer.pid, paths: [], headers: {}, pickPath };
    const ours = await gifFrom(cadence.baseUrl, pathOf(tokens[0]!));
    const theirs = await gifFrom(bare.baseUrl, pathOf(tokens[0]!));
    print(
      `\n  tracking pixel: ${load.connections} connections, ${load.warmUpSeconds} s warm-up + ${load.seconds} s per server and round, ${options.rounds} rounds, over ${tokens.length} mailings of org ${options.orgId}`,
    );
    const rounds: PixelRound[] = [];
    for (let round = 0; round < options.rounds; round++) {
      // Alternating the order spreads a slow stretch of the machine over both sides.
      const order = round % 2 === 0 ? [cadence, bare] : [bare, cadence];
      const measured = new Map<Target, LoadResult>();
      for (const target of order) measured.set(target, await measure(target, load));
      const pair = { cadence: measured.get(cadence)!, bare: measured.get(bare)! };
      rounds.push({ ...pair, ratio: pair.cadence.requestsPerSecond / pair.bare.requestsPerSecond });
      print(`  pixel, round ${round + 1}: ${Math.round(pair.cadence.requestsPerSecond)} hits/s, bare route ${Math.round(pair.bare.requestsPerSecond)} req/s`);
    }
    const hot = await measure({ ...cadence, pickPath: undefined, paths: [pathOf(tokens[0]!)] }, load);
    print(`  pixel, one hot mailing: ${Math.round(hot.requestsPerSecond)} hits/s`);
    const median = medianRound(rounds)!;
    // The one GET that compared the bodies was a hit too.
    const answered = rounds.reduce((sum, r) => sum + r.cadence.answered, hot.answered) + (ours.ok ? 1 : 0);
    // The server appends within 250 ms of a hit.
    await sleep(1000);
    const appended = await unfoldedOf(options.sql, options.orgId);
    const foldSeconds = await foldAll(options);
    print(`  pixel: ${appended} hits folded by one worker in ${foldSeconds.toFixed(1)} s (${Math.round(appended / foldSeconds)} hits/s)`);
    return {
      mailings: new Set(tokens).size,
      rounds,
      median,
      hot,
      sameBody: ours.ok && theirs.ok && ours.bytes.equals(theirs.bytes),
      bytes: ours.bytes.length,
      answered,
      recorded: (await opensOf(options.sql, options.orgId)) - opensBefore,
      appended,
      foldSeconds,
    };
  } finally {
    await bareServer.stop();
  }
}
