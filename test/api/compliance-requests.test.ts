import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_TASK_TASK } from '../../runtime/compliance/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, freshOrg, newUserId, settled, userWithScopes, type OrgClient } from '../helpers/bulk-actions.js';
import { importCsv } from '../helpers/imports.js';
import { enrol, listOf, MINUTE, releaseDueJobs, SimulatedClock, sequenceWith } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * Compliance deletion requests (issue #17, SPEC.md "Compliance request"): created over HTTP with
 * SPEC.md's snake_case attributes, processed by a real graphile-worker on a simulated clock,
 * destroyed webhooks delivered to a real HTTPS receiver on loopback.
 */

const HOOK_HOST = 'hooks.example.test';
let api: TestApi;
let worker: StartedWorker;
let certificate: TestCertificate;
let receiver: Receiver;
const clock = new SimulatedClock();
/** Runs of prospect tasks still to fail on purpose (the fault-injection test sets it). */
let prospectRunsToFail = 0;

beforeAll(async () => {
  certificate = await makeCertificate('*.example.test');
  receiver = await startReceiver(certificate, (_request, response) => response.end('ok'));
  api = await startTestApi({ clock: clock.now });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    clock: clock.now,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set([HOOK_HOST]), ca: certificate.cert, resolver: async () => ['127.0.0.1'] },
    complianceFaults: ({ kind }) => {
      if (kind === 'prospect' && prospectRunsToFail > 0) {
        prospectRunsToFail--;
        throw new Error('injected fault: the database went away');
      }
    },
  });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await receiver?.close();
});

async function adminEmail(org: OrgClient): Promise<string> {
  const [row] = await api.sql<{ email: string }[]>`select email from users where org_id = ${org.orgId} and id = ${org.userId}`;
  return row!.email;
}

function requestBody(attributes: Record<string, unknown>) {
  return { body: { data: { type: 'complianceRequest', attributes } } };
}

