import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrg } from '../../runtime/admin/index.js';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api.js';
import { idleInTransaction } from '../helpers/pool.js';

/**
 * More concurrent clients than pool connections (the test server's pool holds 4), mixing reads
 * and writes of two orgs. A connection that went back to the pool while its transaction was
 * still open would hand the next request another org's settings and role: errors, or rows of
 * the wrong org.
 */

const CLIENTS = 20;
// A fixed amount of work per client, not a time: a loaded machine makes it slower, never smaller.
const STEPS = 15;

let api: TestApi;
let orgs: CreatedOrg[];
beforeAll(async () => {
  api = await startTestApi();
  orgs = [api.org, await api.newOrg('Second org')];
});
afterAll(async () => {
  await api?.close();
});

/** Every prospect carries its org's marker, so a row of the other org shows itself. */
const marker = (org: CreatedOrg) => `org-${org.orgId}`;

interface Tally {
  requests: number;
  errors: string[];
  foreignRows: number;
}

async function client(index: number, tally: Tally): Promise<void> {
  const org = orgs[index % orgs.length]!;
  const own = marker(org);
  const record = (label: string, response: ApiResponse, expected: number) => {
    tally.requests++;
    if (response.status !== expected) tally.errors.push(`${label}: ${response.status} ${JSON.stringify(response.body?.errors?.[0] ?? null)}`);
  };
  const created: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    // Six reads and four writes in every ten requests, as the load that found the defect.
    const kind = step % 10;
    if (kind < 4) {
      const response = await api.request('POST', '/api/v2/prospects', {
        token: org.token,
        body: { data: { type: 'prospect', attributes: { firstName: own, lastName: `client ${index}` } } },
      });
      record('create', response, 201);
      if (response.status === 201) created.push(Number(response.body.data.id));
    } else if (kind < 7 || created.length === 0) {
      const response = await api.request('GET', '/api/v2/prospects?page[size]=20&sort=-id', { token: org.token });
      record('list', response, 200);
      for (const row of response.body?.data ?? []) if (row.attributes.firstName !== own) tally.foreignRows++;
    } else if (kind < 9) {
      const id = created[step % created.length]!;
      const response = await api.request('GET', `/api/v2/prospects/${id}`, { token: org.token });
      record('get', response, 200);
      if (response.body?.data?.attributes?.firstName !== own) tally.foreignRows++;
    } else {
      const id = created[step % created.length]!;
      const response = await api.request('PATCH', `/api/v2/prospects/${id}`, {
        token: org.token,
        body: { data: { type: 'prospect', id: String(id), attributes: { title: `step ${step}` } } },
      });
      record('update', response, 200);
    }
  }
}

describe('concurrency beyond the pool', () => {
  it(`${CLIENTS} clients of mixed reads and writes across two orgs: no errors, no foreign rows, pool idle after`, async () => {
    const tally: Tally = { requests: 0, errors: [], foreignRows: 0 };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i, tally)));
    console.log(`concurrency: ${tally.requests} requests by ${CLIENTS} clients over a pool of 4, ${tally.errors.length} errors, ${tally.foreignRows} foreign rows`);
    expect(tally.errors.slice(0, 5)).toEqual([]);
    expect(tally.foreignRows).toBe(0);
    expect(tally.requests).toBe(CLIENTS * STEPS);
    expect(await idleInTransaction(api.sql)).toEqual([]);
  });
});
