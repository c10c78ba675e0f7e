import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../runtime/worker.js';
import { MEDIA_TYPE, startTestApi, type TestApi } from '../helpers/api.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';
import { assertJsonApiDocument } from '../helpers/jsonapi.js';
import { until } from '../helpers/wait.js';

/**
 * CSV uploads over HTTP (SPEC.md "CSV import" steps 1-3): generateUploadLink, the PUT to its
 * presigned URL, and validateUpload, against real PostgreSQL where the file is kept in chunks.
 * The two actions answer resources without an id (SPEC.md "Upload and validation results"),
 * which JSON:API 1.0's schema does not allow, so they are fetched here without the helper's
 * document check; error documents are still checked against it.
 */

let now = Date.parse('2026-11-21T12:00:00.000Z');
const clock = () => new Date(now);
const HOUR = 3600 * 1000;

let api: TestApi;
const processes: RunningCadence[] = [];

beforeAll(async () => {
  api = await startTestApi({ clock });
});
afterAll(async () => {
  for (const p of processes) p.kill();
  await api?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  if (text === '') return { status: response.status, headers: response.headers, body: null, text };
  expect(response.headers.get('content-type')).toBe(MEDIA_TYPE);
  const body = JSON.parse(text);
  if (body.errors) assertJsonApiDocument(body);
  return { status: response.status, headers: response.headers, body, text };
}

async function action(name: string, options: { query?: string; token?: string; base?: string; body?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? api.org.token}` };
  if (options.body !== undefined) headers['content-type'] = MEDIA_TYPE;
  const url = `${options.base ?? api.baseUrl}/api/v2/imports/actions/${name}${options.query ? `?${options.query}` : ''}`;
  return answerOf(await fetch(url, { method: 'POST', headers, ...(options.body !== undefined && { body: options.body }) }));
}

interface Link {
  uploadUrl: string;
  storageKey: string;
  uploadHeaders: Record<string, string>;
}

async function generateLink(token?: string, base?: string): Promise<Link> {
  const response = await action('generateUploadLink', { ...(token && { token }), ...(base && { base }) });
  expect(response.status).toBe(200);
  return response.body.data.attributes as Link;
}

type Body = string | Buffer | ReadableStream<Uint8Array>;

async function put(url: string, body: Body, headers: Record<string, string> = { 'content-type': 'text/csv' }): Promise<Answer> {
  const streamed = body instanceof ReadableStream;
  return answerOf(await fetch(url, { method: 'PUT', headers, body, ...(streamed && { duplex: 'half' }) } as RequestInit));
}

const sha512 = (bytes: string | Buffer) => createHash('sha512').update(bytes).digest('hex');

function validate(storageKey: string, hash: string, token?: string, base?: string): Promise<Answer> {
  return action('validateUpload', { query: `actionParams[storageKey]=${storageKey}&actionParams[hash]=${hash}`, ...(token && { token }), ...(base && { base }) });
}

/** Steps 1 and 2: a link, and the file PUT through it. */
async function uploaded(file: string | Buffer, token?: string): Promise<{ storageKey: string; hash: string }> {
  const link = await generateLink(token);
  const response = await put(link.uploadUrl, file);
  expect(response.status, response.text).toBe(200);
  return { storageKey: link.storageKey, hash: sha512(file) };
}

/** The body sent in pieces with Transfer-Encoding: chunked (no Content-Length). */
function streamOf(bytes: Buffer, piece = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + piece)));
      offset += piece;
    },
  });
}

function error(response: Answer) {
  return { status: response.status, errors: response.body?.errors };
}

async function uploadRow(storageKey: string) {
  const [row] = await api.sql`select state, byte_size::int as "byteSize", sha512, record_count as "recordCount" from uploads where storage_key = ${storageKey}`;
  return row;
}

async function chunkSizes(storageKey: string): Promise<number[]> {
  const rows = await api.sql<{ n: number }[]>`select length(bytes) as n from upload_chunks where storage_key = ${storageKey} order by seq`;
  return rows.map((r) => r.n);
}

describe('the three steps', () => {
  it('gives a link, takes the file through it, and validates it: headers with the first row, the record count as a string', async () => {
    const generated = await action('generateUploadLink');
    expect(generated.status).toBe(200);
    const { uploadUrl, storageKey } = generated.body.data.attributes;
    expect(storageKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(generated.body).toEqual({ data: { type: 'upload', attributes: { uploadUrl, storageKey, uploadHeaders: { 'Content-Type': 'text/csv' } } } });
    const expires = Math.floor(now / 1000) + 3600;
    expect(uploadUrl).toMatch(new RegExp(`^${api.baseUrl}/uploads/${storageKey}\\?org=${api.org.orgId}&expires=${expires}&signature=[A-Za-z0-9_-]{43}$`));

    const file = 'First Name,Last Name,Email,Title\nAda,Lovelace,ada@example.com,"Analyst, Engines"\nGrace,Hopper,grace@example.com,Admiral\n';
    const stored = await put(uploadUrl, file);
    expect(stored.status).toBe(200);
    expect(stored.text).toBe('');
    expect(stored.headers.get('etag')).toBe(`"${sha512(file)}"`);
    expect(await uploadRow(storageKey)).toEqual({ state: 'uploaded', byteSize: Buffer.byteLength(file), sha512: sha512(file), recordCount: null });

    const validated = await validate(storageKey, sha512(file));
    expect(validated.status).toBe(200);
    expect(validated.body).toEqual({
      data: {
        type: 'validateUpload',
        attributes: {
          headerValue: [
            { header: 'First Name', value: 'Ada' },
            { header: 'Last Name', value: 'Lovelace' },
            { header: 'Email', value: 'ada@example.com' },
            { header: 'Title', value: 'Analyst, Engines' },
          ],
          recordCount: '2',
        },
      },
    });
    expect((await uploadRow(storageKey))!.state).toBe('validated');
    // Validating again gives the same answer; the hash may be given in capitals.
    expect((await validate(storageKey, sha512(file).toUpperCase())).text).toBe(validated.text);
  });

  it('reads UTF-8 with a BOM, CRLF line ends, quoted fields with commas, newlines and quotes; blank lines are not records', async () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Name,Note,City\r\n"Zoë ""Z"" Ñ","line one\r\nline two, still",Zürich\r\n\r\nB,,Bern\r\n')]);
    const { storageKey, hash } = await uploaded(file);
    const validated = await validate(storageKey, hash);
    expect(validated.body.data.attributes).toEqual({
      headerValue: [
        { header: 'Name', value: 'Zoë "Z" Ñ' },
        { header: 'Note', value: 'line one\r\nline two, still' },
        { header: 'City', value: 'Zürich' },
      ],
      recordCount: '2',
    });
  });

  it('a file with only a header row has no records, and empty values', async () => {
    const { storageKey, hash } = await uploaded('email,firstName');
    expect((await validate(storageKey, hash)).body.data.attributes).toEqual({
      headerValue: [
        { header: 'email', value: '' },
        { header: 'firstName', value: '' },
      ],
      recordCount: '0',
    });
  });

  it('rows shorter or longer than the header are counted (an import fails them alone); the values shown are those of the first whole row', async () => {
    const { storageKey, hash } = await uploaded('a,b,c\n1\n2,3,4,5\n6,7,8\n');
    expect((await validate(storageKey, hash)).body.data.attributes).toEqual({
      headerValue: [
        { header: 'a', value: '6' },
        { header: 'b', value: '7' },
        { header: 'c', value: '8' },
      ],
      recordCount: '3',
    });
  });

  it('streams a 5 MiB file sent chunked into 1 MiB chunks, with its hash, and counts its rows', async () => {
    const rows = ['id,email,firstName,lastName,note'];
    for (let i = 0, size = 0; size < 5 * 1024 * 1024 + 1000; i++) {
      rows.push(`${i},person${i}@example.com,First${i},Last${i},"a note, with a comma ${i}"`);
      size += rows[rows.length - 1]!.length + 1;
    }
    const file = Buffer.from(`${rows.join('\n')}\n`);
    const link = await generateLink();
    const stored = await put(link.uploadUrl, streamOf(file));
    expect(stored.status, stored.text).toBe(200);
    expect(stored.headers.get('etag')).toBe(`"${sha512(file)}"`);
    const mib = 1024 * 1024;
    expect(await chunkSizes(link.storageKey)).toEqual([mib, mib, mib, mib, mib, file.length - 5 * mib]);
    const validated = await validate(link.storageKey, sha512(file));
    expect(validated.status).toBe(200);
    expect(validated.body.data.attributes.recordCount).toBe(String(rows.length - 1));
    expect(validated.body.data.attributes.headerValue[1]).toEqual({ header: 'email', value: 'person0@example.com' });
  });

  it('keeps uploads in tenant tables under row-level security', async () => {
    const tables = await api.sql`
      select relname, relrowsecurity, relforcerowsecurity from pg_class where relname in ('uploads', 'upload_chunks') and relkind = 'r' order by relname`;
    expect(tables).toEqual([
      { relname: 'upload_chunks', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'uploads', relrowsecurity: true, relforcerowsecurity: true },
    ]);
  });
});

describe('validateUpload refuses', () => {
  it('a hash that is not the file’s: 422 hashMismatch', async () => {
    const { storageKey } = await uploaded('a,b\n1,2\n');
    const wrong = sha512('a,b\n1,3\n');
    expect(error(await validate(storageKey, wrong))).toEqual({
      status: 422,
      errors: [
        {
          id: 'hashMismatch',
          status: '422',
          title: 'Unprocessable Entity',
          detail: `The uploaded file's SHA-512 is not ${wrong}: the file was changed or cut short on the way`,
        },
      ],
    });
    expect((await uploadRow(storageKey))!.state).toBe('uploaded');
  });

  it('an unknown storage key, another org’s, and one not uploaded yet: 422 uploadNotFound', async () => {
    const hash = sha512('x');
    const unknown = '3f1c1f4e-9d7a-4c39-8a55-0d8f3a1e2b7c';
    expect(error(await validate(unknown, hash))).toEqual({
      status: 422,
      errors: [{ id: 'uploadNotFound', status: '422', title: 'Unprocessable Entity', detail: `This organisation has no upload with storageKey ${unknown}` }],
    });
    const other = await api.newOrg('Another org');
    const theirs = await uploaded('a\n1\n', other.token);
    expect(error(await validate(theirs.storageKey, theirs.hash)).errors[0]).toMatchObject({
      id: 'uploadNotFound',
      detail: `This organisation has no upload with storageKey ${theirs.storageKey}`,
    });
    expect((await validate(theirs.storageKey, theirs.hash, other.token)).status).toBe(200);
    const waiting = await generateLink();
    expect(error(await validate(waiting.storageKey, hash)).errors[0]).toMatchObject({
      id: 'uploadNotFound',
      detail: `Nothing has been uploaded with storageKey ${waiting.storageKey} yet: PUT the file to its uploadUrl first, and wait for its answer`,
    });
  });

  it('a file that is not CSV: 422 invalidCsv saying why', async () => {
    const cases: [string, string | Buffer, string][] = [
      [
        'invalid UTF-8',
        Buffer.concat([Buffer.from('name\nJos'), Buffer.from([0xe9]), Buffer.from('\n')]),
        'The file is not UTF-8 text: an invalid byte sequence ends within its first 10 bytes',
      ],
      ['a NUL byte', 'name,note\nA,b\u0000c\n', 'The file contains NUL bytes; a CSV file is text'],
      ['an unclosed quote', 'name,note\nA,"never closed\nB,c\n', 'A quote opened on line 2 is never closed'],
      ['an empty file', '', 'The file is empty: a CSV file starts with a header row'],
      ['a duplicate header', 'email,name,email\n', 'The header row names "email" more than once'],
      ['an empty header', 'email,,name\n', 'Column 2 of the header row has no name'],
    ];
    for (const [what, file, detail] of cases) {
      const { storageKey, hash } = await uploaded(file);
      expect(error(await validate(storageKey, hash)), what).toEqual({
        status: 422,
        errors: [{ id: 'invalidCsv', status: '422', title: 'Unprocessable Entity', detail }],
      });
      expect((await uploadRow(storageKey))!.state, what).toBe('uploaded');
    }
  });

  it('a file past the limits: 422 invalidCsv saying which limit, once the file has passed it', async () => {
    const mib = 1024 * 1024;
    const wideHeader = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',');
    // Its columns are counted up to the 1 MiB a record may take.
    const columnsInFirstMib = wideHeader.slice(0, mib).split(',').length - 1;
    const cases: [string, string, string][] = [
      ['a one-row file with a 2 MiB field', `name\n${'x'.repeat(2 * mib)}\n`, 'The row starting on line 2 is over 1 MiB, the most a record may take'],
      [
        'an unclosed quote followed by 10 MB',
        `name,note\nA,"never closed\n${'y'.repeat(10_000_000)}\n`,
        'A quote opened on line 2 is not closed within 1 MiB, the most a record may take',
      ],
      ['a header of 1,000,000 columns', `${wideHeader}\n1\n`, `The header row has over ${columnsInFirstMib} columns; at most 1000 are allowed`],
      ['a header of 1,001 columns', `${wideHeader.split(',', 1001).join(',')}\n`, 'The header row has 1001 columns; at most 1000 are allowed'],
    ];
    for (const [what, file, detail] of cases) {
      const { storageKey, hash } = await uploaded(file);
      expect(error(await validate(storageKey, hash)), what).toEqual({
        status: 422,
        errors: [{ id: 'invalidCsv', status: '422', title: 'Unprocessable Entity', detail }],
      });
    }
  });

  it('missing, unknown and malformed parameters: 400 naming the parameter', async () => {
    const key = '3f1c1f4e-9d7a-4c39-8a55-0d8f3a1e2b7c';
    const hash = sha512('x');
    const cases: [string, string, string][] = [
      [`actionParams[storageKey]=${key}`, 'actionParams[hash]', 'actionParams[hash] is required'],
      [`actionParams[hash]=${hash}`, 'actionParams[storageKey]', 'actionParams[storageKey] is required'],
      [
        `actionParams[storageKey]=${key}&actionParams[hash]=${hash}&actionParams[size]=1`,
        'actionParams[size]',
        'size is not a parameter of this action (it takes hash, storageKey)',
      ],
      [
        `actionParams[storageKey]=not-a-uuid&actionParams[hash]=${hash}`,
        'actionParams[storageKey]',
        'actionParams[storageKey] must be the storageKey generateUploadLink gave, a UUID',
      ],
      [
        `actionParams[storageKey]=${key}&actionParams[hash]=${hash.slice(1)}`,
        'actionParams[hash]',
        'actionParams[hash] must be the SHA-512 of the file, as 128 hexadecimal digits',
      ],
      [
        `actionParams[storageKey]=${key}&actionParams[hash]=${hash.slice(1)}g`,
        'actionParams[hash]',
        'actionParams[hash] must be the SHA-512 of the file, as 128 hexadecimal digits',
      ],
    ];
    for (const [query, parameter, detail] of cases) {
      expect(error(await action('validateUpload', { query })), query).toEqual({
        status: 400,
        errors: [{ id: 'invalidQueryParameter', status: '400', title: 'Bad Request', detail, source: { parameter } }],
      });
    }
  });
});

