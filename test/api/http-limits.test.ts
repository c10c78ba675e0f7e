import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_HEAD_BYTES } from '../../runtime/http/listen.js';
import { MEDIA_TYPE, startTestApi, type TestApi } from '../helpers/api.js';

/** What the HTTP layer answers before a request reaches a handler: sizes and broken requests. */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through `agent`, so that keep-alive sockets are reused as a client would. */
function send(agent: Agent, method: string, path: string, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, api.baseUrl);
    const req = httpRequest(
      url,
      { method, agent, headers: { authorization: `Bearer ${api.org.token}`, ...(body !== undefined && { 'content-type': MEDIA_TYPE }) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Bytes written straight to the server's socket, and everything it answers until it closes. */
function sendRaw(bytes: string): Promise<string> {
  const { port } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('an over-large body', () => {
  it("413 says Connection: close, and the client's next request on its keep-alive agent succeeds", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const large = JSON.stringify({ data: { type: 'prospect', attributes: { firstName: 'x'.repeat(200 * 1024) } } });
      const refused = await send(agent, 'POST', '/api/v2/prospects', large);
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body).errors[0].id).toBe('requestTooLarge');
      for (let i = 0; i < 3; i++) expect((await send(agent, 'GET', '/api/v2/prospects')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('long request lines', () => {
  it('a filter[id] list of 5,000 ids is served', async () => {
    const ids = Array.from({ length: 5000 }, (_, i) => 1_000_000 + i).join(',');
    const agent = new Agent();
    const response = await send(agent, 'GET', `/api/v2/prospects?filter[id]=${ids}`);
    expect(ids.length).toBeGreaterThan(16 * 1024);
    expect(response.status).toBe(200);
    agent.destroy();
  });

  it(`past ${MAX_REQUEST_HEAD_BYTES} bytes: 431 with a JSON:API error`, async () => {
    const answer = await sendRaw(`GET /api/v2/prospects?filter[id]=${'1,'.repeat(MAX_REQUEST_HEAD_BYTES / 2)}1 HTTP/1.1\r\nHost: x\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toContain(`Content-Type: ${MEDIA_TYPE}`);
    expect(JSON.parse(body!)).toEqual({
      errors: [
        {
          id: 'requestHeaderFieldsTooLarge',
          status: '431',
          title: 'Request Header Fields Too Large',
          detail: `The request line and headers are larger than ${MAX_REQUEST_HEAD_BYTES} bytes; send long filter lists in several requests`,
        },
      ],
    });
  });

  it('a request that is not HTTP: 400 with a JSON:API error', async () => {
    const answer = await sendRaw('HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!).errors[0]).toMatchObject({ status: '400', title: 'Bad Request' });
  });
});
