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
}

/** Serves `fetch` over HTTP/1.1 with Cadence's limits, once it is listening. */
export function listen(fetch: (request: Request) => Response | Promise<Response>, options: ListenOptions): Promise<ServerType> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: options.port, hostname: options.hostname, serverOptions: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES } }, () => resolve(server));
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
