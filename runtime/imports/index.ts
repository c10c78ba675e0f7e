import type { Hono } from 'hono';
import type { TaskList } from 'graphile-worker';
import type postgres from 'postgres';
import type { ApiEnv } from '../engine/index.js';
import { purgeUploadsTask, UPLOAD_PURGE_TASK } from './purge-task.js';
import { mountUploadActions } from './upload-actions.js';
import { uploadRoute } from './upload-route.js';
import { uploadSigningKey } from './upload-url.js';

/**
 * CSV imports (SPEC.md "CSV import"), so far steps 1-3: an upload link, the upload through it
 * (kept in PostgreSQL in 1 MiB chunks) and its validation; uploads are purged after a day.
 * Starting an import from an upload (steps 4-5) is not built yet.
 */

export { UPLOAD_ACTION_PATHS } from './upload-actions.js';

/** The largest upload when UPLOAD_MAX_BYTES is not set: 100 MiB (issue #14; SPEC.md names no limit). */
export const DEFAULT_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

export interface UploadOptions {
  readonly sql: postgres.Sql;
  readonly cursorSecret: string;
  readonly publicBaseUrl: string | undefined;
  /** UPLOAD_MAX_BYTES. */
  readonly maxBytes: number;
  readonly clock: () => Date;
}

/** PUT /uploads/:storageKey: outside /api/v2, authorized by its signed URL alone. */
export function mountUploadRoute(app: Hono<ApiEnv>, options: UploadOptions): void {
  app.put(
    '/uploads/:storageKey',
    uploadRoute({ sql: options.sql, signingKey: uploadSigningKey(options.cursorSecret), maxBytes: options.maxBytes, clock: options.clock }),
  );
}

/** generateUploadLink and validateUpload on the /api/v2 router, ahead of the resource routes. */
export function mountImportRoutes(api: Hono<ApiEnv>, options: UploadOptions): void {
  mountUploadActions(api, { sql: options.sql, signingKey: uploadSigningKey(options.cursorSecret), publicBaseUrl: options.publicBaseUrl, clock: options.clock });
}

/** The worker's upload tasks: the daily purge (crontab: IMPORT_CRONTAB). */
export function importTasks(deps: { sql: postgres.Sql; clock: () => Date }): TaskList {
  return { [UPLOAD_PURGE_TASK]: purgeUploadsTask(deps) };
}

export const IMPORT_CRONTAB = `57 3 * * * ${UPLOAD_PURGE_TASK}`;
