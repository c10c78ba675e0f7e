import { setImmediate } from 'node:timers/promises';

/**
 * Work over the many items of one tenant's request or file, cut into slices with a turn of the
 * event loop between them (issue #25): the process's other requests, timers and I/O run between
 * slices, so no tenant's large body or file holds them up for longer than one slice takes.
 */

/**
 * At most this many bytes of a file are parsed, matched or hashed between two turns of the event
 * loop: a few milliseconds of CSV parsing or regular expression, where a stored 1 MiB chunk, or a
 * whole 100 MiB file, at once would keep the process's other requests waiting for all of it.
 */
export const PIECE_BYTES = 64 * 1024;

/** Lets the event loop run whatever is waiting before going on. */
export function turnOfEventLoop(): Promise<void> {
  return setImmediate();
}

/** `map` of each item, in order, `size` items at a time with a turn of the event loop between. */
export async function mapInSlices<T, R>(items: readonly T[], size: number, map: (item: T, index: number) => R): Promise<R[]> {
  const results = new Array<R>(items.length);
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await turnOfEventLoop();
    const end = Math.min(start + size, items.length);
    for (let index = start; index < end; index++) results[index] = map(items[index]!, index);
  }
  return results;
}

/** `chunks` cut into pieces of at most `pieceBytes`, views of the same memory. */
export async function* piecesOf(chunks: AsyncIterable<Uint8Array>, pieceBytes = PIECE_BYTES): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = 0; at < bytes.length; at += pieceBytes) yield bytes.subarray(at, at + pieceBytes);
  }
}

/** piecesOf with a turn of the event loop before each piece after the first. */
export async function* inPieces(chunks: AsyncIterable<Uint8Array>, pieceBytes = PIECE_BYTES): AsyncGenerator<Buffer> {
  let first = true;
  for await (const piece of piecesOf(chunks, pieceBytes)) {
    if (!first) await turnOfEventLoop();
    first = false;
    yield piece;
  }
}
