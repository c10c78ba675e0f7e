import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * At most this many bytes are parsed, matched or hashed between two turns of the event loop.
 * CSV parsing and the address's regular expression take a few milliseconds per 64 KiB; an
 * upload's stored 1 MiB chunks, or a whole 100 MiB file, at once would keep the process (and
 * with an in-process worker, every tenant's requests) waiting for all of it.
 */
export const PIECE_BYTES = 64 * 1024;

/** `chunks` cut into pieces of at most PIECE_BYTES, with a turn of the event loop before each piece after the first. */
export async function* inPieces(chunks: AsyncIterable<Uint8Array>, pieceBytes = PIECE_BYTES): AsyncGenerator<Buffer> {
  let first = true;
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = 0; at < bytes.length; at += pieceBytes) {
      if (!first) await nextTurn();
      first = false;
      yield bytes.subarray(at, at + pieceBytes);
    }
  }
}
