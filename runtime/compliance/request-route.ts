import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import type postgres from 'postgres';
import { descriptors } from '../../generated/resources/index.js';
import { requireScope } from '../auth/index.js';
import type { ApiEnv, RecordWriter } from '../engine/index.js';
import { actorOf } from '../engine/responses.js';
import { jsonApi, parseRequestBody, validationError } from '../jsonapi/index.js';
import { orgScopedTransaction, type Transaction } from '../tenancy/index.js';
import { retryingOnConflict } from '../tenancy/retry.js';
import { enqueuePlan } from './jobs.js';
import { readComplianceRequest } from './request-input.js';

export interface ComplianceRouteOptions {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
}

/**
 * POST /api/v2/complianceRequests, SPEC.md's non-standard create: snake_case attributes, all
 * required, and an answer that is not the record but `{data: {batch_compliance_request_id}}`.
 * The request is created through the writer (its `created` event and webhooks) and its planning
 * job enqueued in the same transaction; the work is asynchronous (runtime/compliance/plan.ts).
 * Served here, ahead of the engine's create, which would read camelCase attributes.
 */
export function mountComplianceRequestRoute(api: Hono<ApiEnv>, options: ComplianceRouteOptions): void {
  const scope = descriptors.get('complianceRequest')!.scope;
  api.post('/complianceRequests', async (c) => {
    const auth = c.get('auth');
    requireScope(auth.scopes, scope, 'write');
    const input = readComplianceRequest(parseRequestBody(await c.req.text()));
    const batch = randomUUID();
    await retryingOnConflict(() =>
      orgScopedTransaction(options.sql, auth.orgId, async (tx) => {
        const requester = await userWithEmail(tx, auth.orgId, input.requesterEmail);
        const effects = options.writer.effects({ tx, orgId: auth.orgId, actor: actorOf(c) });
        const [outcome] = await effects.write([
          effects.create('complianceRequest', {
            uuid: randomUUID(),
            batchComplianceRequest: batch,
            batchComplianceRequestUuid: batch,
            requesterEmail: input.requesterEmail,
            requester,
            requestType: input.requestType,
            objectType: input.objectType,
            requestObjectEmail: input.requestObjectEmail,
            state: 'pending',
          }),
        ]);
        if (outcome?.status === 'refused') throw outcome.error;
        if (outcome?.status !== 'written') throw new Error('the compliance request was not written');
        await enqueuePlan(tx, auth.orgId, Number(outcome.row.id));
      }),
    );
    return jsonApi(c, 201, { data: { batch_compliance_request_id: batch } });
  });
}

/** The requesting user: a user of the org with that e-mail (any case), else a 422 naming the attribute. */
async function userWithEmail(tx: Transaction, orgId: number, email: string): Promise<number> {
  const [user] = await tx.unsafe<{ id: string }[]>('select id from users where org_id = $1 and lower(email) = lower($2) order by id limit 1', [orgId, email] as never[], {
    prepare: true,
  });
  if (!user) throw validationError([{ pointer: '/data/attributes/requester_email', detail: `No user of this organisation has the e-mail ${email}` }]);
  return Number(user.id);
}
