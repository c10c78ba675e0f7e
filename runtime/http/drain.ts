import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';

/**
 * A graceful stop behind a load balancer. From the signal on, the process says it is not ready
 * (/readyz 503) but goes on answering for a drain period, long enough for the balancer's health
 * checks to see it and send the traffic elsewhere; each answer closes its connection, so neither
 * clients nor the balancer keep one to reuse. Then it stops listening, lets in-flight requests
 * finish, and only past a grace period cuts the connections still open.
 *
 * Stopping to listen at once instead would refuse the requests the balancer sends before it
 * notices, and closing idle keep-alive connections at once races with a request just sent on one.
 */
export class ShutdownState {
  #draining = false;

  /** True from the signal on: /readyz answers 503 and every answer says Connection: close. */
  get draining(): boolean {
    return this.#draining;
  }

  begin(): void {
    this.#draining = true;
  }
}

export interface DrainOptions {
  /** How long new requests are still served after the signal (SHUTDOWN_DRAIN_SECONDS). */
  readonly drainMs: number;
  /** How long in-flight requests may finish once the listener is closed. */
  readonly graceMs: number;
  readonly log: Logger;
}

/** Marks every answer given while draining with Connection: close (Node then closes the socket after it). */
export function closeConnectionsWhileDraining(server: Server, state: ShutdownState): void {
  // Before the app's own listener, so that the header is there whatever the app answers.
  server.prependListener('request', (_request, response) => {
    if (state.draining) response.setHeader('Connection', 'close');
  });
}

/** Drains, stops listening, and resolves once every connection is closed. */
export async function drainAndClose(server: Server, state: ShutdownState, options: DrainOptions): Promise<void> {
  state.begin();
  if (options.drainMs > 0) {
    options.log.info({ drainMs: options.drainMs }, 'draining: /readyz answers 503, requests are still served');
    await sleep(options.drainMs);
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections would hold close() open forever; in-flight requests get the grace period.
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), options.graceMs);
  await closed;
  clearTimeout(force);
}
