import type { Hono } from 'hono';
import type { TaskList } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { AllowanceOptions } from '../bulk/allowance.js';
import type { ApiEnv, Behaviours, RecordWriter } from '../engine/index.js';
import { mountImportActions } from './import-route.js';
import { IMPORT_TASK } from './import-store.js';
import { csvImportTask } from './import-task.js';
import { purgeUploadsTask, UPLOAD_PURGE_TASK } from './purge-task.js';
import { mountUploadActions } from './upload-actions.js';
import { uploadRoute } from './upload-route.js';
import { uploadSigningKey } from './upload-url.js';

/**
 * CSV imports (SPEC.md "CSV import"): an upload link, the upload through it (kept in
 * PostgreSQL in 1 MiB chunks), its validation, and the import of its rows into prospects or
 * accounts by a job, tracked as an `import` and the batch it runs in. Uploads are purged a day
 * after their link was made, unless an import of theirs is still running.
 */

export { UPLOAD_ACTION_PATHS } from './upload-actions.js';
export { IMPORT_ACTION_PATHS } from './import-route.js';

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

export interface ImportActionOptions {
  readonly writer: RecordWriter;
  readonly allowance: AllowanceOptions;
  readonly behaviours: Behaviours;
}

/** generateUploadLink, validateUpload and the import actions on the /api/v2 router, ahead of the resource routes. */
export function mountImportRoutes(api: Hono<ApiEnv>, options: UploadOptions & ImportActionOptions): void {
  mountUploadActions(api, { sql: options.sql, signingKey: uploadSigningKey(options.cursorSecret), publicBaseUrl: options.publicBaseUrl, clock: options.clock });
  mountImportActions(api, options);
}

/** The worker's import tasks: imports' rows, and the daily purge of uploads (crontab: IMPORT_CRONTAB). */
export function importTasks(deps: { sql: postgres.Sql; writer: RecordWriter; clock: () => Date; log: Logger }): TaskList {
  return { [IMPORT_TASK]: csvImportTask(deps), [UPLOAD_PURGE_TASK]: purgeUploadsTask(deps) };
}

export const IMPORT_CRONTAB = `57 3 * * * ${UPLOAD_PURGE_TASK}`;
