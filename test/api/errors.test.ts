import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** The error bodies of SPEC.md's Errors section and JSON:API's rules, asserted exactly. */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const prospect = (attributes: Record<string, unknown> = {}) => ({ data: { type: 'prospect', attributes } });

describe('authentication', () => {
  it('401 without a token, with a JSON:API body', async () => {
    const response = await api.request('GET', '/api/v2/prospects', { token: null });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect(response.body).toEqual({
      errors: [{ id: 'unauthorized', status: '401', title: 'Unauthorized', detail: 'An Authorization: Bearer <token> header is required' }],
    });
  });

  it('401 for an unknown token', async () => {
    const response = await api.request('GET', '/api/v2/prospects', { token: 'cad_not-a-real-token' });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].detail).toBe('The access token is not valid');
  });

  it('401 for an expired token', async () => {
    const token = await api.newUserToken(api.org.orgId, ['prospects.read']);
    await api.sql`update cadence_system.access_tokens set expires_at = now() - interval '1 second'`.catch(() => undefined);
    const response = await api.request('GET', '/api/v2/prospects', { token });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].detail).toBe('The access token has expired');
    // The org's main token was expired too by the statement above; give it back its life.
    await api.sql`update cadence_system.access_tokens set expires_at = now() + interval '1 day'`;
  });

  /** The raw answer to a request written byte by byte: fetch refuses to send a NUL in a header. */
  function rawRequest(head: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(api.baseUrl).port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.end(`${head}Connection: close\r\n\r\n`);
    });
  }

  // Node's HTTP parser refuses a NUL in any header before a handler runs: no token or request
  // id holding one ever reaches the database.
  it.each([
    ['the bearer token', (token: string) => `Authorization: Bearer ${token}\u0000\r\n`],
    ['X-Request-Id', (token: string) => `Authorization: Bearer ${token}\r\nX-Request-Id: a\u0000b\r\n`],
  ])('a NUL in %s is a 400 of the HTTP parser', async (_name, headers) => {
    const answer = await rawRequest(`GET /api/v2/prospects HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers(api.org.token)}`);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
  });

  it('a request id that is not a plain token is replaced, not echoed', async () => {
    for (const incoming of ['a b', 'ä', 'x'.repeat(65), '%00']) {
      const response = await api.request('GET', '/api/v2/prospects', { headers: { 'x-request-id': incoming } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('the schema needs no token', async () => {
    const response = await api.request('GET', '/api/v2/schema', { token: null });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.definitions)).toContain('prospect');
  });
});

describe('scopes', () => {
  it('403 naming the scope a request needs', async () => {
    const token = await api.newUserToken(api.org.orgId, ['prospects.read']);
    expect((await api.request('GET', '/api/v2/prospects', { token })).status).toBe(200);
    const write = await api.request('POST', '/api/v2/prospects', { token, body: prospect() });
    expect(write.status).toBe(403);
    expect(write.body.errors[0]).toEqual({
      id: 'insufficientScope',
      status: '403',
      title: 'Forbidden',
      detail: 'This request needs the scope prospects.write (or prospects.all)',
    });
    expect((await api.request('GET', '/api/v2/accounts', { token })).status).toBe(403);
  });

  it('<stem>.all allows every verb; write does not allow delete', async () => {
    const all = await api.newUserToken(api.org.orgId, ['accounts.all']);
    const created = await api.request('POST', '/api/v2/accounts', { token: all, body: { data: { type: 'account' } } });
    expect(created.status).toBe(201);
    const writeOnly = await api.newUserToken(api.org.orgId, ['accounts.write', 'accounts.read']);
    const refused = await api.request('DELETE', `/api/v2/accounts/${created.body.data.id}`, { token: writeOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].detail).toContain('accounts.delete');
    expect((await api.request('DELETE', `/api/v2/accounts/${created.body.data.id}`, { token: all })).status).toBe(204);
  });
});

describe('media type', () => {
  it.each(['application/vnd.api+json', 'application/json', 'application/vnd.api+json; charset=utf-8', 'Application/JSON;charset="UTF-8"'])(
    'a body sent as %s is read',
    async (contentType) => {
      const response = await api.request('POST', '/api/v2/prospects', { body: prospect({ firstName: 'Typed' }), headers: { 'content-type': contentType } });
      expect(response.status).toBe(201);
    },
  );

  it.each([
    ['text/plain', 'Content-Type must be application/vnd.api+json (or application/json), not text/plain'],
    ['application/x-www-form-urlencoded', 'Content-Type must be application/vnd.api+json (or application/json), not application/x-www-form-urlencoded'],
    ['application/vnd.api+json; ext=bulk', 'Content-Type application/vnd.api+json may carry only charset=utf-8, not ext=bulk'],
    ['application/json; charset=latin1', 'Content-Type application/json may carry only charset=utf-8, not charset=latin1'],
  ])('415 for a body sent as %s', async (contentType, detail) => {
    const response = await api.request('POST', '/api/v2/prospects', { body: prospect(), headers: { 'content-type': contentType } });
    expect(response.status).toBe(415);
    expect(response.body.errors).toEqual([{ id: 'unsupportedMediaType', status: '415', title: 'Unsupported Media Type', detail }]);
  });

  it.each(['application/vnd.api+json', 'application/json', 'application/x-www-form-urlencoded', 'text/plain; charset=latin1'])(
    'a request without a body is never refused for its Content-Type (%s): GET, DELETE, action POST',
    async (contentType) => {
      const created = await api.request('POST', '/api/v2/prospects', { body: prospect() });
      const headers = { 'content-type': contentType };
      expect((await api.request('GET', `/api/v2/prospects/${created.body.data.id}`, { headers })).status).toBe(200);
      const task = await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } });
      expect((await api.request('POST', `/api/v2/tasks/${task.body.data.id}/actions/markComplete`, { headers })).status).toBe(200);
      expect((await api.request('DELETE', `/api/v2/prospects/${created.body.data.id}`, { headers })).status).toBe(204);
    },
  );

  it('406 when Accept has the media type only with parameters', async () => {
    const response = await api.request('GET', '/api/v2/prospects', { headers: { accept: 'application/vnd.api+json; ext=x' } });
    expect(response.status).toBe(406);
  });
});