async function submit(org: OrgClient, address: string): Promise<string> {
  const response = await org.request(
    'POST',
    '/api/v2/complianceRequests',
    requestBody({ requester_email: await adminEmail(org), request_type: 'Delete', object_type: 'Prospect', request_object_email: address }),
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(Object.keys(response.body.data)).toEqual(['batch_compliance_request_id']);
  return response.body.data.batch_compliance_request_id;
}

async function requestOf(org: OrgClient, batch: string) {
  const [request] = await listOf(org, `complianceRequests?filter[batchComplianceRequest]=${batch}`);
  return request;
}

async function tasksOf(org: OrgClient, requestId: number | string) {
  return listOf(org, `complianceRequestTasks?filter[complianceRequest][id]=${requestId}&sort=id`);
}

async function untilDone(org: OrgClient, batch: string) {
  return until(
    'the compliance request to be done',
    async () => {
      await releaseDueRetries();
      const request = await requestOf(org, batch);
      return request?.attributes.state === 'done' ? request : undefined;
    },
    60_000,
  );
}

/** Makes the task runs due by the simulated clock (retries) runnable now. */
const releaseDueRetries = () => releaseDueJobs(api, clock, RUN_TASK_TASK);

async function status(org: OrgClient, path: string): Promise<number> {
  return (await org.request('GET', `/api/v2/${path}`)).status;
}

describe('POST /api/v2/complianceRequests', () => {
  it('answers 201 with the batch UUID, and the request is readable by it', async () => {
    const org = await freshOrg(api, 'Compliance create');
    const batch = await submit(org, 'nobody@example.test');
    expect(batch).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const request = await requestOf(org, batch);
    expect(request.attributes).toMatchObject({ batchComplianceRequest: batch, requestType: 'Delete', objectType: 'Prospect', requesterEmail: await adminEmail(org) });
    expect(['pending', 'running', 'done']).toContain(request.attributes.state);
    expect(request.relationships.requester.data).toEqual({ type: 'user', id: org.userId });
  });

  it('takes 12 concurrent creates on a pool of 4 connections, each its own request', async () => {
    const org = await freshOrg(api, 'Compliance concurrency');
    const batches = await Promise.all(Array.from({ length: 12 }, (_, i) => submit(org, `concurrent${i}@example.test`)));
    expect(new Set(batches).size).toBe(12);
    const listed = await listOf(org, 'complianceRequests');
    expect(listed.map((r) => r.attributes.batchComplianceRequest).sort()).toEqual([...batches].sort());
  });

  it('refuses missing and unacceptable attributes with one 422 each, pointing at them', async () => {
    const org = await freshOrg(api, 'Compliance refusals');
    const missing = await org.request('POST', '/api/v2/complianceRequests', requestBody({}));
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/requester_email',
      '/data/attributes/request_type',
      '/data/attributes/object_type',
      '/data/attributes/request_object_email',
    ]);
    const wrong = await org.request(
      'POST',
      '/api/v2/complianceRequests',
      requestBody({ requester_email: await adminEmail(org), request_type: 'Export', object_type: 'Account', request_object_email: 'not an address' }),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([
      {
        id: 'validationError',
        status: '422',
        title: 'Validation Error',
        detail: 'request_type must be "Delete", not "Export"',
        source: { pointer: '/data/attributes/request_type' },
      },
      {
        id: 'validationError',
        status: '422',
        title: 'Validation Error',
        detail: 'object_type must be "Prospect", not "Account"',
        source: { pointer: '/data/attributes/object_type' },
      },
      {
        id: 'validationError',
        status: '422',
        title: 'Validation Error',
        detail: 'request_object_email must be an e-mail address',
        source: { pointer: '/data/attributes/request_object_email' },
      },
    ]);
  });

  it('refuses a requester who is no user of the organisation, and writes nothing', async () => {
    const org = await freshOrg(api, 'Compliance requester');
    const other = await freshOrg(api, 'Compliance other org');
    const response = await org.request(
      'POST',
      '/api/v2/complianceRequests',
      requestBody({ requester_email: await adminEmail(other), request_type: 'Delete', object_type: 'Prospect', request_object_email: 'x@example.test' }),
    );
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({ id: 'validationError', source: { pointer: '/data/attributes/requester_email' } });
    expect(await listOf(org, 'complianceRequests')).toEqual([]);
  });

  it('needs the complianceRequests.write scope', async () => {
    const org = await freshOrg(api, 'Compliance scope');
    const reader = await userWithScopes(api, org, ['complianceRequests.read']);
    const response = await reader.request(
      'POST',
      '/api/v2/complianceRequests',
      requestBody({ requester_email: await adminEmail(org), request_type: 'Delete', object_type: 'Prospect', request_object_email: 'x@example.test' }),
    );
    expect(response.status).toBe(403);
  });

  it('answers 400 for a body that is not JSON, and 409 for another type', async () => {
    const org = await freshOrg(api, 'Compliance body');
    expect((await org.request('POST', '/api/v2/complianceRequests', { rawBody: '{' })).status).toBe(400);
    const typed = await org.request('POST', '/api/v2/complianceRequests', { body: { data: { type: 'prospect', attributes: {} } } });
    expect(typed.status).toBe(409);
    expect(typed.body.errors[0].source).toEqual({ pointer: '/data/type' });
  });
});

