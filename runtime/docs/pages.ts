/**
 * The two HTML pages for people: the start page at / and the API reference at /docs. Both are
 * fixed text: nothing from a request goes into them, so there is nothing to escape. Their icon
 * is empty (data:), so a browser asks for no /favicon.ico.
 */

const STYLE = `body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; color: #1d2433; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; }
pre { background: #f3f4f7; padding: .75rem; overflow-x: auto; font-size: .85rem; }
code { font-size: .9em; }
li { margin: .25rem 0; }`;

/** What Cadence is, where its machine-readable descriptions are, and the README's first steps. */
export function startPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Cadence</title>
<style>
${STYLE}
</style>
</head>
<body>
<h1>Cadence</h1>
<p>A self-hostable, multi-tenant sales-engagement API. It speaks JSON:API 1.0 under <code>/api/v2</code>
(media type <code>application/vnd.api+json</code>) and serves prospects, accounts, sequences, tasks, calls,
mailings, users, webhooks, events and more.</p>
<h2>Where to look</h2>
<ul>
<li><a href="/docs">API reference</a>: every resource, operation, parameter and body, rendered from the OpenAPI document.</li>
<li><a href="/api/v2/schema/openapi.json">OpenAPI 3.1 document</a>: for client generators; with a token it includes your organisation's custom objects.</li>
<li><a href="/api/v2/schema">JSON hyper-schema</a> of every resource.</li>
<li><a href="/healthz">/healthz</a>: the process answers. <a href="/readyz">/readyz</a>: it can serve (the database answers and is migrated).</li>
</ul>
<h2>First steps</h2>
<p>On the server, make an organisation: it comes with an admin user and a token holding every scope.</p>
<pre>npx cadence org create --name "Acme"
# {"orgId":1,"userId":1,"token":"cad_…","expiresAt":"…"}</pre>
<p>Tokens for other users, with fewer scopes (<code>&lt;collection&gt;.read</code>, <code>.write</code>, <code>.delete</code>, <code>.all</code>):</p>
<pre>npx cadence user create --org 1 --email rep@acme.test
npx cadence token create --org 1 --user 2 --scopes prospects.read,accounts.write</pre>
<p>Then a first request, with the token as a bearer:</p>
<pre>curl -s -X POST http://127.0.0.1:3000/api/v2/prospects \\
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/vnd.api+json' \\
  -d '{"data":{"type":"prospect","attributes":{"firstName":"Ada","lastName":"Lovelace"}}}'
curl -s -g 'http://127.0.0.1:3000/api/v2/prospects?page[size]=10' -H "Authorization: Bearer $TOKEN"</pre>
<p>The README in the repository says more: applications and OAuth, webhooks, imports, sequences, e-mail and configuration.</p>
</body>
</html>
`;
}

/**
 * The reference page: the renderer's bundle and the script that starts it, both from this
 * server (script-src 'self' allows no inline script). The noscript text says where the
 * document is for a reader without JavaScript. The element is not named api-reference: the
 * bundle mounts a second reference, with its defaults (fonts from Scalar's host), on that id.
 */
export function referencePage(paths: { readonly bundle: string; readonly start: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>API reference · Cadence</title>
</head>
<body>
<noscript><p>The reference needs JavaScript. The OpenAPI document it renders is at <a href="/api/v2/schema/openapi.json">/api/v2/schema/openapi.json</a>.</p></noscript>
<div id="reference"></div>
<script src="${paths.bundle}"></script>
<script src="${paths.start}"></script>
</body>
</html>
`;
}

/**
 * Starts Scalar on the served document. Everything that would call a host other than this one
 * is off: its fonts (the system's are used), the AI agent and its registry, telemetry, the
 * developer toolbar and the separate API client, which offers a proxy of Scalar's.
 */
export function startScript(documentUrl: string): string {
  const configuration = {
    url: documentUrl,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    hideClientButton: true,
    showDeveloperTools: 'never',
  };
  return `Scalar.createApiReference('#reference', ${JSON.stringify(configuration)});\n`;
}
