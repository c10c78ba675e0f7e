import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, freshOrg, newUserId, type OrgClient } from '../helpers/bulk-actions.js';
import { advance, enrol, listOf, MINUTE, SimulatedClock, sequenceWith, startClockedWorker, stateOf } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * Read-only attributes and relationships Cadence computes (issue #27, "Counts that stay null"):
 * what a sequence state, a sequence step's task and a prospect say of what happened to them, in
 * simulated time with a real worker running the steps.
 */

let api: TestApi;
let worker: StartedWorker;
const clock = new SimulatedClock();

beforeAll(async () => {
  api = await startTestApi({ clock: clock.now });
  worker = await startClockedWorker(api, clock);
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

const now = () => clock.now().toISOString();

/** Moves the clock on without running anything: time passes between two requests. */
function later(ms: number): void {
  clock.set(new Date(clock.now().getTime() + ms));
}

async function prospectAt(org: OrgClient, account?: number): Promise<number> {
  return create(
    org,
    'prospects',
    'prospect',
    { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`] },
    account ? { account: { type: 'account', id: account } } : {},
  );
}

async function action(org: OrgClient, path: string): Promise<void> {
  const response = await org.request('POST', `/api/v2/${path}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function tasksOf(org: OrgClient, stateId: number, count: number): Promise<any[]> {
  return until(`${count} tasks of state ${stateId}`, async () => {
    const found = await listOf(org, `tasks?filter[sequenceState][id]=${stateId}&sort=id`);
    return found.length === count ? found : undefined;
  });
}

const ref = (type: string, id: number | null) => ({ data: id === null ? null : { type, id } });

describe('a sequence step’s task', () => {
  it('names its sequence, state, step, sequence template, drafted mailing and the prospect’s account, with its taskType and scheduledAt', async () => {
    const org = await freshOrg(api, 'Task origins');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'manual_email', interval: 0 },
      { stepType: 'call', interval: 60 },
    ]);
    const [emailStep, callStep] = fixture.steps as [number, number];
    const [sequenceTemplate] = await listOf(org, `sequenceTemplates?filter[sequenceStep][id]=${emailStep}`);
    const account = await create(org, 'accounts', 'account', { name: 'Acme' });
    const enrolled = await enrol(org, await prospectAt(org, account), fixture);
    const stateId = Number(enrolled.body.data.id);

    await advance(api, clock, 0);
    const [emailTask] = await tasksOf(org, stateId, 1);
    const [mailing] = await listOf(org, `mailings?filter[sequenceState][id]=${stateId}`);
    expect(emailTask.attributes).toMatchObject({ taskType: 'sequence_step_email', scheduledAt: now(), dueAt: now() });
    expect(emailTask.relationships).toMatchObject({
      sequence: ref('sequence', fixture.sequence),
      sequenceState: ref('sequenceState', stateId),
      sequenceStep: ref('sequenceStep', emailStep),
      sequenceTemplate: ref('sequenceTemplate', Number(sequenceTemplate.id)),
      mailing: ref('mailing', Number(mailing.id)),
      account: ref('account', account),
    });

    await action(org, `tasks/${emailTask.id}/actions/markComplete`);
    await advance(api, clock, 60 * MINUTE);
    const callTask = (await tasksOf(org, stateId, 2))[1];
    expect(callTask.attributes).toMatchObject({ taskType: 'sequence_step_call', scheduledAt: now() });
    expect(callTask.relationships).toMatchObject({
      sequence: ref('sequence', fixture.sequence),
      sequenceStep: ref('sequenceStep', callStep),
      sequenceTemplate: ref('sequenceTemplate', null),
      mailing: ref('mailing', null),
      account: ref('account', account),
    });
  });

  it('a task created through the API is a manual task', async () => {
    const org = await freshOrg(api, 'Manual task');
    const response = await org.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call' } } } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ taskType: 'manual', scheduledAt: null });
  });
});

describe('a sequence state', () => {
  it('stamps callCompletedAt when its call task completes, not its e-mail task', async () => {
    const org = await freshOrg(api, 'Call completed');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'manual_email', interval: 0 },
      { stepType: 'call', interval: 60 },
    ]);
    const stateId = Number((await enrol(org, await prospectAt(org), fixture)).body.data.id);
    await advance(api, clock, 0);
    const [emailTask] = await tasksOf(org, stateId, 1);
    await action(org, `tasks/${emailTask.id}/actions/markComplete`);
    expect((await stateOf(org, stateId)).attributes.callCompletedAt).toBeNull();

    await advance(api, clock, 60 * MINUTE);
    const callTask = (await tasksOf(org, stateId, 2))[1];
    later(5 * MINUTE);
    await action(org, `tasks/${callTask.id}/actions/markComplete`);
    const finished = await stateOf(org, stateId);
    expect([finished.state, finished.attributes.callCompletedAt]).toEqual(['finished', now()]);
  });

  it('is activeAt when it becomes active again, and says why it was paused by hand', async () => {
    const org = await freshOrg(api, 'Active and paused');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 60 }]);
    const enrolled = await enrol(org, await prospectAt(org), fixture);
    const stateId = Number(enrolled.body.data.id);
    expect(enrolled.body.data.attributes).toMatchObject({ activeAt: now(), pauseReason: null });
    const enrolledAt = now();

    later(5 * MINUTE);
    await action(org, `sequenceStates/${stateId}/actions/pause`);
    const paused = await stateOf(org, stateId);
    expect([paused.state, paused.attributes.pauseReason, paused.attributes.activeAt]).toEqual(['paused', 'manual', enrolledAt]);

    later(5 * MINUTE);
    await action(org, `sequenceStates/${stateId}/actions/resume`);
    const resumed = await stateOf(org, stateId);
    expect([resumed.state, resumed.attributes.pauseReason, resumed.attributes.activeAt]).toEqual(['active', null, now()]);

    later(5 * MINUTE);
    await action(org, `sequences/${fixture.sequence}/actions/deactivate`);
    expect((await stateOf(org, stateId)).state).toBe('disabled');
    later(5 * MINUTE);
    await action(org, `sequences/${fixture.sequence}/actions/activate`);
    const activated = await stateOf(org, stateId);
    expect([activated.state, activated.attributes.activeAt]).toEqual(['active', now()]);
  });

  it('whose mailbox was deleted fails at its e-mail step with errorReason, making no mailing', async () => {
    const org = await freshOrg(api, 'No mailbox');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'auto_email', interval: 60 }]);
    const [step] = fixture.steps as [number];
    const stateId = Number((await enrol(org, await prospectAt(org), fixture)).body.data.id);
    expect((await org.request('DELETE', `/api/v2/mailboxes/${fixture.mailbox}`)).status).toBe(204);
    await advance(api, clock, 60 * MINUTE);
    await advance(api, clock, 0);
    const failed = await until('the state to fail', async () => {
      const state = await stateOf(org, stateId);
      return state.state === 'failed' ? state : undefined;
    });
    expect(failed.attributes.errorReason).toBe(`Step ${step} sends e-mail, and the sequence state has no mailbox to send it from`);
    expect(await listOf(org, `mailings?filter[sequenceState][id]=${stateId}`)).toEqual([]);
  });
});

