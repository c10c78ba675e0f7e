import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { CHROMIUM_ARGS, ensureChromium } from '../helpers/chromium.js';

/**
 * The pages for people (issue #28): the start page at /, and the API reference at /docs, which
 * Scalar's bundle, served by Cadence itself, renders from the served OpenAPI document. The
 * reference is checked in headless Chromium, which must never ask any host but the server.
 */

let api: TestApi;
let browser: Browser;
let screenshots: string;

const HTML = 'text/html; charset=utf-8';
/** The renderer parses 1.8 MB of OpenAPI; on a loaded two-core machine that takes a while. */
const RENDER_TIMEOUT_MS = 240_000;

beforeAll(async () => {
  const executablePath = ensureChromium();
  api = await startTestApi();
  screenshots = await mkdtemp(join(tmpdir(), 'cadence-docs-'));
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  // Kept when CADENCE_KEEP_SCREENSHOTS is set, for a person to look at.
  if (screenshots && !process.env.CADENCE_KEEP_SCREENSHOTS) await rm(screenshots, { recursive: true, force: true });
});

async function get(path: string, method = 'GET'): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${api.baseUrl}${path}`, { method });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Served as application/json, not JSON:API, so fetched without api.request's checks. */
async function openApiDocument(): Promise<any> {
  return (await fetch(`${api.baseUrl}/api/v2/schema/openapi.json`)).json();
}

/** The two script URLs the reference page loads, in order: the renderer's bundle, then its start. */
function scriptsOf(page: string): string[] {
  return [...page.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]!);
}

describe('the start page', () => {
  it('says what Cadence is and links to the reference, the health checks and the OpenAPI document', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe(HTML);
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'");
    expect(page.text).toContain('<title>Cadence</title>');
    expect(page.text).toContain('multi-tenant sales-engagement API');
    const links = [...page.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual(['data:,', '/docs', '/api/v2/schema/openapi.json', '/api/v2/schema', '/healthz', '/readyz']);
    expect(page.text).toContain('npx cadence org create --name');
    expect(page.text).toContain('npx cadence token create');
    expect(page.text).toContain('curl -s -X POST http://127.0.0.1:3000/api/v2/prospects');
  });

  it('answers HEAD with the headers and no body', async () => {
    const head = await get('/', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(HTML);
    expect(head.text).toBe('');
  });
});

describe('the reference page', () => {
  it('is HTML that loads two scripts from this server, under a policy that allows no other host', async () => {
    const page = await get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe(HTML);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(page.text).toContain('<title>API reference · Cadence</title>');
    expect(page.text).toContain('href="/api/v2/schema/openapi.json"');
    expect(scriptsOf(page.text)).toEqual([
      expect.stringMatching(/^\/docs\/assets\/api-reference\.[0-9a-f]{16}\.js$/),
      expect.stringMatching(/^\/docs\/assets\/start\.[0-9a-f]{16}\.js$/),
    ]);
    const head = await get('/docs', 'HEAD');
    expect([head.status, head.headers.get('content-type'), head.text]).toEqual([200, HTML, '']);
  });

  it('serves the renderer from the installed package, and the start script, as JavaScript a browser keeps', async () => {
    const [bundlePath, startPath] = scriptsOf((await get('/docs')).text);
    const bundle = await get(bundlePath!);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const installed = await readFile(join(import.meta.dirname, '../../node_modules/@scalar/api-reference/dist/browser/standalone.js'), 'utf8');
    expect(bundle.text).toBe(installed);
    const start = await get(startPath!);
    expect([start.status, start.headers.get('content-type'), start.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    expect(start.text).toContain('"url":"/api/v2/schema/openapi.json"');
    expect(start.text).toContain('"agent":{"disabled":true}');
    const head = await get(bundlePath!, 'HEAD');
    expect([head.status, head.text]).toEqual([200, '']);
  });

  it('answers any other path under /docs with a JSON:API 404', async () => {
    for (const path of ['/docs/', '/docs/other', '/docs/assets/api-reference.0000000000000000.js', '/docs/assets/']) {
      const response = await api.request('GET', path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body.errors[0]).toMatchObject({ status: '404', id: 'resourceNotFound', title: expect.any(String), detail: `No route matches GET ${path}` });
    }
  });
});

describe('the OpenAPI examples', () => {
  it('gives every JSON:API create an example body, which its own schema accepts', async () => {
    const document = await openApiDocument();
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema(document, 'openapi');
    const creates = Object.values(document.paths as Record<string, Record<string, any>>)
      .map((item) => item.post)
      .filter((operation) => operation?.operationId.endsWith('.create') && operation.requestBody.content['application/vnd.api+json'].schema.$ref);
    expect(creates.length).toBeGreaterThan(30);
    for (const create of creates) {
      const { schema, example } = create.requestBody.content['application/vnd.api+json'];
      expect([create.operationId, example]).toEqual([create.operationId, expect.objectContaining({ data: expect.any(Object) })]);
      expect(create.requestBody.content['application/json'].example).toEqual(example);
      const valid = ajv.validate({ $ref: `openapi${schema.$ref}` }, example);
      expect([create.operationId, valid, ajv.errorsText()]).toEqual([create.operationId, true, 'No errors']);
    }
  });

  it("makes records when sent as they are: a prospect's and an account's from the schema's sample values", async () => {
    const document = await openApiDocument();
    for (const collection of ['prospects', 'accounts']) {
      const example = document.paths[`/api/v2/${collection}`].post.requestBody.content['application/vnd.api+json'].example;
      const created = await api.request('POST', `/api/v2/${collection}`, { body: example });
      expect(created.status).toBe(201);
      expect(created.body.data.attributes).toMatchObject(example.data.attributes);
    }
    const prospect = document.paths['/api/v2/prospects'].post.requestBody.content['application/vnd.api+json'].example;
    expect(prospect.data.attributes).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', emails: ['ada@example.com'] });
  });
});

describe('the reference in a browser', () => {
  it(
    'renders the prospects list operation from the served document, asking no other host',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const elsewhere: string[] = [];
      const failures: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(`${api.baseUrl}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
      });
      // A refused request or a policy violation shows as a console error.
      page.on('console', (message) => {
        if (message.type() === 'error') failures.push(message.text());
      });
      page.on('pageerror', (error) => failures.push(error.message));
      const started = performance.now();
      await page.goto(`${api.baseUrl}/docs#tag/prospect/GET/api/v2/prospects`);
      const heading = page.getByRole('heading', { name: 'List prospects' });
      await heading.first().waitFor({ timeout: RENDER_TIMEOUT_MS });
      const renderMs = Math.round(performance.now() - started);
      console.log(`docs: the prospects list rendered ${renderMs} ms after navigation`);
      await expect.poll(() => page.getByText('/api/v2/prospects').first().isVisible()).toBe(true);
      // The reference scrolls to the operation and paints the sections around it after the heading
      // is there; a screenshot taken in between is a nearly blank page (a CI run saw 5,289 bytes).
      // What a reader sees once it settles is a page of text, which no PNG holds in 20 KB.
      const screenshot = join(screenshots, 'docs.png');
      await expect.poll(async () => (await page.screenshot({ path: screenshot })).length, { timeout: 60_000 }).toBeGreaterThan(20_000);
      console.log(`docs: screenshot at ${screenshot}`);
      expect(elsewhere).toEqual([]);
      expect(failures).toEqual([]);
      const png = await readFile(screenshot);
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      await context.close();
    },
    RENDER_TIMEOUT_MS + 60_000,
  );
});
