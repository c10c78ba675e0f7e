import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allScopes } from '../../runtime/auth/index.js';
import { RUN_TASK_TASK } from '../../runtime/compliance/index.js';
import { STEP_RUNNER_TASK } from '../../runtime/sequences/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, freshOrg, newUserId, orgClient, type OrgClient } from '../helpers/bulk-actions.js';
import { enrol, listOf, sequenceWith, stateOf, stepsSettled } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * The sandbox's test clock (issue #28 item 6), with real parts: a server in sandbox mode
 * (CADENCE_SANDBOX=true), a real graphile-worker in sandbox mode and real time. Advancing an
 * org's clock makes what it scheduled run at once, with the moved time written; other orgs keep
 * real time. A second server on the same database without sandbox mode knows no clock routes.
 */

const DAY_SECONDS = 24 * 60 * 60;
const DAY_MS = DAY_SECONDS * 1000;
/** How far a time written "now" may be from the test's own reading of it. */
const SLACK_MS = 60_000;

let api: TestApi;
let plain: TestApi;
let worker: StartedWorker;
/** Runs of compliance prospect tasks still to fail on purpose (the retry test sets it). */
let prospectRunsToFail = 0;

beforeAll(async () => {
  api = await startTestApi({ sandbox: true });
  plain = await startTestApi({ databaseOf: api });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    sandbox: true,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
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
  await plain?.close();
  await api?.close();
});

function expectNear(actual: string, expected: number): void {
  expect(Math.abs(new Date(actual).getTime() - expected), `${actual} should be near ${new Date(expected).toISOString()}`).toBeLessThan(SLACK_MS);
}

function advanceBy(org: OrgClient, seconds: string | number, options: { token?: string } = {}) {
  return org.request('POST', `/api/v2/sandbox/clock/actions/advance?actionParams[seconds]=${seconds}`, options);
}

