import type { Hono } from 'hono';
import type { TaskList } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { Config } from '../config.js';
import type { ApiEnv, Behaviours } from '../engine/index.js';
import type { RecordWriter } from '../engine/write-operations.js';
import { DAILY_ALLOWANCE, type AllowanceOptions } from './allowance.js';
import { ACTION_CHUNK_TASK } from './actions/action-batch.js';
import { bulkActionChunkTask } from './actions/action-chunk.js';
import { mountActionRoutes } from './actions/action-route.js';
import { CHUNK_TASK } from './batch-store.js';
import { bulkUpsertChunkTask } from './upsert-chunk.js';
import { PURGE_TASK, purgeBulkUpsertsTask } from './purge-task.js';
import { mountUpsertRoutes } from './upsert-route.js';
import { UpsertTargets, type OrgCustomObjectsSource } from './upsert-targets.js';

/**
 * Bulk requests (SPEC.md "Bulk upsert", "Bulk actions (batches)", "Limits"): bulk upserts and
 * bulk actions tracked as batches, written by chunk jobs through the record writer; batches'
 * confirm and cancel; the daily allowance of bulk items; idempotency keys; and the purge of
 * upsert batches after 30 days.
 */

export { isUpsertPath, UPSERT_BODY_LIMIT } from './upsert-route.js';
export { chargeAllowance, DAILY_ALLOWANCE, type AllowanceOptions } from './allowance.js';

/** The allowance from configuration: BULK_ALLOWANCE_CAPACITY and BULK_ALLOWANCE_PER_DAY. */
export function allowanceOptions(config: Partial<Pick<Config, 'bulkAllowanceCapacity' | 'bulkAllowancePerDay'>>): AllowanceOptions {
  return {
    capacity: config.bulkAllowanceCapacity ?? DAILY_ALLOWANCE.capacity,
    perDay: config.bulkAllowancePerDay ?? DAILY_ALLOWANCE.perDay,
  };
}

export interface BulkRouteOptions {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly customObjects: OrgCustomObjectsSource;
  readonly behaviours: Behaviours;
  readonly allowance: AllowanceOptions;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
}

/**
 * Mounts the bulk upserts, the bulk actions and batches' confirm and cancel on the /api/v2
 * router (behind bearer authentication), ahead of the resource routes.
 */
export function mountBulkRoutes(api: Hono<ApiEnv>, options: BulkRouteOptions): void {
  const { customObjects, ...rest } = options;
  mountUpsertRoutes(api, { ...rest, targets: new UpsertTargets(customObjects) });
  mountActionRoutes(api, options);
}

export interface BulkTaskDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly behaviours: Behaviours;
  readonly customObjects: OrgCustomObjectsSource;
  readonly clock: () => Date;
  readonly log: Logger;
}

/** The worker's bulk tasks: chunks of upserts and of bulk actions, and the daily purge (crontab: BULK_CRONTAB). */
export function bulkTasks(deps: BulkTaskDependencies): TaskList {
  const targets = new UpsertTargets(deps.customObjects);
  return {
    [CHUNK_TASK]: bulkUpsertChunkTask({ sql: deps.sql, writer: deps.writer, targets, clock: deps.clock, log: deps.log }),
    [ACTION_CHUNK_TASK]: bulkActionChunkTask(deps),
    [PURGE_TASK]: purgeBulkUpsertsTask({ sql: deps.sql, clock: deps.clock }),
  };
}

export const BULK_CRONTAB = `47 3 * * * ${PURGE_TASK}`;