describe('bodies', () => {
  it('400 for malformed JSON', async () => {
    const response = await api.request('POST', '/api/v2/prospects', { rawBody: '{"data": ' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].id).toBe('invalidJson');
  });

  it('400 for a body without data', async () => {
    const response = await api.request('POST', '/api/v2/prospects', { body: { nope: 1 } });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ pointer: '/data' });
  });

  it('400 for nesting deeper than the limit', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const response = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', meta: deep } } });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].detail).toContain('nested deeper');
  });

  it('400 for a NUL character in a string', async () => {
    const response = await api.request('POST', '/api/v2/prospects', { body: prospect({ firstName: 'a\u0000b' }) });
    expect(response.status).toBe(400);
  });

  it('413 for an over-large body, chunked too', async () => {
    const big = JSON.stringify(prospect({ custom1: 'x'.repeat(100 * 1024) }));
    const sized = await api.request('POST', '/api/v2/prospects', { rawBody: big });
    expect(sized.status).toBe(413);
    expect(sized.body.errors[0].id).toBe('requestTooLarge');
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 11000, (i + 1) * 11000)));
        controller.enqueue(new TextEncoder().encode(big.slice(110000)));
        controller.close();
      },
    });
    const chunked = await fetch(`${api.baseUrl}/api/v2/prospects`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { authorization: `Bearer ${api.org.token}`, 'content-type': 'application/vnd.api+json' },
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const count = await api.sql`select count(*)::int as n from prospects where custom1 like 'xxx%'`;
    expect(count[0]!.n).toBe(0);
  });

  it('__proto__ keys pollute nothing', async () => {
    const response = await api.request('POST', '/api/v2/prospects', {
      rawBody: '{"data":{"type":"prospect","attributes":{"__proto__":{"polluted":true}},"meta":{"__proto__":{"polluted":true}}}}',
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source.pointer).toBe('/data/attributes/__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('identity', () => {
  it('409 when data.type does not match the collection', async () => {
    const response = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'account' } } });
    expect(response.status).toBe(409);
    expect(response.body.errors[0].source.pointer).toBe('/data/type');
  });

  it('403 for a client-generated id', async () => {
    const response = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', id: '5' } } });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].id).toBe('clientGeneratedId');
  });

  it('409 when the PATCH id differs from the path', async () => {
    const created = await api.request('POST', '/api/v2/prospects', { body: prospect() });
    const id = created.body.data.id;
    const response = await api.request('PATCH', `/api/v2/prospects/${id}`, { body: { data: { type: 'prospect', id: String(id + 1) } } });
    expect(response.status).toBe(409);
  });

  it('409 when the PATCH id is not a string or number, even one that prints as the path id ([5])', async () => {
    const created = await api.request('POST', '/api/v2/prospects', { body: prospect() });
    const id = Number(created.body.data.id);
    const asArray = await api.request('PATCH', `/api/v2/prospects/${id}`, { body: { data: { type: 'prospect', id: [id] } } });
    expect(asArray.status).toBe(409);
    expect(asArray.body.errors[0].source.pointer).toBe('/data/id');
    const asNumber = await api.request('PATCH', `/api/v2/prospects/${id}`, { body: { data: { type: 'prospect', id } } });
    expect(asNumber.status).toBe(200);
  });

  it('404 resourceNotFound for a missing record, and for unknown routes', async () => {
    const response = await api.request('GET', '/api/v2/prospects/999999');
    expect(response.status).toBe(404);
    expect(response.body.errors[0]).toEqual({
      id: 'resourceNotFound',
      status: '404',
      title: 'Resource Not Found',
      detail: 'No prospect with id 999999 exists',
    });
    expect((await api.request('GET', '/api/v2/nothingHere')).status).toBe(404);
    expect((await api.request('GET', '/nowhere', { token: null })).status).toBe(404);
  });
});