async function prospect(org: OrgClient): Promise<number> {
  return create(org, 'prospects', 'prospect', { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`] });
}

/** An org with a two-step interval sequence: an e-mail at once, a call a day later. */
async function twoStepOrg(name: string) {
  const org = await freshOrg(api, name);
  const owner = await newUserId(api, org);
  const fixture = await sequenceWith(org, owner, 'interval', [
    { stepType: 'auto_email', interval: 0 },
    { stepType: 'call', interval: 24 * 60 },
  ]);
  return { org, fixture };
}

/** Enrols a prospect and waits for step 1 to run (real worker, real time): the state is then on step 2. */
async function enrolledPastStepOne(org: OrgClient, fixture: Awaited<ReturnType<typeof twoStepOrg>>['fixture']): Promise<number> {
  const enrolled = await enrol(org, await prospect(org), fixture);
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
  const stateId = Number(enrolled.body.data.id);
  await until('step 1 to run', async () => ((await stateOf(org, stateId)).step === fixture.steps[1] ? true : undefined));
  return stateId;
}

async function stepTwoDue(orgId: number, stateId: number): Promise<{ dueAt: Date; runAt: Date } | undefined> {
  const [row] = await api.sql<{ due_at: Date; run_at: Date }[]>`
    select d.due_at, j.run_at from sequence_steps_due d
      join graphile_worker._private_jobs j on j.key = ${STEP_RUNNER_TASK} || ':' || d.org_id || ':' || to_char(d.due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
     where d.org_id = ${orgId} and d.sequence_state_id = ${stateId}`;
  return row && { dueAt: row.due_at, runAt: row.run_at };
}

describe('GET /api/v2/sandbox/clock', () => {
  it("answers the org's time and offset: real time until it is advanced", async () => {
    const org = await freshOrg(api, 'Clock reader');
    const response = await org.request('GET', '/api/v2/sandbox/clock');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ type: 'sandboxClock', id: String(org.orgId), attributes: { offsetSeconds: 0 } });
    expectNear(response.body.data.attributes.now, Date.now());
  });
});

describe('the clock advancing a two-step interval sequence a day in one call', () => {
  it('runs step 2 at once, writes its times in the moved time, and leaves another org alone', async () => {
    const { org, fixture } = await twoStepOrg('Advanced');
    const other = await twoStepOrg('Not advanced');
    const stateId = await enrolledPastStepOne(org, fixture);
    const otherStateId = await enrolledPastStepOne(other.org, other.fixture);
    const enrolledAt = Date.now();

    // Step 2 is due a day from now, and its runner job waits for that real time.
    const due = await stepTwoDue(org.orgId, stateId);
    expect(due, 'step 2 scheduled with its runner job').toBeDefined();
    expectNear(due!.dueAt.toISOString(), enrolledAt + DAY_MS);
    expect(due!.runAt.getTime()).toBe(due!.dueAt.getTime());
    await stepsSettled(api);
    expect(await listOf(org, `tasks?filter[sequenceState][id]=${stateId}`)).toEqual([]);

    // One call moves the org a day on.
    const advanced = await advanceBy(org, DAY_SECONDS);
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    expect(advanced.body.data).toMatchObject({ type: 'sandboxClock', id: String(org.orgId), attributes: { offsetSeconds: DAY_SECONDS } });
    expectNear(advanced.body.data.attributes.now, Date.now() + DAY_MS);

    // Step 2 runs promptly (the real worker, no hand on the job queue): its call task, due and made in the moved time.
    const [task] = await until('step 2 to run', async () => {
      const found = await listOf(org, `tasks?filter[sequenceState][id]=${stateId}`);
      return found.length ? found : undefined;
    });
    expect(task.attributes).toMatchObject({ action: 'call', taskType: 'sequence_step_call', state: 'incomplete' });
    expect(task.relationships.sequenceStep.data.id).toBe(fixture.steps[1]);
    expectNear(task.attributes.dueAt, Date.now() + DAY_MS);
    expectNear(task.attributes.createdAt, Date.now() + DAY_MS);
    expect(new Date(task.attributes.dueAt).getTime()).toBeGreaterThanOrEqual(due!.dueAt.getTime());
    const [runRow] = await api.sql<{ ran_at: Date }[]>`select max(created_at) as ran_at from events where org_id = ${org.orgId} and resource_type = 'task'`;
    expectNear(runRow!.ran_at.toISOString(), Date.now() + DAY_MS);

    // A record the API writes for the org now is stamped in its time too.
    const later = await org.request('GET', `/api/v2/prospects/${await prospect(org)}`);
    expectNear(later.body.data.attributes.createdAt, Date.now() + DAY_MS);

    // The other org: still real time, step 2 still a day away, its job untouched, nothing run.
    const otherClock = await other.org.request('GET', '/api/v2/sandbox/clock');
    expect(otherClock.body.data.attributes.offsetSeconds).toBe(0);
    expectNear(otherClock.body.data.attributes.now, Date.now());
    const otherDue = await stepTwoDue(other.org.orgId, otherStateId);
    expectNear(otherDue!.runAt.toISOString(), enrolledAt + DAY_MS);
    await stepsSettled(api);
    expect(await listOf(other.org, `tasks?filter[sequenceState][id]=${otherStateId}`)).toEqual([]);
    const otherProspect = await other.org.request('GET', `/api/v2/prospects/${await prospect(other.org)}`);
    expectNear(otherProspect.body.data.attributes.createdAt, Date.now());
  });

  it('keeps steps scheduled after an advance in the moved time, run at the real time that matches it', async () => {
    const { org, fixture } = await twoStepOrg('Advanced first');
    expect((await advanceBy(org, 3 * DAY_SECONDS)).status).toBe(200);
    const stateId = await enrolledPastStepOne(org, fixture);
    const due = await stepTwoDue(org.orgId, stateId);
    // Due a day after the org's now (four days ahead of real time), its job a day after real now.
    expectNear(due!.dueAt.toISOString(), Date.now() + 4 * DAY_MS);
    expectNear(due!.runAt.toISOString(), Date.now() + DAY_MS);
    const [mailing] = await listOf(org, `mailings?filter[sequenceState][id]=${stateId}`);
    expectNear(mailing.attributes.createdAt, Date.now() + 3 * DAY_MS);
  });
});

describe('what else the org scheduled', () => {
  it('a mailing scheduled two hours ahead is sent at once when the clock passes its time, delivered in the moved time', async () => {
    const org = await freshOrg(api, 'Sends');
    const owner = await newUserId(api, org);
    // No SMTP settings and no SMTP_URL: the local transport, which stores the message.
    const mailbox = await create(org, 'mailboxes', 'mailbox', { email: `rep${Math.random()}@example.test` }, { user: { type: 'user', id: owner } });
    const scheduledAt = new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString();
    const mailing = await create(
      org,
      'mailings',
      'mailing',
      { state: 'scheduled', subject: 'Later', bodyHtml: '<p>Later</p>', scheduledAt },
      { mailbox: { type: 'mailbox', id: mailbox }, prospect: { type: 'prospect', id: await prospect(org) } },
    );
    const [job] = await api.sql<{ run_at: Date }[]>`select run_at from graphile_worker._private_jobs where payload ->> 'orgId' = ${String(org.orgId)} and run_at > now()`;
    expectNear(job!.run_at.toISOString(), Date.parse(scheduledAt));

    expect((await advanceBy(org, 2 * 60 * 60)).status).toBe(200);
    const delivered = await until('the mailing to be delivered', async () => {
      const found = (await org.request('GET', `/api/v2/mailings/${mailing}`)).body.data.attributes;
      return found.state === 'delivered' ? found : undefined;
    });
    expect(new Date(delivered.deliveredAt).getTime()).toBeGreaterThanOrEqual(Date.parse(scheduledAt));
    expectNear(delivered.deliveredAt, Date.now() + 2 * 60 * 60 * 1000);
  });

  it('a failed compliance task is retried as soon as the clock passes its next attempt, which is in the moved time', async () => {
    const org = await freshOrg(api, 'Compliance retries');
    const address = `erase${Math.random()}@example.test`;
    await create(org, 'prospects', 'prospect', { firstName: 'Erin', emails: [address] });
    const [admin] = await api.sql<{ email: string }[]>`select email from users where org_id = ${org.orgId} and id = ${org.userId}`;
    prospectRunsToFail = 2;
    const submitted = await org.request('POST', '/api/v2/complianceRequests', {
      body: {
        data: {
          type: 'complianceRequest',
          attributes: { requester_email: admin!.email, request_type: 'Delete', object_type: 'Prospect', request_object_email: address },
        },
      },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const batch = submitted.body.data.batch_compliance_request_id;
    const failedTimes = (attempts: number) =>
      until(`the prospect task to have failed ${attempts} times`, async () => {
        const tasks = await listOf(org, `complianceRequestTasks?filter[kind]=prospect`);
        return tasks.find((t) => t.attributes.attempts === attempts && t.attributes.state === 'temporary_failure')?.attributes;
      });

    // First failure: retried 10 seconds later by real time, the org's.
    expectNear((await failedTimes(1)).nextAttemptAt, Date.now() + 10_000);
    // An hour on: the retry runs at once and fails again; its next attempt is 20 seconds after the moved now.
    expect((await advanceBy(org, 3600)).status).toBe(200);
    expectNear((await failedTimes(2)).nextAttemptAt, Date.now() + 3600_000 + 20_000);
    // Another hour: the retry's job is due at once, not 20 real seconds on, and the third run succeeds.
    expect((await advanceBy(org, 3600)).status).toBe(200);
    const [waiting] = await api.sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier = ${RUN_TASK_TASK} and j.payload ->> 'orgId' = ${String(org.orgId)} and j.run_at > now()`;
    expect(waiting!.n).toBe(0);
    const done = await until('the compliance request to be done', async () => {
      const [request] = await listOf(org, `complianceRequests?filter[batchComplianceRequest]=${batch}`);
      return request?.attributes.state === 'done' ? request : undefined;
    });
    expectNear(done.attributes.updatedAt, Date.now() + 2 * 3600_000);
  });

  it("snoozing a task with no dueAt moves it a day past the org's now", async () => {
    const org = await freshOrg(api, 'Snooze');
    expect((await advanceBy(org, 3 * DAY_SECONDS)).status).toBe(200);
    const task = await create(org, 'tasks', 'task', { action: 'action_item', dueAt: new Date().toISOString() }, { owner: { type: 'user', id: org.userId } });
    const snoozed = await org.request('POST', `/api/v2/tasks/${task}/actions/snooze`);
    expect(snoozed.status, JSON.stringify(snoozed.body)).toBe(200);
    expectNear(snoozed.body.data.attributes.dueAt, Date.now() + 4 * DAY_MS);
  });
});

