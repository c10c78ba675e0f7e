import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * What other requests see while one piece of work runs in the same process (issue #25): the API
 * runs in the test's process, so a stretch of work that holds the event loop delays every other
 * request, and the test's own timers with them.
 */

export interface Latency {
  /** How many probes were sent. */
  readonly samples: number;
  /** The longest a probe waited, from the moment it was due to be sent to its answer. */
  readonly worstWaitMs: number;
  /** The 95th percentile of the probes' waits. */
  readonly p95WaitMs: number;
  /** What each failed probe said (a status other than the one wanted, a network error). */
  readonly failures: readonly string[];
  /** The event loop's longest delay (perf_hooks.monitorEventLoopDelay) while the work ran. */
  readonly loopMaxMs: number;
  readonly loopP99Ms: number;
}

/**
 * Runs `work` while `probe` is sent every `everyMs`, and measures each probe's wait from when it
 * was due, not from when its timer fired: a loop held for ten seconds delays the timer too, and
 * that delay is what a client sending then would have waited. A probe resolves to undefined when
 * it went well, else to what went wrong.
 */
export async function duringWork<T>(work: () => Promise<T>, probe: () => Promise<string | undefined>, everyMs = 100): Promise<{ result: T; latency: Latency }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  const start = performance.now();
  const waits: number[] = [];
  const failures: string[] = [];
  const probes: Promise<void>[] = [];
  let tick = 0;
  let timer: NodeJS.Timeout | undefined;
  const send = () => {
    const due = start + tick * everyMs;
    probes.push(
      probe().then(
        (failure) => {
          waits.push(performance.now() - due);
          if (failure !== undefined) failures.push(failure);
        },
        (error: unknown) => {
          waits.push(performance.now() - due);
          failures.push(String(error));
        },
      ),
    );
    // Ticks that passed while the loop was held are not sent late one by one: the next is the first still ahead.
    tick = Math.max(tick + 1, Math.ceil((performance.now() - start) / everyMs));
    timer = setTimeout(send, Math.max(0, start + tick * everyMs - performance.now()));
  };
  histogram.enable();
  send();
  try {
    const result = await work();
    return { result, latency: await settle() };
  } finally {
    clearTimeout(timer);
    histogram.disable();
  }

  async function settle(): Promise<Latency> {
    clearTimeout(timer);
    histogram.disable();
    await Promise.all(probes);
    const sorted = [...waits].sort((a, b) => a - b);
    return {
      samples: waits.length,
      worstWaitMs: Math.round(sorted.at(-1) ?? 0),
      p95WaitMs: Math.round(sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? 0),
      failures,
      loopMaxMs: Math.round(histogram.max / 1e6),
      loopP99Ms: Math.round(histogram.percentile(99) / 1e6),
    };
  }
}

/**
 * The probe the isolation tests send for the other org: a page of its prospects, with its own
 * token, straight to the server (`baseUrl`); undefined when answered 200.
 */
export function prospectsPageProbe(baseUrl: string, token: string): () => Promise<string | undefined> {
  return async () => {
    const response = await fetch(`${baseUrl}/api/v2/prospects?page[size]=10`, { headers: { authorization: `Bearer ${token}` } });
    await response.text();
    return response.status === 200 ? undefined : `GET /api/v2/prospects answered ${response.status}`;
  };
}