describe('generateUploadLink', () => {
  it('takes no parameters (400 naming one given) and ignores a body', async () => {
    expect(error(await action('generateUploadLink', { query: 'actionParams[fileName]=a.csv' })).errors).toEqual([
      {
        id: 'invalidQueryParameter',
        status: '400',
        title: 'Bad Request',
        detail: 'fileName is not a parameter of this action',
        source: { parameter: 'actionParams[fileName]' },
      },
    ]);
    const withBody = await action('generateUploadLink', { body: JSON.stringify({ data: { attributes: { fileName: 'a.csv' } } }) });
    expect(withBody.status).toBe(200);
    expect(withBody.body.data.type).toBe('upload');
  });

  it('needs imports.write; validateUpload needs imports.write and imports.read', async () => {
    const reader = await api.newUserToken(api.org.orgId, ['imports.read']);
    const writer = await api.newUserToken(api.org.orgId, ['imports.write']);
    const both = await api.newUserToken(api.org.orgId, ['imports.read', 'imports.write']);
    expect(error(await action('generateUploadLink', { token: reader })).errors[0]).toMatchObject({
      id: 'insufficientScope',
      detail: 'This request needs the scope imports.write (or imports.all)',
    });
    const { storageKey, hash } = await uploaded('a\n1\n', writer);
    expect(error(await validate(storageKey, hash, writer)).errors[0]).toMatchObject({
      id: 'insufficientScope',
      detail: 'This request needs the scope imports.read (or imports.all)',
    });
    expect(error(await validate(storageKey, hash, reader)).errors[0]).toMatchObject({
      id: 'insufficientScope',
      detail: 'This request needs the scope imports.write (or imports.all)',
    });
    expect((await validate(storageKey, hash, both)).status).toBe(200);
  });
});