describe('POST /api/v2/sandbox/clock/actions/advance: refusals', () => {
  it.each([
    ['0', 'an integer in digits from 1 to 315360000'],
    ['-5', 'an integer in digits from 1 to 315360000'],
    ['1.5', 'an integer in digits from 1 to 315360000'],
    ['1d', 'an integer in digits from 1 to 315360000'],
    ['315360001', 'an integer in digits from 1 to 315360000'],
  ])('refuses seconds=%s', async (seconds, expected) => {
    const org = orgClient(api, api.org);
    const response = await advanceBy(org, seconds);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        id: 'invalidQueryParameter',
        status: '400',
        title: 'Bad Request',
        detail: `actionParams[seconds] must be ${expected}`,
        source: { parameter: 'actionParams[seconds]' },
      },
    ]);
  });

  it('refuses a missing seconds', async () => {
    const response = await api.request('POST', '/api/v2/sandbox/clock/actions/advance');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { id: 'invalidQueryParameter', status: '400', title: 'Bad Request', detail: 'actionParams[seconds] is required', source: { parameter: 'actionParams[seconds]' } },
    ]);
  });

  it("refuses a token that is not an admin's, and the clock stays", async () => {
    const org = await freshOrg(api, 'Not an admin');
    const token = await api.newUserToken(org.orgId, allScopes(['prospects']), false);
    const response = await advanceBy(org, 60, { token });
    expect(response.status).toBe(403);
    expect(response.body.errors[0]).toMatchObject({ id: 'adminOnly', status: '403' });
    expect((await org.request('GET', '/api/v2/sandbox/clock')).body.data.attributes.offsetSeconds).toBe(0);
  });
});

describe('without CADENCE_SANDBOX=true', () => {
  it('has no clock routes: 404 as for any unknown route', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/sandbox/clock'],
      ['POST', '/api/v2/sandbox/clock/actions/advance?actionParams[seconds]=60'],
    ] as const) {
      const response = await plain.request(method, path);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.errors[0]).toMatchObject({ status: '404' });
    }
  });
});
