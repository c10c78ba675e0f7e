import type { ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type postgres from 'postgres';
import { expect } from 'vitest';
import { createOrg, createToken, createUser, type CreatedOrg } from '../../runtime/admin/index.js';
import { createApp } from '../../runtime/app.js';
import { connectDatabase } from '../../runtime/db/client.js';
import { loadCursorSecret, loadTrackingSecret } from '../../runtime/db/settings.js';
import { listen } from '../../runtime/http/listen.js';
import type { ImapConnect } from '../../runtime/mail/sync/index.js';
import type { MailServerRule, TransportFactory } from '../../runtime/mail/index.js';
import { HitBuffer } from '../../runtime/mail/tracking/index.js';
import { createMetricsRegistry, observePool } from '../../runtime/metrics/index.js';
import { RequestRateLimiter } from '../../runtime/ratelimit/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { assertJsonApiDocument } from './jsonapi.js';

export const MEDIA_TYPE = 'application/vnd.api+json';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null when the body is empty. */
  body: any;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON and the like). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestApi {
  readonly baseUrl: string;
  readonly databaseUrl: string;
  readonly sql: postgres.Sql;
  /** An org with an admin user and an every-scope token. */
  readonly org: CreatedOrg;
  /** The server's request rate limiter, when `rateLimit` was given. */
  readonly rateLimiter: RequestRateLimiter | undefined;
  /** Where the server holds tracking hits until they are appended; flush() writes them now. */
  readonly trackingHits: HitBuffer;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  newOrg(name?: string): Promise<CreatedOrg>;
  newUserToken(orgId: number, scopes: string[], admin?: boolean): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real Cadence HTTP server on 127.0.0.1 over its own database cloned from the migrated
 * template. Every response is checked: JSON:API media type on any body, and the body valid
 * against the official JSON:API 1.0 schema.
 */
export interface TestApiOptions {
  publicBaseUrl?: string;
  clock?: () => Date;
  onQuery?: (sql: string) => void;
  /** Database connections of the server (4 by default, fewer than most tests' concurrent requests). */
  poolSize?: number;
  /** Where the server logs; by default pino at TEST_LOG_LEVEL (silent unless set). */
  log?: Logger;
  /** The daily bulk item allowance (BULK_ALLOWANCE_CAPACITY, BULK_ALLOWANCE_PER_DAY); 5 million a day by default. */
  bulkAllowance?: { capacity: number; perDay: number };
  /** The largest CSV upload (UPLOAD_MAX_BYTES); 100 MiB by default. */
  uploadMaxBytes?: number;
  /** The largest request body (MAX_BODY_BYTES); 64 KiB by default, 2 MiB in production. */
  maxBodyBytes?: number;
  /** How testSync connects to IMAP servers (test/helpers/imap.ts: loopback only). */
  imapConnect?: ImapConnect;
  /** Where testSend's messages go (runtime/mail); by default the mailbox's own server, else local. */
  mailTransports?: (sql: postgres.Sql) => TransportFactory;
  /** Where mailboxes' own mail servers may be (MAIL_ALLOWED_HOSTS and the resolver); no private address, getaddrinfo, by default. */
  mailServers?: MailServerRule;
  /** COUNT_TIME_BUDGET_MS; no budget by default. */
  countTimeBudgetMs?: number;
  /** Request rate limits (RATE_LIMIT_PER_HOUR, and how often counts are settled); none by default. */
  rateLimit?: { perHour: number; settleIntervalMs?: number };
  /** Serves the database of another test server, with an org of its own, instead of a new database (that server drops it). */
  databaseOf?: TestApi;
  /** Serves GET /metrics (runtime/metrics), behind METRICS_TOKEN `token` when given; no /metrics by default. */
  metrics?: { token?: string };
  /** Serves this database (a restored or imported one), with an org of its own added, and drops it on close. */
  database?: TestDatabase;
  /** CADENCE_SANDBOX=true: orgs' test clocks (runtime/sandbox/clock.ts); off by default. */
  sandbox?: boolean;
}

export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const database = options.databaseOf ? { url: options.databaseOf.databaseUrl, drop: async () => {} } : (options.database ?? (await createTestDatabase()));
  const sql = connectDatabase(database.url, { max: options.poolSize ?? 4, ...(options.onQuery && { onQuery: options.onQuery }) });
  // TEST_LOG_LEVEL=error shows what the server logs, e.g. the cause of a 500.
  const log = options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const rateLimiter = options.rateLimit && new RequestRateLimiter({ sql, log, clock: options.clock ?? (() => new Date()), ...options.rateLimit });
  const trackingHits = new HitBuffer({ sql, log });
  const metrics = options.metrics && createMetricsRegistry();
  if (metrics) observePool(metrics, sql);
  const app = createApp({
    ...(metrics && { metrics }),
    sql,
    trackingHits,
    cursorSecret: await loadCursorSecret(sql),
    trackingSecret: await loadTrackingSecret(sql),
    ...(options.clock && { clock: options.clock }),
    ...(options.imapConnect && { imapConnect: options.imapConnect }),
    ...(options.mailTransports && { mailTransports: options.mailTransports(sql) }),
    ...(options.mailServers && { mailServers: options.mailServers }),
    ...(rateLimiter && { rateLimiter }),
    config: {
      publicBaseUrl: options.publicBaseUrl,
      maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
      ...(options.bulkAllowance && { bulkAllowanceCapacity: options.bulkAllowance.capacity, bulkAllowancePerDay: options.bulkAllowance.perDay }),
      ...(options.uploadMaxBytes !== undefined && { uploadMaxBytes: options.uploadMaxBytes }),
      ...(options.countTimeBudgetMs !== undefined && { countTimeBudgetMs: options.countTimeBudgetMs }),
      metricsToken: options.metrics?.token,
      ...(options.sandbox && { sandbox: true }),
    },
    log,
  });
  const server: ServerType = await listen(app.fetch, { port: 0, hostname: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const org = await createOrg(sql, { name: 'Test org' });

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? org.token : opts.token;
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= MEDIA_TYPE;
    const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined && { body }) });
    const text = await response.text();
    if (text === '') return { status: response.status, headers: response.headers, body: null };
    expect(response.headers.get('content-type'), `${method} ${path}`).toBe(MEDIA_TYPE);
    const parsed = JSON.parse(text);
    if (!path.startsWith('/api/v2/schema')) assertJsonApiDocument(parsed);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  return {
    baseUrl,
    databaseUrl: database.url,
    sql,
    org,
    rateLimiter,
    trackingHits,
    request,
    newOrg: (name = 'Other org') => createOrg(sql, { name }),
    async newUserToken(orgId, scopes, admin = false) {
      const { userId } = await createUser(sql, { orgId, email: `user${Date.now()}${Math.random()}@example.test`, admin });
      return (await createToken(sql, { orgId, userId, scopes })).token;
    },
    async close() {
      // Idle keep-alive connections would hold close() open until the client drops them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      (server as Server).closeIdleConnections();
      await closed;
      await rateLimiter?.stop();
      await trackingHits.stop();
      await sql.end({ timeout: 5 });
      await database.drop();
    },
  };
}
