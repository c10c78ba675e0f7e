// What the write parts (bulk upsert, bulk actions) share: reading a batch's state over the API,
// a webhook on prospect events, and counting the delivery jobs a run wrote.
import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';

const MEDIA_TYPE = 'application/vnd.api+json';

/** Where the API is and whose token to send. */
export interface ApiClient {
  readonly apiUrl: string;
  readonly token: string;
}

export interface BatchState {
  readonly state: string;
  readonly pending: number;
  readonly failures: number;
  readonly total: number;
  /** `summary` as rendered (null without failures; `fatal` when the batch failed as a whole). */
  readonly summary: unknown;
}

export async function fetchBatchState(client: ApiClient, id: string): Promise<BatchState> {
  const response = await fetch(`${client.apiUrl}/api/v2/batches/${id}`, {
    headers: { authorization: `Bearer ${client.token}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /api/v2/batches/${id} answered ${response.status}: ${text.slice(0, 300)}`);
  const attributes = (JSON.parse(text) as { data: { attributes: Record<string, unknown> } }).data.attributes;
  return {
    state: String(attributes.state),
    pending: Number(attributes.pending ?? 0),
    failures: Number(attributes.failures ?? 0),
    total: Number(attributes.total ?? 0),
    summary: attributes.summary ?? null,
  };
}

/** A webhook on every prospect event (`prospect.*`) delivering to `url`; returns its id. */
export async function createWebhook(client: ApiClient, url: string): Promise<number> {
  const response = await fetch(`${client.apiUrl}/api/v2/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': MEDIA_TYPE },
    body: JSON.stringify({ data: { type: 'webhook', attributes: { url, resource: 'prospect', action: '*', secret: 'bench-secret' } } }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`creating the webhook answered ${response.status}: ${text.slice(0, 300)}`);
  return Number((JSON.parse(text) as { data: { id: string } }).data.id);
}

export async function waitFor(condition: () => boolean, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition() && Date.now() < deadline) await sleep(20);
}

/**
 * Deliveries written for `webhookId` for events after `afterEventId`: items of delivery set jobs
 * still queued, or deliveries that made an attempt (jobs done are deleted).
 */
export async function webhookJobsWritten(sql: postgres.Sql, orgId: number, webhookId: number, afterEventId: number): Promise<number> {
  const [row] = await sql.unsafe<{ n: number }[]>(
    `select count(*) as n from (
       select event_id from webhook_attempts where org_id = $1 and webhook_id = $2 and event_id > $3
       union
       select (i.item->>'eventId')::bigint from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id,
              json_array_elements(j.payload) as i(item)
        where t.identifier = 'deliver_webhook' and (i.item->>'webhookId')::bigint = $2 and (i.item->>'eventId')::bigint > $3) jobs`,
    [orgId, webhookId, afterEventId],
  );
  return Number(row!.n);
}
