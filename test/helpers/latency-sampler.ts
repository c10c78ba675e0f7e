import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/**
 * What another tenant sees while one org's heavy work runs: a request sent every `everyMs`
 * (on schedule, whether or not the one before has answered, as independent clients do), each
 * answer's wait, and this process's event-loop delay over the same window.
 */

export interface LatencyReport {
  readonly requests: number;
  /** Requests that failed: a network error, or a status other than 200. */
  readonly failures: readonly string[];
  readonly worstMs: number;
  readonly p95Ms: number;
  /** This process's event-loop delay, 99th percentile and maximum, in milliseconds. */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
}

export interface LatencySampler {
  /** Stops sending, waits for the requests in flight, and reports. */
  stop(): Promise<LatencyReport>;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

export function sampleLatency(url: string, token: string, everyMs = 100): LatencySampler {
  const waits: number[] = [];
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const send = () => {
    const sentAt = performance.now();
    const request = fetch(url, { headers: { authorization: `Bearer ${token}` } })
      .then(async (response) => {
        await response.arrayBuffer();
        waits.push(performance.now() - sentAt);
        if (response.status !== 200) failures.push(`status ${response.status}`);
      })
      .catch((error: unknown) => {
        waits.push(performance.now() - sentAt);
        failures.push(String(error));
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  const timer = setInterval(send, everyMs);
  send();
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      loop.disable();
      const sorted = [...waits].sort((a, b) => a - b);
      return {
        requests: waits.length,
        failures,
        worstMs: Math.round(sorted.at(-1) ?? 0),
        p95Ms: Math.round(percentile(sorted, 0.95)),
        loopP99Ms: Math.round(loop.percentile(99) / 1e6),
        loopMaxMs: Math.round(loop.max / 1e6),
      };
    },
  };
}

/** Runs `work` while another tenant's requests are sampled; the work's result and the report. */
export async function whileSampling<T>(url: string, token: string, work: () => Promise<T>): Promise<{ result: T; report: LatencyReport }> {
  const sampler = sampleLatency(url, token);
  try {
    const result = await work();
    return { result, report: await sampler.stop() };
  } catch (error) {
    await sampler.stop();
    throw error;
  }
}
