import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedWorker } from '../../runtime/jobs/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, eventsOf, freshOrg, newUserId, type OrgClient } from '../helpers/bulk-actions.js';
import { advance, enrol, listOf, MINUTE, pendingSteps, SimulatedClock, sequenceWith, startClockedWorker, stateOf, stepsSettled } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * Sequences that run (issue #15), in simulated time: the API and a real graphile-worker share
 * one clock that moves only when a test says; step jobs are real jobs with run-at times.
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
