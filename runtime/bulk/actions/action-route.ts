import type { Context, Hono } from 'hono';
import type postgres from 'postgres';
import { descriptors } from '../../../generated/resources/index.js';
import { requireScope } from '../../auth/index.js';
import { actionOperation, type ApiEnv, type Behaviours, type RecordWriter, type UpdateChanges } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { actionParams, queryParams } from '../../engine/query-params.js';
import { actorOf } from '../../engine/responses.js';
import { invalidQueryParameter, jsonApi, parseId, resourceNotFound } from '../../jsonapi/index.js';
import { SqlParams } from '../../query/index.js';
import { orgScopedTransaction } from '../../tenancy/index.js';
import { chargeAllowance, type AllowanceOptions } from '../allowance.js';
import { batchResponder } from '../batch-response.js';
import type { OrgCustomObjectsSource } from '../upsert-targets.js';
import { createActionBatch, skipUnstartedItems, startActionBatch } from './action-batch.js';
import { readActionRequest } from './action-request.js';
import { BULK_ACTIONS } from './definitions.js';
import { filterParams, parseSelection, selectionSql } from './selection.js';
import { resolveSubject } from './subjects.js';

export interface ActionRouteOptions {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly customObjects: OrgCustomObjectsSource;
  readonly allowance: AllowanceOptions;
  readonly behaviours: Behaviours;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
}

/**
 * POST /api/v2/batches/actions/<name> (SPEC.md "Bulk actions (batches)"), and the batch's
 * confirm and cancel actions with what they start and stop.
 *
 * Mounted ahead of the resource routes: the batch resource declares confirm and cancel (their
 * state rules are runtime/behaviours/batch.ts, applied through the record writer like any
 * action), and these routes serve them with their effects beyond the batch row, in the same
 * transaction: charging the daily allowance and enqueuing the chunk jobs, or skipping the items.
 */
export function mountActionRoutes(api: Hono<ApiEnv>, options: ActionRouteOptions): void {
  const batches = batchResponder(options);
  const batchDescriptor = descriptors.get('batch')!;

  api.post('/batches/actions/:name', async (c) => {
    const auth = c.get('auth');
    const name = c.req.param('name');
    const definition = BULK_ACTIONS.get(name);
    if (!definition) throw resourceNotFound(`There is no bulk action ${name}`);
    // SPEC.md "Bulk actions" rule 5.
    requireScope(auth.scopes, 'batches', 'read');
    requireScope(auth.scopes, 'batches', 'write');
    const params = queryParams(c.req.url);
    const request = readActionRequest(definition.subject, params, await c.req.text());
    const subject = await resolveSubject(definition.subject, request.objectName, auth.orgId, options.customObjects);
    if (!subject) throw invalidQueryParameter('actionParams[objectName]', `This organisation has no custom object named ${JSON.stringify(request.objectName)}`);
    requireScope(auth.scopes, subject.descriptor.scope, definition.access);
    const filters = filterParams(params);
    const selection = parseSelection(subject.descriptor, filters, subject.descriptorOf);
    const now = options.clock();

    const { row, headers } = await orgScopedTransaction(options.sql, auth.orgId, async (tx) => {
      const context = { tx, orgId: auth.orgId, descriptor: subject.descriptor, validateUpdate: subject.validateUpdate, catalog: subject.catalog };
      const parameters = await definition.readBody(request.attributes, context);
      const selectionParams = new SqlParams([auth.orgId]);
      const selectionText = selectionSql(selectionParams, subject.descriptor, selection, request.ids, (type) => subject.descriptorOf(type)!);
      const made = await createActionBatch(tx, options.writer, {
        orgId: auth.orgId,
        action: name,
        resourceType: subject.descriptor.type,
        actor: actorOf(c),
        now,
        payload: { parameters, filter: Object.fromEntries(filters), ...(request.ids && { ids: request.ids }) },
        selection: selectionText,
        selectionParams,
        skipConfirmation: request.skipConfirmation,
        destructive: definition.destructive,
      });
      // Items are charged to the daily allowance when processing starts: here, or at confirm.
      const headers = made.started ? await chargeAllowance(tx, auth.orgId, made.count, now, options.allowance) : {};
      return { row: await batches.read(tx, auth.orgId, made.batchId), headers };
    });
    return jsonApi(c, 200, { data: batches.render(c, row) }, headers);
  });

  /** The scope a batch's action needs on its records (SPEC.md rule 5), as when it was started. */
  async function requireSubjectScope(scopes: ReadonlySet<string>, orgId: number, batch: Row): Promise<void> {
    const definition = BULK_ACTIONS.get(String(batch.action));
    if (!definition) return;
    const objectName = definition.subject === 'customObject' ? String(batch.resourceType) : undefined;
    const subject = await resolveSubject(definition.subject, objectName, orgId, options.customObjects);
    if (subject) requireScope(scopes, subject.descriptor.scope, definition.access);
  }

  const lifecycle = (action: 'confirm' | 'cancel') => async (c: Context<ApiEnv>) => {
    const auth = c.get('auth');
    requireScope(auth.scopes, 'batches', 'write');
    const id = parseId(c.req.param('id'));
    if (id === undefined) throw resourceNotFound(`No batch with id ${c.req.param('id')} exists`);
    const declared = batchDescriptor.actions.find((a) => a.name === action)!;
    const params = actionParams(queryParams(c.req.url), declared);
    const now = options.clock();
    const { row, headers } = await orgScopedTransaction(options.sql, auth.orgId, async (tx) => {
      // The batch row is locked here first: a confirm and a cancel of one batch take turns.
      const operation = actionOperation(options.behaviours, batchDescriptor, id, action, params);
      const applyAction = operation.changes as (current: Row, now: Date) => UpdateChanges;
      let stateBefore: unknown;
      const [outcome] = await options.writer.write({ tx, orgId: auth.orgId, actor: actorOf(c) }, [
        {
          ...operation,
          changes: (current, at) => {
            stateBefore = current.state;
            return applyAction(current, at);
          },
        },
      ]);
      if (outcome!.status === 'missing') throw resourceNotFound(`No batch with id ${id} exists`);
      if (outcome!.status === 'refused') throw outcome!.error;
      let headers: Record<string, string> = {};
      if (action === 'confirm') {
        // Confirming applies the action: the caller needs the rights to apply it, not only the creator.
        await requireSubjectScope(auth.scopes, auth.orgId, outcome!.row);
        headers = await chargeAllowance(tx, auth.orgId, Number(outcome!.row.pending), now, options.allowance);
        await startActionBatch({ tx, writer: options.writer, orgId: auth.orgId, actor: actorOf(c) }, id, now);
      } else if (stateBefore === 'confirming') {
        await skipUnstartedItems(tx, auth.orgId, id, now);
      }
      return { row: await batches.read(tx, auth.orgId, id), headers };
    });
    return jsonApi(c, 200, { data: batches.render(c, row) }, headers);
  };
  api.post('/batches/:id/actions/confirm', lifecycle('confirm'));
  api.post('/batches/:id/actions/cancel', lifecycle('cancel'));
}
