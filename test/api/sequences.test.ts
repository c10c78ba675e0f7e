import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, eventsOf, freshOrg, newUserId, runAction, type OrgClient } from '../helpers/bulk-actions.js';
import {
  advance,
  enrol,
  listOf,
  MINUTE,
  pendingSteps,
  releaseDueSteps,
  SimulatedClock,
  sequenceWith,
  startClockedWorker,
  stateOf,
  stepsSettled,
} from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';
import { makeCertificate, type TestCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * Sequences that run (issue #15), in simulated time: the API and a real graphile-worker share
 * one clock that moves only when a test says; due steps are rows, run by real runner jobs with
 * run-at times.
 */

const HOOK_HOST = 'hooks.example.test';
let api: TestApi;
let worker: StartedWorker;
let certificate: TestCertificate;
let receiver: Receiver;
const clock = new SimulatedClock();

beforeAll(async () => {
  certificate = await makeCertificate('*.example.test');
  receiver = await startReceiver(certificate, (_request, response) => response.end('ok'));
  api = await startTestApi({ clock: clock.now });
  worker = await startClockedWorker(api, clock, { allowedHosts: new Set([HOOK_HOST]), ca: certificate.cert, resolver: async () => ['127.0.0.1'] });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await receiver?.close();
});

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

async function prospect(org: OrgClient, attributes: Record<string, unknown> = {}): Promise<number> {
  return create(org, 'prospects', 'prospect', { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`], ...attributes });
}

async function tasksOf(org: OrgClient, stateId: number) {
  return listOf(org, `tasks?filter[sequenceState][id]=${stateId}&sort=id`);
}

describe('an interval sequence: e-mail, call, task', () => {
  it('runs from enrolment to finished in simulated time, with pause and resume', async () => {
    const org = await freshOrg(api, 'Interval run');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'auto_email', interval: 0 },
      { stepType: 'call', interval: 60 },
      { stepType: 'task', interval: DAY / MINUTE },
    ]);
    const [email, call, task] = fixture.steps as [number, number, number];
    const who = await prospect(org);

    const enrolled = await enrol(org, who, fixture);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    expect(enrolled.body.data.attributes.state).toBe('active');
    expect(enrolled.body.data.relationships.sequenceStep.data).toEqual({ type: 'sequenceStep', id: email });
    const stateId = Number(enrolled.body.data.id);

    // The e-mail step is due at once: a scheduled mailing, and the state moves to the call.
    await advance(api, clock, 0);
    await until('the e-mail step to run', async () => ((await stateOf(org, stateId)).step === call ? true : undefined));
    const mailings = await listOf(org, `mailings?filter[sequenceState][id]=${stateId}`);
    expect(mailings.map((m) => [m.attributes.state, m.attributes.subject, m.relationships.template.data.id])).toEqual([['scheduled', 'Hello', fixture.template]]);

    // The call is due an hour after the e-mail: not a minute earlier.
    await advance(api, clock, 59 * MINUTE);
    await stepsSettled(api);
    expect(await tasksOf(org, stateId)).toEqual([]);
    await advance(api, clock, MINUTE);
    const [callTask] = await until('the call task', async () => {
      const found = await tasksOf(org, stateId);
      return found.length ? found : undefined;
    });
    expect(callTask.attributes).toMatchObject({ action: 'call', taskType: 'sequence_step_call', state: 'incomplete', dueAt: clock.now().toISOString() });
    expect(callTask.relationships.owner.data).toEqual({ type: 'user', id: owner });
    expect(callTask.relationships.sequenceStep.data.id).toBe(call);

    // Logging the call with meta.complete completes the task, which advances the state.
    const logged = await org.request('POST', '/api/v2/calls', {
      body: {
        data: {
          type: 'call',
          attributes: { direction: 'outbound', outcome: 'completed' },
          relationships: { prospect: { data: { type: 'prospect', id: who } }, task: { data: { type: 'task', id: callTask.id }, meta: { complete: true } } },
        },
      },
    });
    expect(logged.status, JSON.stringify(logged.body)).toBe(201);
    expect((await stateOf(org, stateId)).step).toBe(task);
    expect((await pendingSteps(api)).get(stateId)).toEqual([new Date(clock.now().getTime() + DAY).toISOString()]);

    // Paused, the task step's job is gone: two days pass and nothing runs.
    expect((await org.request('POST', `/api/v2/sequenceStates/${stateId}/actions/pause`)).status).toBe(200);
    expect((await pendingSteps(api)).get(stateId)).toBeUndefined();
    await advance(api, clock, 2 * DAY);
    await stepsSettled(api);
    expect(await tasksOf(org, stateId)).toHaveLength(1);

    // Resumed, the step is rescheduled from now.
    expect((await org.request('POST', `/api/v2/sequenceStates/${stateId}/actions/resume`)).status).toBe(200);
    expect((await pendingSteps(api)).get(stateId)).toEqual([new Date(clock.now().getTime() + DAY).toISOString()]);
    await advance(api, clock, DAY);
    const actionItem = await until('the task step', async () => (await tasksOf(org, stateId)).find((t) => t.attributes.action === 'action_item'));
    expect(actionItem.attributes.taskType).toBe('sequence_step_task');

    const completed = await org.request('POST', `/api/v2/tasks/${actionItem.id}/actions/markComplete`);
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const finished = await stateOf(org, stateId);
    expect(finished.state).toBe('finished');
    expect(await eventsOf(org, 'sequenceState', ['sequenceState_advanced', 'sequenceState_finished'])).toEqual([
      ['sequenceState_advanced', stateId],
      ['sequenceState_advanced', stateId],
      ['sequenceState_finished', stateId],
    ]);
  });
});

describe('bulk actions on the same paths', () => {
  it('prospectsAddToSequence enrols through the same rules: duplicates and opted-out prospects are failed items', async () => {
    const org = await freshOrg(api, 'Bulk enrolment');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 60 }]);
    const already = await prospect(org);
    expect((await enrol(org, already, fixture)).status).toBe(201);
    const optedOut = await prospect(org, { optedOut: true });
    const fresh = await prospect(org);
    const { batch, items } = await runAction(org, 'prospectsAddToSequence', '', { sequenceId: fixture.sequence, mailboxId: fixture.mailbox });
    expect(batch).toMatchObject({ state: 'finished' });
    const failed = items.filter((i) => i.state === 'error');
    expect(failed.map((i) => i.itemId).sort((a, b) => Number(a) - Number(b))).toEqual([already, optedOut]);
    expect(failed.map((i) => i.errors![0]!.detail)).toEqual(expect.arrayContaining([expect.stringMatching(/already in sequence/), expect.stringMatching(/opted out/)]));
    const states = await listOf(org, `sequenceStates?filter[sequence][id]=${fixture.sequence}&sort=id`);
    expect(states.map((s) => [s.relationships.prospect.data.id, s.attributes.state, s.relationships.sequenceStep.data?.id])).toEqual([
      [already, 'active', fixture.steps[0]],
      [fresh, 'active', fixture.steps[0]],
    ]);
    expect([...(await pendingSteps(api)).keys()]).toEqual(expect.arrayContaining(states.map((s) => s.id)));
  });

  it('prospectsPauseAll and prospectsFinishAll remove the due steps of the states they stop', async () => {
    const org = await freshOrg(api, 'Bulk pause and finish');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 60 }]);
    const paused = await prospect(org, { title: 'pause me' });
    const finished = await prospect(org, { title: 'finish me' });
    const pausedState = (await enrol(org, paused, fixture)).body.data.id;
    const finishedState = (await enrol(org, finished, fixture)).body.data.id;
    expect((await pendingSteps(api)).has(pausedState)).toBe(true);
    expect((await runAction(org, 'prospectsPauseAll', 'actionParams[filter][title]=pause me')).batch.state).toBe('finished');
    expect((await runAction(org, 'prospectsFinishAll', 'actionParams[filter][title]=finish me')).batch.state).toBe('finished');
    expect((await stateOf(org, pausedState)).state).toBe('paused');
    expect((await stateOf(org, finishedState)).state).toBe('finished');
    const pending = await pendingSteps(api);
    expect(pending.has(pausedState) || pending.has(finishedState)).toBe(false);
  });
});

describe('a date sequence', () => {
  it('runs each step on its day, and a step whose day has passed at once', async () => {
    const org = await freshOrg(api, 'Date run');
    const owner = await newUserId(api, org);
    const today = clock.now();
    const day = (offset: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset)).toISOString().slice(0, 10);
    const fixture = await sequenceWith(org, owner, 'date', [
      { stepType: 'auto_email', date: day(-1) },
      { stepType: 'call', date: day(2) },
    ]);
    const [, call] = fixture.steps as [number, number];
    const stateId = (await enrol(org, await prospect(org), fixture)).body.data.id;
    // The first step's day has begun: it is due now and the state then waits for the call's day.
    await advance(api, clock, 0);
    await until('the e-mail step to run', async () => ((await stateOf(org, stateId)).step === call ? true : undefined));
    expect((await pendingSteps(api)).get(stateId)).toEqual([`${day(2)}T00:00:00.000Z`]);
    clock.set(new Date(`${day(1)}T23:59:00.000Z`));
    await advance(api, clock, 0);
    await stepsSettled(api);
    expect(await tasksOf(org, stateId)).toEqual([]);
    await advance(api, clock, MINUTE);
    const [callTask] = await until('the call task', async () => {
      const found = await tasksOf(org, stateId);
      return found.length ? found : undefined;
    });
    expect(callTask.attributes).toMatchObject({ action: 'call', dueAt: `${day(2)}T00:00:00.000Z` });
  });
});

describe('e-mail steps', () => {
  it('rotate among the active templates of the step, and fail a state whose step has none', async () => {
    const org = await freshOrg(api, 'Rotation');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'auto_email', interval: 30 }]);
    const [step] = fixture.steps as [number];
    const second = await create(org, 'templates', 'template', { name: 'Second', subject: 'Second subject', bodyHtml: '<p>2</p>' });
    await create(org, 'sequenceTemplates', 'sequenceTemplate', {}, { sequenceStep: { type: 'sequenceStep', id: step }, template: { type: 'template', id: second } });
    const states: number[] = [];
    for (let i = 0; i < 4; i++) states.push((await enrol(org, await prospect(org), fixture)).body.data.id);
    await advance(api, clock, 30 * MINUTE);
    await until('every state to finish', async () =>
      (await listOf(org, `sequenceStates?filter[sequence][id]=${fixture.sequence}&filter[state]=finished`)).length === 4 ? true : undefined,
    );
    const subjects = (await listOf(org, `mailings?filter[sequenceStep][id]=${step}`)).map((m) => m.attributes.subject).sort();
    expect(subjects).toEqual(['Hello', 'Hello', 'Second subject', 'Second subject']);

    // With no enabled template left, the step cannot send: the state fails with the reason.
    for (const use of await listOf(org, `sequenceTemplates?filter[sequenceStep][id]=${step}`)) {
      expect((await org.request('POST', `/api/v2/sequenceTemplates/${use.id}/actions/deactivate`)).status).toBe(200);
    }
    const stuck = (await enrol(org, await prospect(org), fixture)).body.data.id;
    await advance(api, clock, 30 * MINUTE);
    const failed = await until('the state to fail', async () => {
      const found = await stateOf(org, stuck);
      return found.state === 'failed' ? found : undefined;
    });
    expect(failed.attributes.errorReason).toMatch(/no active template/);
  });
});

describe('webhooks', () => {
  it('deliver sequenceState.advanced, task.completed and sequenceState.finished to a real HTTPS receiver', async () => {
    const org = await freshOrg(api, 'Sequence webhooks');
    const owner = await newUserId(api, org);
    for (const [resource, action] of [
      ['sequenceState', 'advanced'],
      ['sequenceState', 'finished'],
      ['task', 'completed'],
    ]) {
      const url = `https://${HOOK_HOST}:${receiver.port}/sequences-${org.orgId}`;
      const hook = await org.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes: { url, resource, action } } } });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    }
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'auto_email', interval: 0 },
      { stepType: 'task', interval: 0 },
    ]);
    const stateId = (await enrol(org, await prospect(org), fixture)).body.data.id;
    // The e-mail step runs, and schedules the task step for the same simulated moment.
    const task = await until('the task step', async () => {
      await releaseDueSteps(api, clock);
      return (await tasksOf(org, stateId))[0];
    });
    expect((await org.request('POST', `/api/v2/tasks/${task.id}/actions/markComplete?actionParams[completionNote]=Done`)).status).toBe(200);
    const delivered = () => receiver.requests.filter((r) => r.path === `/sequences-${org.orgId}`).map((r) => JSON.parse(r.body.toString()));
    const deliveries = await until('three deliveries', () => (delivered().length >= 3 ? delivered() : undefined));
    expect(deliveries.map((d) => [d.meta.eventName, d.data.id]).sort()).toEqual([
      ['sequenceState.advanced', stateId],
      ['sequenceState.finished', stateId],
      ['task.completed', Number(task.id)],
    ]);
    expect(deliveries.find((d) => d.meta.eventName === 'task.completed').data.attributes).toMatchObject({ completed: true, state: 'completed', note: 'Done' });
  });
});