describe('a deletion request', () => {
  it('deletes every prospect with the address and the records tied to them, fires destroyed webhooks, and leaves the rest', async () => {
    const address = `Jane.Doe.${Date.now()}@Example.test`;
    const org = await freshOrg(api, 'Compliance deletion');
    const other = await freshOrg(api, 'Compliance bystander');
    const hook = await org.request('POST', '/api/v2/webhooks', {
      body: { data: { type: 'webhook', attributes: { url: `https://${HOOK_HOST}:${receiver.port}/compliance-${org.orgId}`, resource: '*', action: 'destroyed' } } },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);

    // One prospect with the address in `emails` (another case), one with it as an emailAddress record.
    const jane = await create(org, 'prospects', 'prospect', { firstName: 'Jane', emails: [address.toLowerCase()] });
    const janeAgain = await create(org, 'prospects', 'prospect', { firstName: 'Jane', lastName: 'Second' });
    const janeAddress = await create(org, 'emailAddresses', 'emailAddress', { email: address.toUpperCase() }, { prospect: { type: 'prospect', id: janeAgain } });
    const kept = await create(org, 'prospects', 'prospect', { firstName: 'Kept', emails: ['kept@example.test'] });
    const elsewhere = await create(other, 'prospects', 'prospect', { firstName: 'Jane', emails: [address] });

    const owner = await newUserId(api, org);
    const note = await create(org, 'prospectNotes', 'prospectNote', { message: `Met ${address}` }, { prospect: { type: 'prospect', id: jane } });
    const call = await create(org, 'calls', 'call', { direction: 'outbound', outcome: 'completed' }, { prospect: { type: 'prospect', id: jane } });
    const task = await create(
      org,
      'tasks',
      'task',
      { action: 'call', dueAt: clock.now().toISOString() },
      { prospect: { type: 'prospect', id: jane }, owner: { type: 'user', id: owner } },
    );
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'task', interval: 24 * 60 }]);
    const enrolled = await enrol(org, janeAgain, fixture);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    const state = Number(enrolled.body.data.id);
    const mailing = await create(
      org,
      'mailings',
      'mailing',
      { subject: 'Hello', bodyHtml: '<p>Hi</p>', state: 'drafted' },
      { prospect: { type: 'prospect', id: jane }, mailbox: { type: 'mailbox', id: fixture.mailbox } },
    );
    const keptNote = await create(org, 'prospectNotes', 'prospectNote', { message: 'Unrelated' }, { prospect: { type: 'prospect', id: kept } });

    const batch = await submit(org, address);
    const request = await untilDone(org, batch);
    expect(request.attributes.requestObjectEmail).toBeNull();
    expect(request.attributes.pii).toMatchObject({ prospectsDeleted: 2 });

    for (const path of [
      `prospects/${jane}`,
      `prospects/${janeAgain}`,
      `emailAddresses/${janeAddress}`,
      `prospectNotes/${note}`,
      `calls/${call}`,
      `tasks/${task}`,
      `sequenceStates/${state}`,
      `mailings/${mailing}`,
    ]) {
      expect(await status(org, path), path).toBe(404);
    }
    for (const path of [`prospects/${kept}`, `prospectNotes/${keptNote}`, `sequences/${fixture.sequence}`, `mailboxes/${fixture.mailbox}`]) {
      expect(await status(org, path), path).toBe(200);
    }
    expect(await status(other, `prospects/${elsewhere}`)).toBe(200);

    const tasks = await tasksOf(org, request.id);
    expect(tasks.every((t) => t.attributes.state === 'done')).toBe(true);
    expect(tasks.filter((t) => t.attributes.kind === 'prospect').map((t) => t.attributes.prospectId)).toEqual([jane, janeAgain]);
    expect(tasks.find((t) => t.attributes.kind === 'prospect').relationships.complianceRequest.data).toEqual({ type: 'complianceRequest', id: Number(request.id) });

    // Destroyed webhooks, as for any delete: subscribers can delete downstream.
    const delivered = () =>
      receiver.requests
        .filter((r) => r.path === `/compliance-${org.orgId}`)
        .map((r) => JSON.parse(r.body.toString()))
        .map((d) => `${d.meta.eventName}:${d.data.id}`);
    const expected = [
      `prospect.destroyed:${jane}`,
      `prospect.destroyed:${janeAgain}`,
      `emailAddress.destroyed:${janeAddress}`,
      `prospectNote.destroyed:${note}`,
      `call.destroyed:${call}`,
      `task.destroyed:${task}`,
      `sequenceState.destroyed:${state}`,
      `mailing.destroyed:${mailing}`,
    ];
    await until('the destroyed webhooks', () => (expected.every((e) => delivered().includes(e)) ? true : undefined));
    expect(delivered()).not.toContain(`prospect.destroyed:${kept}`);

    // The address is left nowhere in the org: not in the events (the prospects' created and
    // destroyed events, the note's, the request's own), nor in the request; the other org keeps its own.
    const holding = async (orgId: number) => {
      const [row] = await api.sql<{ events: number; requests: number; attempts: number }[]>`
        select (select count(*)::int from events where org_id = ${orgId} and payload::text ilike ${'%' + address + '%'}) as events,
               (select count(*)::int from compliance_requests where org_id = ${orgId} and request_object_email is not null) as requests,
               (select count(*)::int from webhook_attempts where org_id = ${orgId} and error ilike ${'%' + address + '%'}) as attempts`;
      return row;
    };
    expect(await holding(org.orgId)).toEqual({ events: 0, requests: 0, attempts: 0 });
    expect((await holding(other.orgId))!.events).toBeGreaterThan(0);
    const [redacted] = await api.sql<{ n: number }[]>`select count(*)::int as n from events where org_id = ${org.orgId} and payload::text like '%[redacted]%'`;
    expect(redacted!.n).toBeGreaterThan(0);
  });

  it("scrubs the address from a bulk upsert's items, an imported CSV file and its import keys, over HTTP", async () => {
    const address = `ada.${Date.now()}@example.test`;
    const org = await freshOrg(api, 'Compliance bulk and import');
    const upserted = await org.request('POST', '/api/v2/imports/actions/bulkUpsert', {
      body: {
        data: {
          attributes: {
            records: [
              { data: { type: 'prospect', attributes: { firstName: 'Ada', emails: [address] } } },
              { data: { type: 'prospect', attributes: { firstName: 'Bob', emails: ['bob@example.test'] } } },
            ],
          },
        },
      },
    });
    expect(upserted.status, JSON.stringify(upserted.body)).toBe(200);
    await settled(org, upserted.body.data.id);
    const csv = `First Name,Email\nAda,${address.toUpperCase()}\nCarol,carol@example.test\n`;
    const imported = await importCsv(api, org, csv, { mappings: { 'First Name': 'firstName', Email: 'emails' }, dupeMethod: 'skip' });
    expect(imported.attributes.state).toBe('finished');
    const holding = async () => {
      const [row] = await api.sql<{ items: number; chunks: number; keys: number; prospects: number; others: number }[]>`
        select (select count(*)::int from batch_items where org_id = ${org.orgId} and concat(data, info, errors::text) ilike ${'%' + address + '%'}) as items,
               (select count(*)::int from upload_chunks where org_id = ${org.orgId} and convert_from(bytes, 'UTF8') ilike ${'%' + address + '%'}) as chunks,
               (select count(*)::int from import_keys where org_id = ${org.orgId} and key ilike ${address}) as keys,
               (select count(*)::int from prospects where org_id = ${org.orgId} and array_to_string(emails, ',') ilike ${'%' + address + '%'}) as prospects,
               (select count(*)::int from upload_chunks where org_id = ${org.orgId} and convert_from(bytes, 'UTF8') like '%carol@example.test%') as others`;
      return row!;
    };
    const before = await holding();
    expect(before.items).toBeGreaterThan(0);
    expect(before.chunks).toBe(1);
    expect(before.prospects).toBeGreaterThan(0);

    await untilDone(org, await submit(org, address));
    expect(await holding()).toEqual({ items: 0, chunks: 0, keys: 0, prospects: 0, others: 1 });
    expect((await listOf(org, 'prospects')).map((p) => p.attributes.firstName).sort()).toEqual(['Bob', 'Carol']);
  });

  it('ends done with no prospect found: the address may still be elsewhere', async () => {
    const org = await freshOrg(api, 'Compliance nobody');
    const batch = await submit(org, 'never.seen@example.test');
    const request = await untilDone(org, batch);
    expect(request.attributes.pii).toMatchObject({ prospectsDeleted: 0 });
    expect((await tasksOf(org, request.id)).every((t) => t.attributes.kind !== 'prospect' && t.attributes.state === 'done')).toBe(true);
  });

  it('retries a task that fails, with backoff by the clock, until it is done', async () => {
    const address = `retry.${Date.now()}@example.test`;
    const org = await freshOrg(api, 'Compliance retries');
    const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Retry', emails: [address] });
    // The service's clock well ahead of the database's: a retry, due by the service's clock, can
    // then only run when the test releases it, never on its own while the test is still looking
    // for the failure before it (as it would once the file had run longer than the backoff).
    clock.set(new Date(Date.now() + 10 * MINUTE));
    prospectRunsToFail = 3;
    const batch = await submit(org, address);
    const { id } = await until('the request to be planned', async () => {
      const request = await requestOf(org, batch);
      return request?.attributes.state === 'running' ? request : undefined;
    });
    const prospectTask = async () => (await tasksOf(org, id)).find((t) => t.attributes.kind === 'prospect');

    // Each failure is recorded, and the next run waits for the clock: 10 s, 20 s, 40 s.
    for (const [attempts, delay] of [
      [1, 10_000],
      [2, 20_000],
      [3, 40_000],
    ] as const) {
      const failed = await until(`failure ${attempts}`, async () => {
        const t = await prospectTask();
        return t?.attributes.state === 'temporary_failure' && t.attributes.attempts === attempts ? t : undefined;
      });
      expect(failed.attributes.lastError).toBe('injected fault: the database went away');
      expect(new Date(failed.attributes.nextAttemptAt).getTime() - clock.now().getTime()).toBe(delay);
      expect((await requestOf(org, batch)).attributes.state).toBe('running');
      expect(await status(org, `prospects/${prospect}`)).toBe(200);
      clock.set(new Date(clock.now().getTime() + delay));
      await releaseDueRetries();
    }
    const request = await untilDone(org, batch);
    expect(prospectRunsToFail).toBe(0);
    expect(await status(org, `prospects/${prospect}`)).toBe(404);
    const done = await prospectTask();
    expect(done.attributes).toMatchObject({ state: 'done', attempts: 3, lastError: null, nextAttemptAt: null });
    expect(request.attributes.state).toBe('done');
    clock.set(new Date(clock.now().getTime() + MINUTE));
  }, 90_000);
});