describe('validation', () => {
  it('422 validationError with a pointer for each bad attribute', async () => {
    const response = await api.request('POST', '/api/v2/prospects', {
      body: prospect({ firstName: 5, emails: ['not-an-email'], pronouns: 'x' }),
    });
    expect(response.status).toBe(422);
    const pointers = response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual(['/data/attributes/emails/0', '/data/attributes/firstName', '/data/attributes/pronouns']);
    for (const error of response.body.errors) expect(error).toMatchObject({ id: 'validationError', title: 'Validation Error', status: '422' });
  });

  it('422 for a missing required attribute and for a bad enum value', async () => {
    const missing = await api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: {} } } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ source: { pointer: '/data/attributes/url' }, detail: '"url" is required' });
    const badEnum = await api.request('POST', '/api/v2/sequences', { body: { data: { type: 'sequence', attributes: { sequenceType: 'weekly' } } } });
    expect(badEnum.status).toBe(422);
    expect(badEnum.body.errors[0].detail).toContain('must be one of');
  });

  it('422 for a relationship to a record that does not exist', async () => {
    const response = await api.request('POST', '/api/v2/prospects', {
      body: { data: { type: 'prospect', relationships: { account: { data: { type: 'account', id: 424242 } } } } },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source.pointer).toBe('/data/relationships/account');
  });

  it('relationship ids are accepted as numeric strings and rendered as integers', async () => {
    const account = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account' } } });
    const created = await api.request('POST', '/api/v2/prospects', {
      body: { data: { type: 'prospect', relationships: { account: { data: { type: 'account', id: String(account.body.data.id) } } } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.relationships.account.data).toEqual({ type: 'account', id: account.body.data.id });
  });

  it('an out-of-range timestamp is a 422, not a 500', async () => {
    const response = await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { dueAt: '0000-01-01T00:00:00Z' } } } });
    expect(response.status).toBe(422);
  });
});

