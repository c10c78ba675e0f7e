import { describe, expect, it } from 'vitest';
import { readUpsertBody } from '../../../runtime/bulk/upsert-body.js';
import { ApiError } from '../../../runtime/jsonapi/index.js';

const LIMIT = 1000;

/** A body streamed in pieces of `piece` bytes, counting how many the reader pulled. */
function streamed(bytes: Uint8Array, piece: number) {
  let offset = 0;
  const pulled = { bytes: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const next = bytes.subarray(offset, offset + piece);
      offset += next.length;
      pulled.bytes += next.length;
      controller.enqueue(next);
    },
  });
  return { request: new Request('http://127.0.0.1/', { method: 'POST', body, duplex: 'half' } as RequestInit), pulled };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('readUpsertBody', () => {
  const bytes = (n: number) => new TextEncoder().encode('é'.repeat(n / 2));

  it('answers the exact bytes of a body up to the limit, sent with a Content-Length or streamed', async () => {
    const whole = bytes(LIMIT);
    const sent = await readUpsertBody(new Request('http://127.0.0.1/', { method: 'POST', body: whole }), LIMIT);
    expect(Buffer.from(sent).equals(Buffer.from(whole))).toBe(true);
    const { request } = streamed(whole, 7);
    expect(Buffer.from(await readUpsertBody(request, LIMIT)).equals(Buffer.from(whole))).toBe(true);
    expect((await readUpsertBody(new Request('http://127.0.0.1/', { method: 'POST' }), LIMIT)).byteLength).toBe(0);
  });

  it('refuses a body one byte over the limit with a 413, by its Content-Length or by the piece that crosses the limit', async () => {
    const over = bytes(LIMIT + 2);
    const declared = await refusal(readUpsertBody(new Request('http://127.0.0.1/', { method: 'POST', body: over }), LIMIT + 1));
    expect(declared.status).toBe(413);
    expect(declared.errors).toEqual([{ id: 'requestTooLarge', status: '413', title: 'Payload Too Large', detail: `The request body is larger than ${LIMIT + 1} bytes` }]);

    const large = bytes(100 * LIMIT);
    const { request, pulled } = streamed(large, 100);
    expect((await refusal(readUpsertBody(request, LIMIT))).status).toBe(413);
    // It stops at the piece that crosses the limit, not at the end of the body.
    expect(pulled.bytes).toBeLessThan(2 * LIMIT);
  });
});
