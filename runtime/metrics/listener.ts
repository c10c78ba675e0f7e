import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import { listen } from '../http/listen.js';
import { ApiError, errorResponse, resourceNotFound, serviceUnavailable } from '../jsonapi/index.js';
import { metricsEndpoint, type MetricsEndpointOptions } from './endpoint.js';

export interface MetricsListenerOptions extends MetricsEndpointOptions {
  /** METRICS_PORT; 0 takes any free port. */
  readonly port: number;
  /** HOST: the address the API listens on, so that a worker's metrics are reachable where its API is. */
  readonly hostname: string;
  readonly log: Logger;
}

export interface MetricsListener {
  /** http://host:port, without /metrics. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A worker process's HTTP listener: it serves GET /metrics and nothing else, with JSON:API
 * errors like the API's. Workers have no other HTTP server for Prometheus to scrape.
 */
export async function listenForMetrics(options: MetricsListenerOptions): Promise<MetricsListener> {
  const app = new Hono();
  app.get('/metrics', metricsEndpoint(options));
  app.notFound((c) => errorResponse(c, resourceNotFound(`No route matches ${c.req.method} ${c.req.path}; this port serves GET /metrics`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    // A collect that failed (the queue's query, when the database is unreachable): the scrape fails, and Prometheus marks the target down.
    options.log.error({ err: error }, 'metrics could not be collected');
    return errorResponse(c, serviceUnavailable('metricsUnavailable', 'The metrics could not be collected; the worker logs why'));
  });
  const server = (await listen(app.fetch, { port: options.port, hostname: options.hostname, portSetting: 'METRICS_PORT' })) as Server;
  const address = server.address() as AddressInfo;
  const url = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  options.log.info({ url: `${url}/metrics` }, 'serving metrics');
  return {
    url,
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
