import { serve, type ServerType } from '@hono/node-server';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MEDIA_TYPE } from '../jsonapi/media-type.js';

/**
 * The request line and headers together may be this large. Node's default (16 KiB) is less
 * than a `filter[id]` list of a thousand ids needs; past this, the client gets a JSON:API 431.
 */
export const MAX_REQUEST_HEAD_BYTES = 128 * 1024;

export interface ListenOptions {
  readonly port: number;
  readonly hostname: string;
  /** The setting that chose the port, named when it is taken: PORT unless said. */
  readonly portSetting?: string;
}

/**
 * The address could not be listened on: taken by another process, reserved, or not this
 * machine's. Its message is one sentence an operator can act on; `cadence serve` prints it alone.
 */
export class AddressUnavailable extends Error {
  override name = 'AddressUnavailable';

  constructor(
    readonly code: string,
    options: ListenOptions,
  ) {
    super(addressProblem(code, options));
  }
}

function addressProblem(code: string, { port, hostname, portSetting = 'PORT' }: ListenOptions): string {
  if (code === 'EADDRINUSE') return `port ${port} on ${hostname} is already in use (set ${portSetting} to another port)`;
  if (code === 'EACCES') return `port ${port} on ${hostname} may only be used by a privileged process (set ${portSetting} to a port above 1023)`;
  return `cannot listen on ${hostname} port ${port}: ${code} (set HOST to an address of this machine)`;
}

const ADDRESS_PROBLEMS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL']);

/**
 * Serves `fetch` over HTTP/1.1 with Cadence's limits, once it is listening. Fails with
 * AddressUnavailable when the address cannot be had, instead of an 'error' event nobody hears.
 */
export function listen(fetch: (request: Request) => Response | Promise<Response>, options: ListenOptions): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(ADDRESS_PROBLEMS.has(error.code ?? '') ? new AddressUnavailable(error.code!, options) : error);
    const server = serve({ fetch, port: options.port, hostname: options.hostname, serverOptions: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES } }, () => {
      server.off('error', refused);
      resolve(server);
    });
    server.once('error', refused);
    keepIdleConnectionsOpen(server as Server);
    (server as Server).on('clientError', answerUnparsableRequest);
  });
}

/**
 * Idle keep-alive connections stay open 65 s, longer than load balancers and HTTP clients keep
 * theirs (60 s is common). With Node's 5 s, a client reusing a connection just as the server
 * closes it sees a reset (ECONNRESET) on a request it cannot safely retry. Headers must be
 * allowed at least as long, or Node closes a connection whose next request has just begun.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

function keepIdleConnectionsOpen(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}

/**
 * A request Node could not parse never reaches the app; without this handler Node answers with
 * a bare status line. Clients get a JSON:API error like every other answer.
 */
function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, id, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'requestHeaderFieldsTooLarge', `The request line and headers are larger than ${MAX_REQUEST_HEAD_BYTES} bytes; send long filter lists in several requests`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'requestTimeout', 'The request was not received in time']
        : [400, 'badRequest', 'The request is not valid HTTP/1.1'];
  const title = STATUS_CODES[status]!;
  const body = JSON.stringify({ errors: [{ id, status: String(status), title, detail }] });
  socket.end(`HTTP/1.1 ${status} ${title}\r\nContent-Type: ${MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
