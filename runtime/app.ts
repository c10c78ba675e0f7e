import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { descriptors, modules } from '../generated/resources/index.js';
import generatedSchema from '../generated/schema.json' with { type: 'json' };
import { appInstallRoutes } from './apps/index.js';
import { bearerAuthentication, bearerToken, lookupToken, TokenCache } from './auth/index.js';
import { allowanceOptions, isUpsertPath, mountBulkRoutes } from './bulk/index.js';
import { mountComplianceRequestRoute } from './compliance/index.js';
import { mountDefinitionRoutes } from './custom-objects/definitions-api.js';
import { docsRoutes } from './docs/index.js';
import { CustomObjectRegistry, mountCustomObjectRoutes } from './custom-objects/registry.js';
import { withCustomObjectsOpenApi } from './custom-objects/served-openapi.js';
import { withCustomObjects } from './custom-objects/served-schema.js';
import type { Config } from './config.js';
import { MIGRATIONS_DIR } from './db/migrate.js';
import { checkDeclaredActions } from './declared-actions.js';
import { createResourceEngine, type ApiEnv, type RecordWriter } from './engine/index.js';
import { mountResources, mountUnsupportedMethods } from './engine/routes.js';
import { healthRoutes } from './health/index.js';
import { defaultTransports, mailServerRule, mountMailRoutes, type MailServerRule, type TransportFactory } from './mail/index.js';
import { DEFAULT_UPLOAD_MAX_BYTES, mountImportRoutes, mountUploadRoute, type UploadOptions } from './imports/index.js';
import { imapFlowConnect, mountTestSyncRoute, type ImapConnect } from './mail/sync/index.js';
import { mountMailViewer } from './mail/viewer/index.js';
import { webhookCleanup } from './webhooks/cleanup.js';
import { isConnectionLoss } from './db/connection-loss.js';
import { ApiError, errorResponse, internalError, jsonApi, jsonApiMediaType, payloadTooLarge, resourceNotFound, serviceUnavailable } from './jsonapi/index.js';
import { oauthRoutes } from './oauth/index.js';
import { createTrackingSigner, loggablePath, trackingRoutes, type HitBuffer } from './mail/tracking/index.js';
import type { OpenApiDocument } from './openapi/index.js';
import { standardBehaviours } from './behaviours/index.js';
import { standardRecordWriter } from './behaviours/standard-writer.js';
import { requestRateLimit, type RequestRateLimiter } from './ratelimit/index.js';
import { mountSandboxClockRoutes, orgTimeOfRequest } from './sandbox/index.js';
import { orgTimeClock } from './tenancy/org-time.js';
import { httpMetrics, metricsEndpoint, trackingHitCounter, type Registry } from './metrics/index.js';

export interface AppDependencies {
  readonly sql: postgres.Sql;
  readonly config: Pick<Config, 'publicBaseUrl' | 'maxBodyBytes'> &
    Partial<
      Pick<Config, 'bulkAllowanceCapacity' | 'bulkAllowancePerDay' | 'uploadMaxBytes' | 'smtpUrl' | 'mailAllowedHosts' | 'countTimeBudgetMs' | 'metricsToken' | 'sandbox'>
    >;
  readonly log: Logger;
  readonly cursorSecret: string;
  /** Signs the tracking URLs in mail (loadTrackingSecret); the workers that render mail use the same. */
  readonly trackingSecret: string;
  /**
   * Where the tracking routes hold opens and clicks until they are appended (runtime/mail/tracking);
   * whoever builds it stops it when the server closes, after the last request, so that what it
   * holds is written.
   */
  readonly trackingHits: HitBuffer;
  readonly clock?: () => Date;
  /** The one write path; built from `clock` when not given. */
  readonly writer?: RecordWriter;
  /** Where testSend's messages go; by default the mailbox's SMTP server, else SMTP_URL, else local. */
  readonly mailTransports?: TransportFactory;
  /** The migrations /readyz expects applied; MIGRATIONS_DIR when unset. */
  readonly migrationsFolder?: string;
  /** How testSync connects to IMAP servers; imapflow, under `mailServers`, when not given. */
  readonly imapConnect?: ImapConnect;
  /** Where mailboxes' own mail servers may be; from config.mailAllowedHosts, resolved by getaddrinfo, when not given. */
  readonly mailServers?: MailServerRule;
  /**
   * Counts authenticated /api/v2 requests against their holders' hourly limits (runtime/ratelimit),
   * with the same clock as `clock`; none: no request rate limit (RATE_LIMIT_PER_HOUR=0). Whoever
   * builds it stops it when the server closes.
   */
  readonly rateLimiter?: RequestRateLimiter;
  /**
   * The process's metrics registry (runtime/metrics): requests are counted into it and GET /metrics
   * serves it, behind config.metricsToken when set. None: no /metrics.
   */
  readonly metrics?: Registry;
  /** True once the process is shutting down: /readyz then answers 503 at once (http/drain.ts). */
  readonly shuttingDown?: () => boolean;
}

