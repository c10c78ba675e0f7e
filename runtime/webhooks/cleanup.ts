import type { Handler } from 'hono';
import type postgres from 'postgres';
import { SERVICE_ACTOR, type RecordWriter } from '../engine/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import { orgOfCleanupToken } from './cleanup-token.js';

/**
 * POST /api/v2/webhooks/cleanup with `Authorization: Bearer <cleanupToken>`: removes that one
 * webhook. 204 removed, 404 already gone, 401 not a cleanup token; the body is always empty.
 * The cleanup token authorizes nothing else, so this route sits outside bearer authentication.
 */
export function webhookCleanup(options: { sql: postgres.Sql; writer: RecordWriter }): Handler {
  return async function cleanupWebhook(c) {
    const token = c.req.header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    const orgId = token === undefined ? undefined : orgOfCleanupToken(token);
    if (token === undefined || orgId === undefined) return c.body(null, 401);
    const outcome = await orgScopedTransaction(options.sql, orgId, async (tx) => {
      const [webhook] = await tx<{ id: number }[]>`select id from webhooks where org_id = ${orgId} and cleanup_token = ${token}`;
      if (!webhook) return 'gone';
      await options.writer.write({ tx, orgId, actor: SERVICE_ACTOR }, [{ kind: 'delete', type: 'webhook', id: webhook.id }]);
      return 'removed';
    });
    // A well-formed token whose webhook is gone cannot be told apart from a forged one of the
    // same shape; both answer 404, which reveals nothing the token's holder did not know.
    return c.body(null, outcome === 'removed' ? 204 : 404);
  };
}