describe('the upload URL', () => {
  const refused = (id: string, detail: string) => ({ status: 403, errors: [{ id, status: '403', title: 'Forbidden', detail }] });
  const forged = refused('invalidSignature', 'This upload URL is not one Cadence signed, or it was altered');

  it('is refused when forged or altered, whatever part was changed', async () => {
    const link = await generateLink();
    const url = new URL(link.uploadUrl);
    const signature = url.searchParams.get('signature')!;
    const altered = (name: string, value: string | null) => {
      const copy = new URL(url);
      if (value === null) copy.searchParams.delete(name);
      else copy.searchParams.set(name, value);
      return copy.toString();
    };
    const other = await generateLink();
    const cases = [
      altered('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`),
      altered('signature', null),
      altered('expires', String(Number(url.searchParams.get('expires')) + 3600)),
      altered('org', String(api.org.orgId + 1)),
      link.uploadUrl.replace(link.storageKey, other.storageKey),
      link.uploadUrl.replace(link.storageKey, 'not-a-key'),
    ];
    for (const target of cases) expect(error(await put(target, 'a\n1\n')), target).toEqual(forged);
    // None of them used the link.
    expect((await put(link.uploadUrl, 'a\n1\n')).status).toBe(200);
  });

  it('expires after an hour', async () => {
    const link = await generateLink();
    now += HOUR;
    expect(error(await put(link.uploadUrl, 'a\n1\n'))).toEqual(refused('uploadUrlExpired', 'This upload URL has expired; ask generateUploadLink for a new one'));
  });

  it('works once: a second PUT, or two at once, get 409 uploadUrlUsed', async () => {
    const used = { status: 409, errors: [{ id: 'uploadUrlUsed', status: '409', title: 'Conflict', detail: 'This upload URL has been used; it works once' }] };
    const link = await generateLink();
    expect((await put(link.uploadUrl, 'a\nfirst\n')).status).toBe(200);
    expect(error(await put(link.uploadUrl, 'a\nsecond\n'))).toEqual(used);
    const { storageKey } = link;
    expect((await validate(storageKey, sha512('a\nfirst\n'))).body.data.attributes.headerValue).toEqual([{ header: 'a', value: 'first' }]);

    const racing = await generateLink();
    const answers = await Promise.all([put(racing.uploadUrl, streamOf(Buffer.from('a\none\n'), 2)), put(racing.uploadUrl, streamOf(Buffer.from('a\ntwo\n'), 2))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await chunkSizes(racing.storageKey)).toEqual([6]);
  });

  it('needs Content-Type: text/csv (charset=utf-8 allowed): 415 otherwise, and the link stays usable', async () => {
    const link = await generateLink();
    const cases: [Record<string, string>, string][] = [
      [{}, 'An upload must be sent with Content-Type: text/csv'],
      [{ 'content-type': 'text/plain' }, 'An upload must be sent with Content-Type: text/csv, not text/plain'],
      [{ 'content-type': 'text/csv; charset=latin1' }, 'text/csv may carry only charset=utf-8, not charset=latin1'],
    ];
    for (const [headers, detail] of cases) {
      const body = Buffer.from('a\n1\n');
      expect(error(await put(link.uploadUrl, body, headers)), detail).toEqual({
        status: 415,
        errors: [{ id: 'unsupportedMediaType', status: '415', title: 'Unsupported Media Type', detail }],
      });
    }
    expect((await put(link.uploadUrl, 'a\n1\n', { 'content-type': 'Text/CSV; charset="UTF-8"' })).status).toBe(200);
  });
});

describe('the size limit', () => {
  let small: TestApi;
  beforeAll(async () => {
    small = await startTestApi({ clock, uploadMaxBytes: 1000, publicBaseUrl: 'https://cadence.example.test' });
  });
  afterAll(async () => {
    await small?.close();
  });

  async function smallLink(): Promise<Link & { target: string }> {
    const response = await action('generateUploadLink', { base: small.baseUrl, token: small.org.token });
    const link = response.body.data.attributes as Link;
    // The link names PUBLIC_BASE_URL; the test reaches the same server by its own address.
    expect(link.uploadUrl.startsWith(`https://cadence.example.test/uploads/${link.storageKey}?`)).toBe(true);
    return { ...link, target: link.uploadUrl.replace('https://cadence.example.test', small.baseUrl) };
  }
  const tooLarge = { status: 413, errors: [{ id: 'requestTooLarge', status: '413', title: 'Payload Too Large', detail: 'The request body is larger than 1000 bytes' }] };

  it('refuses a Content-Length above UPLOAD_MAX_BYTES before reading, and a chunked body once past it; nothing is kept', async () => {
    const link = await smallLink();
    const withLength = await put(link.target, Buffer.alloc(1001, 'a'));
    expect(error(withLength)).toEqual(tooLarge);
    expect(withLength.headers.get('connection')).toBe('close');
    expect(error(await put(link.target, streamOf(Buffer.alloc(5000, 'a'), 100)))).toEqual(tooLarge);
    const [{ n }] = (await small.sql`select count(*)::int as n from upload_chunks`) as unknown as [{ n: number }];
    expect(n).toBe(0);
    // Refused uploads leave the link unused; exactly the limit is allowed.
    const file = Buffer.concat([Buffer.from('a\n'), Buffer.alloc(998, 'b')]);
    expect((await put(link.target, streamOf(file, 100))).status).toBe(200);
    const validated = await action('validateUpload', {
      base: small.baseUrl,
      token: small.org.token,
      query: `actionParams[storageKey]=${link.storageKey}&actionParams[hash]=${sha512(file)}`,
    });
    expect(validated.body.data.attributes).toEqual({ headerValue: [{ header: 'a', value: 'b'.repeat(998) }], recordCount: '1' });
  });
});

describe('several API processes', () => {
  it('a link from one process, the PUT to a second, validateUpload at the first', async () => {
    // The second process runs on the real clock: so does the test's, from here on.
    now = Date.now();
    const server = startCadence(api.databaseUrl, ['serve'], { PORT: '0', CADENCE_IN_PROCESS_WORKER: 'false', LOG_LEVEL: 'info' });
    processes.push(server);
    const url = JSON.parse(await server.waitForLine(/cadence is serving/)).url as string;
    const link = await generateLink();
    const file = 'email,name\nada@example.com,Ada\n';
    const stored = await put(link.uploadUrl.replace(api.baseUrl, url), file);
    expect(stored.status, stored.text).toBe(200);
    expect((await validate(link.storageKey, sha512(file))).body.data.attributes).toEqual({
      headerValue: [
        { header: 'email', value: 'ada@example.com' },
        { header: 'name', value: 'Ada' },
      ],
      recordCount: '1',
    });
    // And the other way round: the second process validates what the first stored.
    const again = await uploaded(file);
    expect((await validate(again.storageKey, again.hash, undefined, url)).status).toBe(200);
    expect((await server.stop()).code).toBe(0);
  }, 120_000);
});

describe('retention', () => {
  it('purges uploads created more than a day ago, with their chunks, daily', async () => {
    const old = await uploaded('a\nold\n');
    const unused = await generateLink();
    now += 23 * HOUR;
    const young = await uploaded('a\nyoung\n');
    now += 2 * HOUR;
    const worker = await startWorker({
      databaseUrl: api.databaseUrl,
      concurrency: 1,
      log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      clock,
      delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    });
    try {
      await api.sql`select graphile_worker.add_job('purge_uploads')`;
      await until('the old upload to be purged', async () => ((await uploadRow(old.storageKey)) === undefined ? true : undefined));
      expect(await uploadRow(unused.storageKey)).toBeUndefined();
      expect(await chunkSizes(old.storageKey)).toEqual([]);
      expect((await validate(old.storageKey, old.hash)).body.errors[0].id).toBe('uploadNotFound');
      expect((await validate(young.storageKey, young.hash)).status).toBe(200);
      const [row] = await api.sql`select count(*)::int as n from graphile_worker._private_known_crontabs where identifier = 'purge_uploads'`;
      expect(row!.n).toBe(1);
    } finally {
      await worker.stop();
    }
  });
});

describe('uploads hold no database connection while the client sends', () => {
  it('with more slow uploads under way than pool connections, other requests are answered; each upload then completes', async () => {
    const narrow = await startTestApi({ poolSize: 2 });
    try {
      const links = await Promise.all(
        [1, 2, 3].map(async () => (await action('generateUploadLink', { base: narrow.baseUrl, token: narrow.org.token })).body.data.attributes as Link),
      );
      // Each body sends 1.5 MiB (one chunk stored), then waits for the test's word to send the rest.
      const file = Buffer.concat([Buffer.from('a,b\n'), Buffer.alloc(2 * 1024 * 1024, 'x'), Buffer.from('\n')]);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const held = (bytes: Buffer): ReadableStream<Uint8Array> => {
        let offset = 0;
        return new ReadableStream({
          async pull(controller) {
            if (offset >= bytes.length) return controller.close();
            if (offset >= 1.5 * 1024 * 1024) await released;
            controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + 256 * 1024)));
            offset += 256 * 1024;
          },
        });
      };
      const uploads = links.map((link) => put(link.uploadUrl, held(file)));
      await until('a chunk of each upload stored', async () => {
        const [{ n }] = (await narrow.sql`select count(distinct storage_key)::int as n from upload_chunks`) as unknown as [{ n: number }];
        return n === 3 ? true : undefined;
      });
      const listed = await narrow.request('GET', '/api/v2/prospects');
      expect(listed.status).toBe(200);
      release();
      expect((await Promise.all(uploads)).map((u) => u.status)).toEqual([200, 200, 200]);
    } finally {
      await narrow.close();
    }
  });

  it('a client that breaks off mid-upload leaves no chunks, and the link can be used again', async () => {
    const link = await generateLink();
    const bytes = Buffer.alloc(3 * 1024 * 1024, 'y');
    const aborted = new AbortController();
    let sent = 0;
    // Sends 2.5 MiB, then nothing more until the test breaks the request off.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 2.5 * 1024 * 1024) return new Promise<void>(() => undefined);
        controller.enqueue(new Uint8Array(bytes.subarray(sent, sent + 256 * 1024)));
        sent += 256 * 1024;
      },
    });
    const sending = fetch(link.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body, duplex: 'half', signal: aborted.signal } as RequestInit);
    await until('two chunks stored', async () => ((await chunkSizes(link.storageKey)).length === 2 ? true : undefined));
    aborted.abort();
    await expect(sending).rejects.toThrow();
    await until('the broken-off upload cleaned up', async () => ((await uploadRow(link.storageKey))!.state === 'awaiting' ? true : undefined));
    expect(await chunkSizes(link.storageKey)).toEqual([]);
    const file = 'email\nagain@example.test\n';
    expect((await put(link.uploadUrl, file)).status).toBe(200);
    expect((await validate(link.storageKey, sha512(file))).body.data.attributes.recordCount).toBe('1');
  });
});
