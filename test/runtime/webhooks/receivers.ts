// Listeners on 127.0.0.1 only: HTTPS receivers that record what arrives, and plain TCP
// sentinels that only count connections, for asserting that nothing was sent their way.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { TestCertificate } from './certificates.js';

export interface ReceivedRequest {
  /** performance.now() when the request head arrived. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** TLS SNI the client sent. */
  readonly servername: string | false | null;
  /** Filled in once the body has arrived, before the handler runs. */
  body: Buffer;
}

export interface Receiver {
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted, whether or not TLS succeeded on them. */
  connections(): number;
  /** TLS handshakes completed: one per connection a client made and used. */
  secureConnections(): number;
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** `at` picks the loopback address and port (127.0.0.1 and any free port unless given). */
export async function startReceiver(certificate: TestCertificate, handle: Handler, at: { host?: string; port?: number } = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  let secureConnections = 0;
  const server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
    const received: ReceivedRequest = {
      at: performance.now(),
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      servername: (request.socket as TLSSocket).servername,
      body: Buffer.alloc(0),
    };
    requests.push(received);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.body = Buffer.concat(chunks);
      handle(request, response);
    });
  });
  // Longer than the delivery client keeps idle connections: Node's 5 s would race with its
  // reuse of one, and a reset first attempt would count as a failed delivery.
  server.keepAliveTimeout = 60_000;
  server.on('connection', () => connections++);
  server.on('secureConnection', () => secureConnections++);
  // TLS failures are what some tests expect; they must not surface as server errors.
  server.on('tlsClientError', () => {});
  const port = await listenOnLoopback(server, at.host, at.port);
  return {
    port,
    requests,
    connections: () => connections,
    secureConnections: () => secureConnections,
    close: () => {
      server.closeAllConnections();
      return closeServer(server);
    },
  };
}

export interface Sentinel {
  readonly port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startSentinel(): Promise<Sentinel> {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  const port = await listenOnLoopback(server);
  return { port, connections: () => connections, close: () => closeServer(server) };
}

/** A port nothing listens on: bound, then released. */
export async function freePort(): Promise<number> {
  const server = createTcpServer();
  const port = await listenOnLoopback(server);
  await closeServer(server);
  return port;
}

function listenOnLoopback(server: Server, host = '127.0.0.1', port = 0): Promise<number> {
  if (!host.startsWith('127.')) throw new Error(`${host} is not a loopback address`);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