/**
 * generated/openapi.json, read rather than imported: for a JSON import tsc infers a type of the
 * whole document, which costs seconds of every type check and grows with the schema.
 */
function generatedOpenApi(): OpenApiDocument {
  return JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;
}

/** A lost database connection: the client may try again in a second (the write may or may not have committed). */
const CONNECTION_LOST = new ApiError(
  503,
  serviceUnavailable('databaseUnavailable', 'The connection to the database was lost while this request ran; it was not completed, or its outcome is unknown. Try again.')
    .errors,
  { 'Retry-After': '1' },
);

/** Renders any error as JSON:API; only an unexpected one is logged with its stack. */
function renderError(error: Error, c: Context<ApiEnv>): Response {
  if (error instanceof ApiError) return errorResponse(c, error);
  if (isConnectionLoss(error)) {
    (c.get('log') ?? console).warn({ err: error }, 'database connection lost during the request');
    return errorResponse(c, CONNECTION_LOST);
  }
  const requestId = c.get('requestId') ?? 'unknown';
  (c.get('log') ?? console).error({ err: error }, 'unhandled error');
  return errorResponse(c, internalError(requestId));
}

export function createApp(deps: AppDependencies): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const realClock = deps.clock ?? (() => new Date());
  // Sandbox mode: an authenticated request runs in its org's time, which its test clock may have
  // moved ahead (runtime/sandbox/clock.ts); otherwise the clock is real time and nothing is read.
  const sandbox = deps.config.sandbox === true;
  const clock = sandbox ? orgTimeClock(realClock) : realClock;
  const writer = deps.writer ?? standardRecordWriter(clock);
  const engineOptions = {
    sql: deps.sql,
    behaviours: standardBehaviours,
    publicBaseUrl: deps.config.publicBaseUrl,
    cursorSecret: deps.cursorSecret,
    clock,
    writer,
    countTimeBudgetMs: deps.config.countTimeBudgetMs,
  };
  const engine = createResourceEngine({ ...engineOptions, descriptors });
  // Custom objects: the same engine, with descriptors built from each org's definitions.
  const customObjects = new CustomObjectRegistry(deps.sql, descriptors, engineOptions);
  const servedOpenApi = generatedOpenApi();
  // The document without custom objects is the same for every caller: serialised once.
  const servedOpenApiText = JSON.stringify(servedOpenApi);

  // First of all, so that every request is counted; /metrics, like health, ahead of the request log.
  if (deps.metrics) {
    app.use('*', httpMetrics(deps.metrics));
    app.get('/metrics', metricsEndpoint({ registry: deps.metrics, token: deps.config.metricsToken }));
  }

  // Mounted ahead of the request log: balancers ask every few seconds, and each answer is alike.
  app.route(
    '/',
    healthRoutes({
      sql: deps.sql,
      migrationsFolder: deps.migrationsFolder ?? MIGRATIONS_DIR,
      log: deps.log,
      ...(deps.shuttingDown && { shuttingDown: deps.shuttingDown }),
    }),
  );

  app.use('*', async function requestContext(c, next) {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    const log = deps.log.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    // Set before the handler: a header added to a finished response makes Hono rebuild it.
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    log.info({ method: c.req.method, path: loggablePath(c.req.path), status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  // The start page and the API reference, for people with a browser; no token.
  app.route('/', docsRoutes());
  const limitBody = bodyLimit({
    maxSize: deps.config.maxBodyBytes,
    onError: () => {
      throw payloadTooLarge(deps.config.maxBodyBytes);
    },
  });
  // Only methods that carry bodies pay for the limit's stream wrapping; a GET body is never read.
  // Bulk upserts have their own limit (2 MB, SPEC.md), applied by their routes.
  const limitBodies: MiddlewareHandler = (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' || isUpsertPath(c.req.path) ? next() : limitBody(c, next));
  app.use('/api/v2/*', limitBodies);
  app.use('/api/v2/*', jsonApiMediaType());

  // No token needed; with a valid one, the caller's custom objects are included.
  app.get('/api/v2/schema', async (c) => {
    const token = bearerToken(c.req.header('authorization'));
    const auth = token ? await lookupToken(deps.sql, token) : undefined;
    if (!auth || 'refused' in auth) return jsonApi(c, 200, generatedSchema);
    const { definitions } = await customObjects.forOrg(auth.orgId);
    return jsonApi(c, 200, withCustomObjects(generatedSchema, definitions));
  });

  // The OpenAPI 3.1 document client generators start from; the same rule for tokens.
  app.get('/api/v2/schema/openapi.json', async (c) => {
    const token = bearerToken(c.req.header('authorization'));
    const auth = token ? await lookupToken(deps.sql, token) : undefined;
    const json = { 'Content-Type': 'application/json' };
    if (!auth || 'refused' in auth) return c.body(servedOpenApiText, 200, json);
    return c.body(JSON.stringify(withCustomObjectsOpenApi(servedOpenApi, await customObjects.forOrg(auth.orgId))), 200, json);
  });

  // Authorized by a webhook's cleanup token, not an access token: mounted ahead of bearer auth.
  app.post('/api/v2/webhooks/cleanup', webhookCleanup({ sql: deps.sql, writer }));

  // Server-to-server install endpoints (SPEC.md, Authentication): apps authenticate with app
  // tokens (JWTs), not access tokens, so they sit outside /api/v2 and its bearer auth.
  app.use('/api/app/*', jsonApiMediaType());
  app.route('/api/app', appInstallRoutes({ sql: deps.sql, publicBaseUrl: deps.config.publicBaseUrl, clock }));

  // CSV uploads (SPEC.md "CSV import" step 2): authorized by the presigned URL, not a token.
  const uploads: UploadOptions = {
    sql: deps.sql,
    cursorSecret: deps.cursorSecret,
    publicBaseUrl: deps.config.publicBaseUrl,
    maxBytes: deps.config.uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES,
    clock,
  };
  mountUploadRoute(app, uploads);

  // Opens, clicks and unsubscribes from mail (issue #16): authorized by the signed URL, not a token.
  const hitCounter = deps.metrics && trackingHitCounter(deps.metrics);
  app.route('/t', trackingRoutes({ sql: deps.sql, writer, signer: createTrackingSigner(deps.trackingSecret), hits: deps.trackingHits, clock, hitCounter }));

  // The sandbox's mail viewer (issue #28): authorized by the signed link `cadence mail viewer` prints.
  mountMailViewer(app, { sql: deps.sql, cursorSecret: deps.cursorSecret, clock });

  // OAuth (SPEC.md, Authentication): the consent page and token endpoint, outside /api/v2.
  app.route('/', oauthRoutes({ sql: deps.sql, clock }));

  const api = new Hono<ApiEnv>();
  api.use('*', bearerAuthentication(deps.sql, { cache: new TokenCache() }));
  if (deps.rateLimiter) api.use('*', requestRateLimit(deps.rateLimiter));
  if (sandbox) {
    api.use('*', orgTimeOfRequest(deps.sql));
    mountSandboxClockRoutes(api, { sql: deps.sql, clock: realClock });
  }
  // Ahead of the resource routes: the bulk module serves the batch's confirm and cancel, and
  // both serve collection actions the schema declares on batch and import.
  checkDeclaredActions(descriptors);
  mountBulkRoutes(api, {
    sql: deps.sql,
    writer,
    customObjects,
    behaviours: standardBehaviours,
    allowance: allowanceOptions(deps.config),
    publicBaseUrl: deps.config.publicBaseUrl,
    clock,
  });
  mountImportRoutes(api, { ...uploads, writer, allowance: allowanceOptions(deps.config), behaviours: standardBehaviours });
  // testSend and testSync wait on mail servers: routes of their own, with no transaction open meanwhile.
  const mailRoute = { sql: deps.sql, writer, behaviours: standardBehaviours, publicBaseUrl: deps.config.publicBaseUrl, clock };
  const mailServers = deps.mailServers ?? mailServerRule(deps.config.mailAllowedHosts);
  mountMailRoutes(api, { ...mailRoute, transports: deps.mailTransports ?? defaultTransports({ sql: deps.sql, clock, smtpUrl: deps.config.smtpUrl, mailServers }) });
  mountTestSyncRoute(api, { ...mailRoute, connect: deps.imapConnect ?? imapFlowConnect(mailServers) });
  // SPEC.md's non-standard create (snake_case attributes, answered with the batch UUID).
  mountComplianceRequestRoute(api, { sql: deps.sql, writer });
  mountResources(api, engine, modules.values());
  mountDefinitionRoutes(api, { sql: deps.sql, standardTypes: new Set(descriptors.keys()), publicBaseUrl: deps.config.publicBaseUrl });
  mountCustomObjectRoutes(api, customObjects);
  mountUnsupportedMethods(api, descriptors.values());
  app.route('/api/v2', api);

  app.notFound((c) => errorResponse(c, resourceNotFound(`No route matches ${c.req.method} ${c.req.path}`)));
  app.onError(renderError);
  return app;
}
