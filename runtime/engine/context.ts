import type postgres from 'postgres';
import type { Logger } from 'pino';
import type { AuthContext, TokenRecheck } from '../auth/index.js';
import type { Behaviours } from './behaviour.js';
import type { ResourceCatalog } from './records.js';
import type { RecordWriter } from './write-operations.js';
import type { CollectionPaths } from './render.js';
import type { ResourceDescriptor } from '../model/descriptor.js';

/** Hono context variables of every /api/v2 request. */
export interface ApiEnv {
  Variables: {
    requestId: string;
    log: Logger;
    auth: AuthContext;
    /** Set when `auth` came from the token cache; see runtime/auth/recheck.ts. */
    tokenRecheck: TokenRecheck | undefined;
  };
}

/** What the engine is built with, once, at start. */
export interface EngineDependencies {
  readonly sql: postgres.Sql;
  readonly behaviours: Behaviours;
  readonly collections: CollectionPaths;
  /** `https://api.example.com` when configured; otherwise links use each request's origin. */
  readonly publicBaseUrl: string | undefined;
  readonly catalog: ResourceCatalog;
  readonly descriptorOf: (type: string) => ResourceDescriptor | undefined;
  /** Signs page cursors; shared by every server process through the database. */
  readonly cursorSecret: string;
  /** The current time; injectable so time-dependent rules can be tested. */
  readonly clock: () => Date;
  /** The one write path; writes pass `catalog`, which holds an org's custom objects too. */
  readonly writer: RecordWriter;
  /** COUNT_TIME_BUDGET_MS: how long a `count=true` may count before it is answered as throttled; undefined: no limit. */
  readonly countTimeBudgetMs: number | undefined;
}
