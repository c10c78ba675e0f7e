// The pages for people: a start page at / and the API reference at /docs (issue #28).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Hono, type Context } from 'hono';
import type { ApiEnv } from '../engine/index.js';
import { referencePage, startPage, startScript } from './pages.js';

/** The document the reference renders: the standard resources, as served without a token. */
export const OPENAPI_DOCUMENT_PATH = '/api/v2/schema/openapi.json';

/** Inline styles and the empty icon only: the start page loads nothing. */
const START_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'";

/**
 * Everything from this server: the renderer sets styles inline and shows small images and
 * fonts as data: URLs. No other host is named, so a browser refuses any call the bundle
 * might still try to make elsewhere.
 */
const REFERENCE_PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** An asset's URL names its content, so a browser may keep it as long as it likes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  readonly path: string;
  readonly body: Uint8Array<ArrayBuffer>;
}

function assetOf(name: string, body: Uint8Array<ArrayBuffer>): Asset {
  const digest = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { path: `/docs/assets/${name}.${digest}.js`, body };
}

/** Scalar's standalone browser bundle, from the installed package (no CDN). */
function rendererBundle(): Asset {
  const file = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
  return assetOf('api-reference', new Uint8Array(readFileSync(file)));
}

function html(c: Context<ApiEnv>, body: string, policy: string): Response {
  c.header('Content-Security-Policy', policy);
  c.header('X-Content-Type-Options', 'nosniff');
  return c.body(body, 200, { 'Content-Type': 'text/html; charset=utf-8' });
}

/** GET / and /docs, and the reference's two scripts; anything else under /docs is left to the 404. */
export function docsRoutes(): Hono<ApiEnv> {
  const bundle = rendererBundle();
  const start = assetOf('start', new TextEncoder().encode(startScript(OPENAPI_DOCUMENT_PATH)));
  const routes = new Hono<ApiEnv>();
  const startPageHtml = startPage();
  const referencePageHtml = referencePage({ bundle: bundle.path, start: start.path });
  routes.get('/', (c) => html(c, startPageHtml, START_PAGE_POLICY));
  routes.get('/docs', (c) => html(c, referencePageHtml, REFERENCE_PAGE_POLICY));
  for (const asset of [bundle, start]) {
    routes.get(asset.path, (c) =>
      c.body(asset.body, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': IMMUTABLE, 'X-Content-Type-Options': 'nosniff' }),
    );
  }
  return routes;
}
