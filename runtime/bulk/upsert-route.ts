import type { Context, Hono } from 'hono';
import type postgres from 'postgres';
import { requireScope } from '../auth/index.js';
import type { ApiEnv, Behaviours, RecordWriter } from '../engine/index.js';
import { queryParams, rejectUnknownParams } from '../engine/query-params.js';
import { actorOf } from '../engine/responses.js';
import { jsonApi, parseLargeRequestBody, validationError } from '../jsonapi/index.js';
import { mapInSlices } from '../slices.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import { allowanceHeaders, allowanceInHand, chargeAllowance, type AllowanceOptions } from './allowance.js';
import { batchResponder } from './batch-response.js';
import { createUpsertBatch, type NewItem } from './batch-store.js';
import { batchOfKey, claimKey, idempotencyKeyOf, requestHash } from './idempotency.js';
import { planRecord } from './record-plan.js';
import { readUpsertBody } from './upsert-body.js';
import { parseUpsertRequest, type DupeMethod, type UpsertAction, type UpsertRequest } from './upsert-request.js';
import type { UpsertTarget, UpsertTargets } from './upsert-targets.js';

/** SPEC.md's limits: a bulk upsert request is at most 2 MB, whatever other requests may be. */
export const UPSERT_BODY_LIMIT = 2 * 1024 * 1024;

export const UPSERT_PATHS: Readonly<Record<UpsertAction, string>> = {
  bulkUpsert: '/imports/actions/bulkUpsert',
  customObjectBulkUpsert: '/imports/actions/customObjectBulkUpsert',
};

export interface UpsertRouteOptions {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly targets: UpsertTargets;
  readonly allowance: AllowanceOptions;
  readonly behaviours: Behaviours;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
}

/** A request with the same Idempotency-Key committed while this one ran. */
class KeyTakenMeanwhile extends Error {}

/**
 * Records planned between two turns of the event loop: each is checked by the resource's
 * validator, some tens of microseconds, so that a 2 MB request's 14,000 records hold the loop
 * for milliseconds at a time, not for most of a second (issue #25).
 */
const PLAN_SLICE = 250;

/** Each record as a batch item: still to be written, or already final (a bad body, a skip). */
function itemsOf(request: UpsertRequest, target: UpsertTarget): Promise<NewItem[]> {
  return mapInSlices(request.records, PLAN_SLICE, (record): NewItem => {
    const plan = planRecord(target, record, request.dupeMethod);
    const data = JSON.stringify(record);
    if (plan.kind === 'error') return { data, state: 'error', errors: plan.errors };
    return { data, state: plan.kind === 'skipped' ? 'skipped' : 'pending' };
  });
}

/** A request read and planned: what its batch is made of, without the body it came in. */
interface PlannedRequest {
  readonly dupeMethod: DupeMethod;
  readonly target: UpsertTarget;
  readonly items: readonly NewItem[];
  /** The body's hash, when the request has an Idempotency-Key. */
  readonly hash: string | undefined;
}

/**
 * Reads the body (at most UPSERT_BODY_LIMIT bytes, held once), checks it and plans its records.
 * The bytes, their text and the parsed records are garbage once this returns: what the batch
 * needs is in its items, so a 2 MB request holds its body in one form at a time, not all of
 * them until its batch is stored.
 */
async function planRequest(c: Context<ApiEnv>, action: UpsertAction, targets: UpsertTargets, hasKey: boolean): Promise<PlannedRequest> {
  const bytes = await readUpsertBody(c.req.raw, UPSERT_BODY_LIMIT);
  const hash = hasKey ? requestHash(action, bytes) : undefined;
  const request = parseUpsertRequest(await parseLargeRequestBody(new TextDecoder().decode(bytes)));
  const target = await targets.resolve(action, c.get('auth').orgId, request.type);
  if ('refused' in target) throw validationError([{ pointer: '/data/attributes/records/0/data/type', detail: target.refused }]);
  return { dupeMethod: request.dupeMethod, target, items: await itemsOf(request, target), hash };
}