describe('manual e-mail steps', () => {
  it('draft a mailing with the task; deliver schedules it and puts the task in progress; advance moves the state on', async () => {
    const org = await freshOrg(api, 'Manual e-mail');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'manual_email', interval: 0 },
      { stepType: 'call', interval: 0 },
      { stepType: 'task', interval: 0 },
    ]);
    const [, call] = fixture.steps as [number, number, number];
    const stateId = (await enrol(org, await prospect(org), fixture)).body.data.id;
    await advance(api, clock, 0);
    const emailTask = await until('the e-mail task', async () => (await tasksOf(org, stateId))[0]);
    expect(emailTask.attributes).toMatchObject({ action: 'email', taskType: 'sequence_step_email', state: 'incomplete' });
    const mailingId = emailTask.relationships.mailing.data.id;
    expect((await org.request('GET', `/api/v2/mailings/${mailingId}`)).body.data.attributes).toMatchObject({
      state: 'drafted',
      subject: 'Hello',
      mailingType: 'sequence',
    });

    const delivered = await org.request('POST', `/api/v2/tasks/${emailTask.id}/actions/deliver`);
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    expect(delivered.body.data.attributes.state).toBe('in progress');
    expect((await org.request('GET', `/api/v2/mailings/${mailingId}`)).body.data.attributes).toMatchObject({
      state: 'scheduled',
      scheduledAt: clock.now().toISOString(),
    });
    // Until the mailing is delivered the state stays on the e-mail step; advance moves it on.
    expect((await stateOf(org, stateId)).step).toBe(fixture.steps[0]);
    const advanced = await org.request('POST', `/api/v2/tasks/${emailTask.id}/actions/advance`);
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    expect((await stateOf(org, stateId)).step).toBe(call);

    // markComplete with completionAction finish_replied ends the state as replied.
    await advance(api, clock, 0);
    const callTask = await until('the call task', async () => (await tasksOf(org, stateId)).find((t) => t.attributes.action === 'call'));
    const finished = await org.request('POST', `/api/v2/tasks/${callTask.id}/actions/markComplete?actionParams[completionAction]=finish_replied`);
    expect(finished.status).toBe(200);
    const state = await stateOf(org, stateId);
    expect(state.state).toBe('finished');
    expect(state.attributes.repliedAt).toBe(clock.now().toISOString());
    expect((await pendingSteps(api)).get(stateId)).toBeUndefined();
  });
});