describe('query parameters and actions', () => {
  it('400 for an unknown query parameter, naming it', async () => {
    const response = await api.request('GET', '/api/v2/prospects?bogus=1');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'bogus' });
  });

  it('400 for page[size] above 1000', async () => {
    const response = await api.request('GET', '/api/v2/prospects?page[size]=1001');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'page[size]' });
  });

  it('400 for an unacceptable actionParams name', async () => {
    const task = await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } });
    const response = await api.request('POST', `/api/v2/tasks/${task.body.data.id}/actions/markComplete?actionParams[bogus]=1`);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter: 'actionParams[bogus]' });
  });

  it('markComplete completes a task and records task_completed', async () => {
    const task = await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } });
    expect(task.body.data.attributes).toMatchObject({ state: 'incomplete', completed: false });
    const id = task.body.data.id;
    const done = await api.request('POST', `/api/v2/tasks/${id}/actions/markComplete?actionParams[completionNote]=done`);
    expect(done.status).toBe(200);
    expect(done.body.data.attributes).toMatchObject({ state: 'completed', completed: true, note: 'done' });
    expect(done.body.data.attributes.completedAt).toMatch(/Z$/);
    const events = await api.sql`select name from events where resource_type = 'task' and resource_id = ${id} order by id`;
    expect(events.map((e) => e.name)).toEqual(['task_created', 'task_updated', 'task_completed']);
  });

  it('422 for an action the record state does not allow', async () => {
    const make = async (collection: string, type: string, attributes: Record<string, unknown> = {}) =>
      (await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes } } })).body.data.id;
    const relationships = {
      prospect: { data: { type: 'prospect', id: await make('prospects', 'prospect') } },
      sequence: { data: { type: 'sequence', id: await make('sequences', 'sequence') } },
      mailbox: { data: { type: 'mailbox', id: await make('mailboxes', 'mailbox', { email: 'box@example.test' }) } },
    };
    const state = await api.request('POST', '/api/v2/sequenceStates', { body: { data: { type: 'sequenceState', relationships } } });
    expect(state.status).toBe(201);
    expect(state.body.data.attributes.state).toBe('active');
    const resume = await api.request('POST', `/api/v2/sequenceStates/${state.body.data.id}/actions/resume`);
    expect(resume.status).toBe(422);
    expect(resume.body.errors[0]).toMatchObject({ id: 'invalidStateTransition', detail: 'A sequence state in state "active" cannot resume' });
    const pause = await api.request('POST', `/api/v2/sequenceStates/${state.body.data.id}/actions/pause`);
    expect(pause.body.data.attributes.state).toBe('paused');
  });

  it('sequence lock is an action; an unknown action is 404', async () => {
    const sequence = await api.request('POST', '/api/v2/sequences', { body: { data: { type: 'sequence', attributes: { name: 's' } } } });
    const locked = await api.request('POST', `/api/v2/sequences/${sequence.body.data.id}/actions/lock`);
    expect(locked.body.data.attributes.locked).toBe(true);
    expect((await api.request('POST', `/api/v2/sequences/${sequence.body.data.id}/actions/explode`)).status).toBe(404);
  });

  it('405 with Allow for a verb the resource does not offer', async () => {
    const response = await api.request('DELETE', '/api/v2/events/1');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('calls and tasks', () => {
  const task = async () => (await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } })).body.data.id as number;

  it('a call linked to a task leaves the task unchanged', async () => {
    const taskId = await task();
    const call = await api.request('POST', '/api/v2/calls', {
      body: { data: { type: 'call', attributes: { direction: 'outbound', outcome: 'completed' }, relationships: { task: { data: { type: 'task', id: taskId } } } } },
    });
    expect(call.status).toBe(201);
    expect(call.body.data.relationships.task.data).toEqual({ type: 'task', id: taskId });
    expect((await api.request('GET', `/api/v2/tasks/${taskId}`)).body.data.attributes.completed).toBe(false);
  });

  it('meta.complete on the task relationship completes the task in the same transaction', async () => {
    const taskId = await task();
    const call = await api.request('POST', '/api/v2/calls', {
      body: {
        data: {
          type: 'call',
          attributes: { direction: 'outbound', outcome: 'completed' },
          relationships: { task: { data: { type: 'task', id: taskId }, meta: { complete: true } } },
        },
      },
    });
    expect(call.status).toBe(201);
    const completed = (await api.request('GET', `/api/v2/tasks/${taskId}`)).body.data.attributes;
    expect(completed).toMatchObject({ completed: true, state: 'completed' });
    const events = await api.sql`select name from events where resource_type = 'task' and resource_id = ${taskId} order by id`;
    expect(events.map((e) => e.name)).toContain('task_completed');
  });

  it('a call with meta.complete on a task already completed is stored, and the task stays as it was', async () => {
    const taskId = await task();
    expect((await api.request('POST', `/api/v2/tasks/${taskId}/actions/markComplete?actionParams[completionNote]=First`)).status).toBe(200);
    const before = (await api.request('GET', `/api/v2/tasks/${taskId}`)).body.data.attributes;
    const call = await api.request('POST', '/api/v2/calls', {
      body: {
        data: {
          type: 'call',
          attributes: { direction: 'outbound', outcome: 'completed' },
          relationships: { task: { data: { type: 'task', id: taskId }, meta: { complete: true } } },
        },
      },
    });
    expect(call.status, JSON.stringify(call.body)).toBe(201);
    expect((await api.request('GET', `/api/v2/tasks/${taskId}`)).body.data.attributes).toEqual(before);
  });
});