/**
 * POST /api/v2/imports/actions/bulkUpsert and /customObjectBulkUpsert (SPEC.md "Bulk upsert"):
 * checks the request, takes its records from the org's daily allowance, and stores the batch,
 * its items and its chunk jobs in one transaction. Answers 200 with the batch; the records are
 * written by the chunk jobs (chunk-task.ts).
 */
export function mountUpsertRoutes(api: Hono<ApiEnv>, options: UpsertRouteOptions): void {
  const batches = batchResponder(options);

  /**
   * The first request's batch, marked as a replay. Its X-RateLimit-* headers are the allowance's,
   * as the first answer's were, so a client pacing itself by them reads the same kind of figure.
   */
  const answerWithReplay = async (c: Context<ApiEnv>, batchId: number) => {
    const { orgId } = c.get('auth');
    const now = options.clock();
    const { row, take } = await orgScopedTransaction(
      options.sql,
      orgId,
      async (tx) => ({ row: await batches.read(tx, orgId, batchId), take: await allowanceInHand(tx, orgId, now, options.allowance) }),
      { readOnly: true },
    );
    const headers = { ...allowanceHeaders(take, now, options.allowance), 'Idempotent-Replayed': 'true' };
    return jsonApi(c, 200, { data: batches.render(c, row) }, headers);
  };

  const upsert = (action: UpsertAction) => async (c: Context<ApiEnv>) => {
    const auth = c.get('auth');
    // SPEC.md "Bulk upsert" rule 7.
    requireScope(auth.scopes, 'imports', 'write');
    requireScope(auth.scopes, 'imports', 'read');
    requireScope(auth.scopes, 'batches', 'read');
    rejectUnknownParams(queryParams(c.req.url), () => false, 'on a bulk upsert');
    const key = idempotencyKeyOf(c.req.header('idempotency-key'));
    const { dupeMethod, target, items, hash } = await planRequest(c, action, options.targets, key !== undefined);
    const earlier = async () => orgScopedTransaction(options.sql, auth.orgId, (tx) => batchOfKey(tx, auth.orgId, key!, hash!, options.clock()), { readOnly: true });
    if (key !== undefined) {
      const batchId = await earlier();
      if (batchId !== undefined) return answerWithReplay(c, batchId);
    }

    const now = options.clock();
    try {
      const { row, headers } = await orgScopedTransaction(options.sql, auth.orgId, async (tx) => {
        const batchId = await createUpsertBatch(tx, options.writer, {
          orgId: auth.orgId,
          action,
          resourceType: target.descriptor.type,
          dupeMethod,
          actor: actorOf(c),
          now,
          items,
        });
        if (key !== undefined && !(await claimKey(tx, auth.orgId, key, hash!, batchId, now))) throw new KeyTakenMeanwhile();
        // Last, so the allowance's row is locked for as short a time as possible.
        const headers = await chargeAllowance(tx, auth.orgId, items.length, now, options.allowance);
        return { row: await batches.read(tx, auth.orgId, batchId), headers };
      });
      return jsonApi(c, 200, { data: batches.render(c, row) }, headers);
    } catch (error) {
      if (!(error instanceof KeyTakenMeanwhile)) throw error;
      const batchId = await earlier();
      if (batchId === undefined) throw new Error('an Idempotency-Key was taken and then not found');
      return answerWithReplay(c, batchId);
    }
  };

  for (const action of ['bulkUpsert', 'customObjectBulkUpsert'] as const) api.post(UPSERT_PATHS[action], upsert(action));
}

/** Whether `path` (under /api/v2) is a bulk upsert, which has its own body limit. */
export function isUpsertPath(path: string): boolean {
  return path === `/api/v2${UPSERT_PATHS.bulkUpsert}` || path === `/api/v2${UPSERT_PATHS.customObjectBulkUpsert}`;
}
