import { pino } from 'pino';
import { expect } from 'vitest';
import { createToken, createUser } from '../../runtime/admin/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import type { ApiResponse, RequestOptions, TestApi } from './api.js';
import { until } from './wait.js';

/**
 * Bulk actions (issue #13) as a client sees them, for test/api/bulk-action*.test.ts. Every test
 * works in an org of its own, so that an action without a filter selects exactly the records
 * the test made.
 */

export interface OrgClient {
  readonly orgId: number;
  readonly userId: number;
  readonly token: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
}

export interface BatchItem {
  itemId: number | null;
  state: string;
  data: unknown;
  errors: { id: string; status: string; title?: string; detail?: string; source?: unknown }[] | null;
  info: string | null;
}

export function orgClient(api: TestApi, org: { orgId: number; userId: number; token: string }): OrgClient {
  return {
    ...org,
    request: (method, path, options = {}) => api.request(method, path, { token: org.token, ...options }),
  };
}

export async function freshOrg(api: TestApi, name = 'Bulk actions org'): Promise<OrgClient> {
  return orgClient(api, await api.newOrg(name));
}

/** Another user of the org, with a token holding exactly `scopes`. */
export async function userWithScopes(api: TestApi, org: OrgClient, scopes: string[]): Promise<OrgClient> {
  const { userId } = await createUser(api.sql, { orgId: org.orgId, email: `bulk${Date.now()}${Math.random()}@example.test`, admin: false });
  const { token } = await createToken(api.sql, { orgId: org.orgId, userId, scopes });
  return orgClient(api, { orgId: org.orgId, userId, token });
}

/** A user of the org, by id (an owner or assignee). */
export async function newUserId(api: TestApi, org: OrgClient): Promise<number> {
  return (await createUser(api.sql, { orgId: org.orgId, email: `member${Date.now()}${Math.random()}@example.test`, admin: false })).userId;
}

export function startTestWorker(api: TestApi): Promise<StartedWorker> {
  return startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
  });
}

/** POSTs a record and returns its id. */
export async function create(
  org: OrgClient,
  path: string,
  type: string,
  attributes: Record<string, unknown> = {},
  relationships: Record<string, { type: string; id: number }> = {},
): Promise<number> {
  const links = Object.fromEntries(Object.entries(relationships).map(([name, data]) => [name, { data }]));
  const response = await org.request('POST', `/api/v2/${path}`, { body: { data: { type, attributes, relationships: links } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

export async function attributesOf(org: OrgClient, path: string): Promise<Record<string, any>> {
  const response = await org.request('GET', `/api/v2/${path}`);
  expect(response.status, `GET ${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.body.data.attributes;
}

/**
 * Starts bulk action `name`: `query` is the query string without `?` (actionParams[...]),
 * `attributes` the body's attributes (no body when undefined).
 */
export function startAction(org: OrgClient, name: string, query = '', attributes?: Record<string, unknown>): Promise<ApiResponse> {
  return org.request('POST', `/api/v2/batches/actions/${name}${query ? `?${query}` : ''}`, {
    ...(attributes !== undefined && { body: { data: { type: 'batch', attributes } } }),
  });
}

/** The batch once the worker is done with it: neither pending nor confirming. */
export async function settled(org: OrgClient, batchId: number | string): Promise<{ id: number | string; attributes: Record<string, any> }> {
  return until(
    `batch ${batchId} to settle`,
    async () => {
      const { body } = await org.request('GET', `/api/v2/batches/${batchId}`);
      return ['pending', 'confirming'].includes(body.data.attributes.state) ? undefined : body.data;
    },
    60_000,
  );
}

/** Until the batch has no pending item (the chunk jobs of a canceled batch mark theirs). */
export async function drained(org: OrgClient, batchId: number | string): Promise<Record<string, any>> {
  return until(
    `batch ${batchId} to have no pending item`,
    async () => {
      const { body } = await org.request('GET', `/api/v2/batches/${batchId}`);
      return body.data.attributes.pending === 0 ? body.data.attributes : undefined;
    },
    60_000,
  );
}

/**
 * Starts the action with actionParams[skipConfirmation]=true, expects the pending batch, and
 * returns the batch once it settled, with its items.
 */
export async function runAction(org: OrgClient, name: string, query = '', attributes?: Record<string, unknown>) {
  const started = await startAction(org, name, query ? `${query}&actionParams[skipConfirmation]=true` : 'actionParams[skipConfirmation]=true', attributes);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.data.type).toBe('batch');
  expect(started.body.data.attributes).toMatchObject({ action: name, state: 'pending' });
  expect(started.body.data.attributes.startedAt).toEqual(expect.any(String));
  const batch = await settled(org, started.body.data.id);
  return { started: started.body.data, batch: batch.attributes, items: await itemsOf(org, batch.id) };
}

/** The batch's items, by itemId. */
export async function itemsOf(org: OrgClient, batchId: number | string, query = ''): Promise<BatchItem[]> {
  const { status, body } = await org.request('GET', `/api/v2/batchItems?filter[batch][id]=${batchId}&sort=itemId&page[size]=1000${query}`);
  expect(status).toBe(200);
  return body.data.map((i: { attributes: BatchItem }) => ({
    itemId: i.attributes.itemId,
    state: i.attributes.state,
    data: typeof i.attributes.data === 'string' ? JSON.parse(i.attributes.data) : i.attributes.data,
    errors: i.attributes.errors,
    info: i.attributes.info,
  }));
}

/** `[itemId, state]` of each item. */
export const states = (items: BatchItem[]) => items.map((i) => [i.itemId, i.state]);

/** The data of a successful item: a resource identifier with a string id. */
export const identifier = (type: string, id: number) => ({ type, id: String(id) });

/** `[name, resourceId]` of the org's events about `resourceType` named one of `names`, sorted. */
export async function eventsOf(org: OrgClient, resourceType: string, names: string[]): Promise<[string, number][]> {
  const { status, body } = await org.request('GET', `/api/v2/events?filter[resourceType]=${resourceType}&filter[name]=${names.join(',')}&page[size]=1000`);
  expect(status).toBe(200);
  return body.data
    .map((e: { attributes: { name: string; resourceId: number } }) => [e.attributes.name, Number(e.attributes.resourceId)] as [string, number])
    .sort((a: [string, number], b: [string, number]) => a[0].localeCompare(b[0]) || a[1] - b[1]);
}

/** How many batches the org has. */
export async function batchCount(org: OrgClient): Promise<number> {
  const { body } = await org.request('GET', '/api/v2/batches?count=true&page[size]=1');
  return body.meta.count;
}

export const sortedIds = (ids: (number | null)[]) => [...ids].sort((a, b) => Number(a) - Number(b));
