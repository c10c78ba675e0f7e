import { payloadTooLarge } from '../jsonapi/index.js';

/**
 * A bulk upsert's body as bytes, read from the request's stream into one buffer of at most
 * `limit` bytes: sized from Content-Length when the client sent one, else grown as the bytes
 * come. A body over the limit is a 413 as soon as it is known to be, by its Content-Length or
 * by the byte that crosses the limit, without reading the rest. One copy of the body is held,
 * where a middleware's buffer, a second Request and its text would hold three.
 */
export async function readUpsertBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) throw payloadTooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  let buffer: Uint8Array = new Uint8Array(declared ?? Math.min(limit, 64 * 1024));
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit);
    }
    if (size + value.byteLength > buffer.byteLength) buffer = grown(buffer, size, Math.min(limit, Math.max(size + value.byteLength, buffer.byteLength * 2)));
    buffer.set(value, size);
    size += value.byteLength;
  }
  return buffer.subarray(0, size);
}

function declaredLength(request: Request): number | undefined {
  if (request.headers.has('transfer-encoding')) return undefined;
  const header = request.headers.get('content-length');
  if (header === null || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

function grown(buffer: Uint8Array, used: number, bytes: number): Uint8Array {
  const larger = new Uint8Array(bytes);
  larger.set(buffer.subarray(0, used));
  return larger;
}
