import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg, type OrgClient } from '../helpers/bulk-actions.js';
import { duringWork, prospectsPageProbe } from '../helpers/latency.js';
import { listOf } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * Issue #25: a compliance request in a large org must not stall the other tenants. One org has
 * 20,000 prospects, 14,000 events and 28,000 batch items about them, and an uploaded CSV of them
 * all (6 MB); while a deletion request for one address runs there, with the API and the worker in
 * this one process (as `npm start` runs them), another org's GET /api/v2/prospects is sent every
 * 100 ms. None may fail, none wait 2 s or more, and 95% answer within 600 ms.
 */

const PROSPECTS = 20_000;
const EVENTS = 14_000;
const ITEMS = 28_000;

let api: TestApi;
let worker: StartedWorker;

beforeAll(async () => {
  api = await startTestApi({ poolSize: 4 });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 4,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
  });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

/** Prospect n's address; the request erases prospect 1's (`person1@`), which prospects 10 and 11 also hold. */
const addressOf = (n: number) => `person${n}@large.example.test`;
const ERASED = addressOf(1);
/** What makes each CSV row about 300 bytes, as a real export's would be with its many columns. */
const NOTES = 'Met at the fair, wants a demo; call back in spring. '.repeat(4);

/**
 * The large org, set-based: prospects with addresses, an event for each of the first EVENTS with
 * its attributes as the writer logs them, a bulk upsert's batch with two items for each of the
 * first ITEMS / 2, and an uploaded CSV of every prospect (1 MiB chunks, as uploads store them).
 */
async function seedLargeOrg(orgId: number): Promise<void> {
  await api.sql`
    insert into prospects (org_id, first_name, last_name, emails, created_at, updated_at)
    select ${orgId}, 'First' || g, 'Last' || g,
           array[case when g in (10, 11) then ${ERASED} else 'person' || g || '@large.example.test' end], now(), now()
      from generate_series(1, ${PROSPECTS}) g`;
  await api.sql`
    insert into events (org_id, name, action, resource_type, resource_id, payload, created_at, updated_at)
    select p.org_id, 'prospect.created', 'created', 'prospect', p.id,
           jsonb_build_object('data', jsonb_build_object('type', 'prospect', 'id', p.id,
             'attributes', jsonb_build_object('firstName', p.first_name, 'lastName', p.last_name, 'emails', to_jsonb(p.emails),
               'title', 'Head of Something', 'company', 'Large Example Ltd', 'notes', repeat('Met at the fair; wants a demo. ', 40)))), now(), now()
      from prospects p where p.org_id = ${orgId} order by p.id limit ${EVENTS}`;
  const [batch] = await api.sql<{ id: string }[]>`
    insert into batches (org_id, action, state, total, pending, failures, created_at, updated_at)
    values (${orgId}, 'bulk_upsert', 'finished', ${ITEMS}, 0, 0, now(), now()) returning id`;
  await api.sql`
    insert into batch_items (org_id, batch_id, item_id, state, data, info, created_at, updated_at)
    select p.org_id, ${batch!.id}, p.id, 'success',
           json_build_object('type', 'prospect', 'attributes', json_build_object('firstName', p.first_name, 'emails', p.emails, 'notes', repeat('Call back in spring. ', 20)))::text,
           'updated', now(), now()
      from prospects p, generate_series(1, 2) copy where p.org_id = ${orgId} and p.id in (select id from prospects where org_id = ${orgId} order by id limit ${ITEMS / 2})`;
  const csv = Buffer.from(
    [
      'First Name,Last Name,Email,Title,Company,Notes',
      ...Array.from({ length: PROSPECTS }, (_, i) => `First${i + 1},Last${i + 1},${addressOf(i + 1)},Head of Something,Large Example Ltd,"${NOTES}"`),
    ].join('\n') + '\n',
  );
  const [upload] = await api.sql<{ key: string }[]>`
    insert into uploads (org_id, storage_key, state, byte_size, created_at, expires_at, uploaded_at)
    values (${orgId}, gen_random_uuid(), 'uploaded', ${csv.length}, now(), now() + interval '1 day', now()) returning storage_key as key`;
  const chunk = 1024 * 1024;
  for (let seq = 0; seq * chunk < csv.length; seq++) {
    await api.sql`insert into upload_chunks (org_id, storage_key, seq, bytes) values (${orgId}, ${upload!.key}, ${seq}, ${csv.subarray(seq * chunk, (seq + 1) * chunk)})`;
  }
  await api.sql`analyze prospects, events, batch_items`;
}

async function adminEmail(org: OrgClient): Promise<string> {
  const [row] = await api.sql<{ email: string }[]>`select email from users where org_id = ${org.orgId} and id = ${org.userId}`;
  return row!.email;
}

describe('a compliance request in a large org', () => {
  it("does not stall another org's requests", async () => {
    const large = await freshOrg(api, 'Large org');
    const bystander = await freshOrg(api, 'Bystander org');
    await seedLargeOrg(large.orgId);

    const started = performance.now();
    const { latency } = await duringWork(
      async () => {
        const response = await large.request('POST', '/api/v2/complianceRequests', {
          body: {
            data: {
              type: 'complianceRequest',
              attributes: { requester_email: await adminEmail(large), request_type: 'Delete', object_type: 'Prospect', request_object_email: ERASED },
            },
          },
        });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
        const batch = response.body.data.batch_compliance_request_id;
        return until(
          'the compliance request to be done',
          async () => {
            const [request] = await listOf(large, `complianceRequests?filter[batchComplianceRequest]=${batch}`);
            return request?.attributes.state === 'done' ? request : undefined;
          },
          240_000,
        );
      },
      prospectsPageProbe(api.baseUrl, bystander.token),
    );
    const measured = JSON.stringify({ requestMs: Math.round(performance.now() - started), ...latency });
    // COMPLIANCE_TEST_REPORT=1 prints what was measured.
    if (process.env.COMPLIANCE_TEST_REPORT) console.log(measured);
    expect(latency.failures, measured).toEqual([]);
    expect(latency.worstWaitMs, measured).toBeLessThan(2000);
    expect(latency.p95WaitMs, measured).toBeLessThan(600);

    const [left] = await api.sql<{ prospects: number; events: number; items: number; chunks: number; kept: number }[]>`
      select (select count(*)::int from prospects where org_id = ${large.orgId} and ${ERASED} = any(emails)) as prospects,
             (select count(*)::int from events where org_id = ${large.orgId} and payload::text like ${'%' + ERASED + '%'}) as events,
             (select count(*)::int from batch_items where org_id = ${large.orgId} and data like ${'%' + ERASED + '%'}) as items,
             (select count(*)::int from upload_chunks where org_id = ${large.orgId} and position(${ERASED}::bytea in bytes) > 0) as chunks,
             (select count(*)::int from prospects where org_id = ${large.orgId}) as kept`;
    expect(left).toEqual({ prospects: 0, events: 0, items: 0, chunks: 0, kept: PROSPECTS - 3 });
  }, 300_000);
});
