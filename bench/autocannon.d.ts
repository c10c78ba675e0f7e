// The part of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    readonly average: number;
    readonly total: number;
    readonly p50: number;
    readonly p99: number;
  }

  interface Request {
    readonly method?: string;
    readonly path: string;
    readonly headers?: Record<string, string>;
    readonly body?: string;
    /** Called before each request is sent; returns the request to send (e.g. with another path). */
    readonly setupRequest?: (request: Request) => Request;
  }

  interface Options {
    readonly url: string;
    readonly connections?: number;
    /** Seconds. */
    readonly duration?: number;
    readonly headers?: Record<string, string>;
    /** Each connection goes through these in turn, over and over. */
    readonly requests?: readonly Request[];
    /** Seconds to wait for a response. */
    readonly timeout?: number;
  }

  interface Result {
    readonly requests: Histogram;
    /** Milliseconds, whole. */
    readonly latency: Histogram;
    /** Seconds. */
    readonly duration: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly '2xx': number;
  }

  function autocannon(options: Options): Promise<Result> & { stop(): void };
  export default autocannon;
  export type { Request };
}