describe('a prospect', () => {
  it('is emailsOptedAt when emailOptedOut changes, either way, and not otherwise', async () => {
    const org = await freshOrg(api, 'Opted at');
    const id = await prospectAt(org);
    const patch = async (attributes: Record<string, unknown>) => {
      const response = await org.request('PATCH', `/api/v2/prospects/${id}`, { body: { data: { type: 'prospect', id, attributes } } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.data.attributes;
    };
    expect((await attributesOf(org, `prospects/${id}`)).emailsOptedAt).toBeNull();
    expect((await patch({ emailOptedOut: false })).emailsOptedAt).toBeNull();

    later(MINUTE);
    const optedOutAt = now();
    expect(await patch({ emailOptedOut: true })).toMatchObject({ emailOptedOut: true, emailsOptedAt: optedOutAt });
    later(MINUTE);
    expect((await patch({ title: 'CTO', emailOptedOut: true })).emailsOptedAt).toBe(optedOutAt);
    later(MINUTE);
    expect(await patch({ emailOptedOut: false })).toMatchObject({ emailOptedOut: false, emailsOptedAt: now() });

    const optedOutFromTheStart = await create(org, 'prospects', 'prospect', { firstName: 'Sam', emailOptedOut: true });
    expect((await attributesOf(org, `prospects/${optedOutFromTheStart}`)).emailsOptedAt).toBe(now());
  });
});