describe('writes that meet on a sequence state', () => {
  it('deleting prospects while their sequence tasks are completed: no request fails, every state finishes', async () => {
    const org = await freshOrg(api, 'Concurrent deletes and completions');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'call', interval: 0 },
      { stepType: 'task', interval: 0 },
    ]);
    const prospects: number[] = [];
    const states: number[] = [];
    for (let i = 0; i < 24; i++) {
      prospects.push(await prospect(org));
      states.push((await enrol(org, prospects[i]!, fixture)).body.data.id);
    }
    const tasks = await until('a call task per state', async () => {
      await releaseDueSteps(api, clock);
      const found = await listOf(org, `tasks?filter[sequence][id]=${fixture.sequence}`);
      return found.length === states.length ? found : undefined;
    });
    // A completion locks its task, then moves the state on; a deletion finishes the state, then
    // clears the prospect from its tasks: opposite orders, 48 requests on a pool of 4.
    const responses = await Promise.all([
      ...tasks.map((t) => org.request('POST', `/api/v2/tasks/${t.id}/actions/markComplete`)),
      ...prospects.map((p) => org.request('DELETE', `/api/v2/prospects/${p}`)),
    ]);
    expect(responses.filter((r) => r.status >= 500).map((r) => JSON.stringify(r.body))).toEqual([]);
    expect(responses.map((r) => r.status).every((s) => s === 200 || s === 204)).toBe(true);
    for (const id of states) expect((await stateOf(org, id)).state).toBe('finished');
  });
});
