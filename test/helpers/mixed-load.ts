import { setTimeout as sleep } from 'node:timers/promises';
import type { CreatedOrg } from '../../runtime/admin/index.js';
import { MEDIA_TYPE } from './api.js';

/**
 * The concurrency test's mixed load (test/api/concurrency.test.ts), for real `cadence serve`
 * processes reached over HTTP: six reads and four writes in every ten requests, each client in
 * one org, every prospect carrying its org's marker so that a row of another org shows itself.
 * A request that fails to get its expected status (a network error included) is an error.
 */

export interface LoadTally {
  requests: number;
  errors: string[];
  foreignRows: number;
  /** Requests by the base URL they went to. */
  readonly byBase: Map<string, number>;
  /** Requests by org id, for comparing with the rate limit's counts. */
  readonly byOrg: Map<number, number>;
}

export function newTally(): LoadTally {
  return { requests: 0, errors: [], foreignRows: 0, byBase: new Map(), byOrg: new Map() };
}

export const orgMarker = (org: CreatedOrg) => `org-${org.orgId}`;

export interface LoadClient {
  readonly index: number;
  readonly org: CreatedOrg;
  /** Where the n-th request of this client goes. */
  readonly base: (n: number) => string;
  /** Whether to make the n-th request: a fixed number of steps, or until the test says stop. */
  readonly more: (n: number) => boolean;
  /** A pause after each request, for a steady load rather than as many requests as the machine can take. */
  readonly pauseMs?: number;
}

interface Answer {
  status: number;
  body: any;
}

async function send(base: string, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': MEDIA_TYPE }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // A balancer's own error pages are HTML: kept as text, to show in the error.
  const json = response.headers.get('content-type')?.includes('json') && text !== '';
  return { status: response.status, body: json ? JSON.parse(text) : text.slice(0, 80) || null };
}

export async function runLoadClient(client: LoadClient, tally: LoadTally): Promise<void> {
  const { org, index } = client;
  const own = orgMarker(org);
  const created: number[] = [];
  for (let step = 0; client.more(step); step++) {
    const base = client.base(step);
    const request = async (label: string, method: string, path: string, expected: number, body?: unknown): Promise<Answer | undefined> => {
      tally.requests++;
      tally.byBase.set(base, (tally.byBase.get(base) ?? 0) + 1);
      tally.byOrg.set(org.orgId, (tally.byOrg.get(org.orgId) ?? 0) + 1);
      try {
        const answer = await send(base, method, path, org.token, body);
        if (answer.status === expected) return answer;
        tally.errors.push(`${label}: ${answer.status} ${JSON.stringify(answer.body?.errors?.[0] ?? answer.body)}`);
      } catch (error) {
        tally.errors.push(`${label}: ${(error as Error).message} (${String((error as { cause?: unknown }).cause)})`);
      }
      return undefined;
    };
    const kind = step % 10;
    if (kind < 4) {
      const answer = await request('create', 'POST', '/api/v2/prospects', 201, {
        data: { type: 'prospect', attributes: { firstName: own, lastName: `client ${index}` } },
      });
      if (answer) created.push(Number(answer.body.data.id));
    } else if (kind < 7 || created.length === 0) {
      const answer = await request('list', 'GET', '/api/v2/prospects?page[size]=20&sort=-id', 200);
      for (const row of answer?.body?.data ?? []) if (row.attributes.firstName !== own) tally.foreignRows++;
    } else if (kind < 9) {
      const answer = await request('get', 'GET', `/api/v2/prospects/${created[step % created.length]!}`, 200);
      if (answer && answer.body?.data?.attributes?.firstName !== own) tally.foreignRows++;
    } else {
      const id = created[step % created.length]!;
      await request('update', 'PATCH', `/api/v2/prospects/${id}`, 200, { data: { type: 'prospect', id: String(id), attributes: { title: `step ${step}` } } });
    }
    if (client.pauseMs) await sleep(client.pauseMs);
  }
}
