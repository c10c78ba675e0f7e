import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_STEP_TASK, SET_SIZE, STEP_RUNNER_TASK } from '../../runtime/sequences/index.js';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, freshOrg, newUserId, settled, startAction, type OrgClient } from '../helpers/bulk-actions.js';
import {
  advance,
  enrol,
  everyPage,
  listOf,
  MINUTE,
  pendingSteps,
  releaseDueSteps,
  SimulatedClock,
  sequenceWith,
  startClockedWorker,
  stateOf,
  stepsSettled,
  type SequenceFixture,
} from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * The step runner (issue #26): due steps are rows claimed in sets, woken by one job per org and
 * due instant, in simulated time with a real graphile-worker. Many steps due at once run once
 * each; a stopped state's step does not run; a rescheduled one runs once, at its new time; a
 * step whose state another transaction holds runs once that transaction is done; and step jobs
 * from before the runner still run, through it.
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

async function prospect(org: OrgClient): Promise<number> {
  return create(org, 'prospects', 'prospect', { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`] });
}

/** The org's sequence_step_runs rows, as `state:step`, sorted as strings. */
async function runsOf(org: OrgClient): Promise<string[]> {
  const rows = await api.sql<{ state: string; step: string }[]>`
    select sequence_state_id as state, sequence_step_id as step from sequence_step_runs where org_id = ${org.orgId}`;
  return rows.map((r) => `${r.state}:${r.step}`).sort();
}

/** The org's due steps (sequence_steps_due rows). */
async function dueRowsOf(org: OrgClient): Promise<number> {
  const [row] = await api.sql<{ n: number }[]>`select count(*)::int as n from sequence_steps_due where org_id = ${org.orgId}`;
  return row!.n;
}

/** The step runner's jobs of the org not yet run. */
async function pendingRunners(org: OrgClient): Promise<number> {
  const [row] = await api.sql<{ n: number }[]>`
    select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = ${STEP_RUNNER_TASK} and (j.payload->>'orgId')::bigint = ${org.orgId}`;
  return row!.n;
}

async function mailingsOf(org: OrgClient, stateId: number) {
  return listOf(org, `mailings?filter[sequenceState][id]=${stateId}`);
}

/** A fixture with one `auto_email` step due `interval` minutes after enrolment. */
async function oneEmailStep(org: OrgClient, interval: number): Promise<SequenceFixture> {
  return sequenceWith(org, await newUserId(api, org), 'interval', [{ stepType: 'auto_email', interval }]);
}

describe('steps due at the same instant', () => {
  it('run once each, in sets, woken by one job', async () => {
    const org = await freshOrg(api, 'Many due at once');
    const fixture = await oneEmailStep(org, 30);
    // More than two sets: the first runner finds more due than it claims and wakes others.
    const states = 2 * SET_SIZE + 100;
    await api.sql`
      insert into prospects (org_id, first_name, emails)
      select ${org.orgId}, 'Prospect', array['p' || g || '@many-due.test'] from generate_series(1, ${states}) g`;
    const enrolment = await startAction(org, 'prospectsAddToSequence', 'actionParams[skipConfirmation]=true', {
      sequenceId: fixture.sequence,
      mailboxId: fixture.mailbox,
    });
    expect(enrolment.status, JSON.stringify(enrolment.body)).toBe(200);
    expect((await settled(org, enrolment.body.data.id)).attributes).toMatchObject({ state: 'finished', total: states, failures: 0 });
    // One enrolment chunk's states share their due instant: one runner job for all of them.
    expect(await dueRowsOf(org)).toBe(states);
    expect(await pendingRunners(org)).toBe(1);

    await advance(api, clock, 30 * MINUTE);
    await until('every step to have run', async () => ((await runsOf(org)).length === states ? true : undefined), 60_000);
    await stepsSettled(api);

    const stateIds = (await everyPage(org, `sequenceStates?filter[sequence][id]=${fixture.sequence}`)).map((s) => Number(s.id));
    expect(stateIds).toHaveLength(states);
    expect(await runsOf(org)).toEqual(stateIds.map((id) => `${id}:${fixture.steps[0]}`).sort());
    const mailings = await everyPage(org, `mailings?filter[sequence][id]=${fixture.sequence}`);
    expect(mailings.map((m) => Number(m.relationships.sequenceState.data.id)).sort((a, b) => a - b)).toEqual(stateIds.sort((a, b) => a - b));
    const finished = await everyPage(org, `sequenceStates?filter[sequence][id]=${fixture.sequence}&filter[state]=finished`);
    expect(finished).toHaveLength(states);
    expect(await dueRowsOf(org)).toBe(0);
  }, 120_000);
});

describe('a state stopped or rescheduled before its step is due', () => {
  it('paused: its step does not run, though its runner job does', async () => {
    const org = await freshOrg(api, 'Paused before due');
    const fixture = await oneEmailStep(org, 30);
    const paused = (await enrol(org, await prospect(org), fixture)).body.data.id;
    const running = (await enrol(org, await prospect(org), fixture)).body.data.id;
    expect((await org.request('POST', `/api/v2/sequenceStates/${paused}/actions/pause`)).status).toBe(200);
    expect((await pendingSteps(api)).has(paused)).toBe(false);

    await advance(api, clock, 30 * MINUTE);
    await until('the running state to finish', async () => ((await stateOf(org, running)).state === 'finished' ? true : undefined));
    await stepsSettled(api);
    expect(await mailingsOf(org, paused)).toEqual([]);
    expect((await stateOf(org, paused)).state).toBe('paused');
    expect(await runsOf(org)).toEqual([`${running}:${fixture.steps[0]}`]);
  });

  it('paused and resumed: its step runs once, due from the resume', async () => {
    const org = await freshOrg(api, 'Rescheduled');
    const fixture = await oneEmailStep(org, 30);
    const stateId = (await enrol(org, await prospect(org), fixture)).body.data.id;
    await advance(api, clock, 10 * MINUTE);
    expect((await org.request('POST', `/api/v2/sequenceStates/${stateId}/actions/pause`)).status).toBe(200);
    expect((await org.request('POST', `/api/v2/sequenceStates/${stateId}/actions/resume`)).status).toBe(200);
    const dueAt = new Date(clock.now().getTime() + 30 * MINUTE).toISOString();
    expect((await pendingSteps(api)).get(stateId)).toEqual([dueAt]);

    // The runner job of the first schedule runs at its time and finds nothing due.
    await advance(api, clock, 20 * MINUTE);
    await stepsSettled(api);
    expect(await mailingsOf(org, stateId)).toEqual([]);
    expect((await pendingSteps(api)).get(stateId)).toEqual([dueAt]);

    await advance(api, clock, 10 * MINUTE);
    await until('the step to run', async () => ((await stateOf(org, stateId)).state === 'finished' ? true : undefined));
    await stepsSettled(api);
    expect(await mailingsOf(org, stateId)).toHaveLength(1);
    const [run] = await api.sql<{ due_at: Date }[]>`select due_at from sequence_step_runs where org_id = ${org.orgId} and sequence_state_id = ${stateId}`;
    expect(run!.due_at.toISOString()).toBe(dueAt);
    expect(await runsOf(org)).toHaveLength(1);
  });
});

describe('a state another transaction holds when its step comes due', () => {
  it('is left to a later runner, and its step runs once that transaction is done', async () => {
    const org = await freshOrg(api, 'Held state');
    const fixture = await oneEmailStep(org, 0);
    const held = (await enrol(org, await prospect(org), fixture)).body.data.id;
    const free = (await enrol(org, await prospect(org), fixture)).body.data.id;
    const holder = await api.sql.reserve();
    try {
      await holder`begin`;
      await holder`select 1 from sequence_states where org_id = ${org.orgId} and id = ${held} for update`;
      await advance(api, clock, 0);
      await until('the free state to finish', async () => ((await stateOf(org, free)).state === 'finished' ? true : undefined));
      expect((await pendingSteps(api)).has(held)).toBe(true);
      await holder`commit`;
    } finally {
      holder.release();
    }
    await until('the held state to finish', async () => {
      await releaseDueSteps(api, clock);
      return (await stateOf(org, held)).state === 'finished' ? true : undefined;
    });
    expect(await mailingsOf(org, held)).toHaveLength(1);
    expect(await runsOf(org)).toEqual([`${held}:${fixture.steps[0]}`, `${free}:${fixture.steps[0]}`].sort());
  });
});

describe('step jobs enqueued before the runner existed', () => {
  /** A state as the old scheduling left it: no due row, and a `sequence_step` job keyed by state. */
  async function asBeforeTheRunner(org: OrgClient, stateId: number, stepId: number, dueAt: Date): Promise<void> {
    await api.sql`delete from sequence_steps_due where org_id = ${org.orgId} and sequence_state_id = ${stateId}`;
    const payload = { orgId: org.orgId, stateId, stepId, dueAt: dueAt.toISOString() };
    await api.sql`select graphile_worker.add_job(${LEGACY_STEP_TASK}, ${api.sql.json(payload)}::json, run_at => ${dueAt.toISOString()}::timestamptz,
      job_key => ${`${LEGACY_STEP_TASK}:${org.orgId}:${stateId}`})`;
  }

  it('run through it, once; and do nothing for a state stopped since', async () => {
    const org = await freshOrg(api, 'Legacy step jobs');
    const fixture = await oneEmailStep(org, 30);
    const [step] = fixture.steps as [number];
    const dueAt = new Date(clock.now().getTime() + 30 * MINUTE);
    const waiting = (await enrol(org, await prospect(org), fixture)).body.data.id;
    const stopped = (await enrol(org, await prospect(org), fixture)).body.data.id;
    await asBeforeTheRunner(org, waiting, step, dueAt);
    await asBeforeTheRunner(org, stopped, step, dueAt);
    expect((await org.request('POST', `/api/v2/sequenceStates/${stopped}/actions/pause`)).status).toBe(200);

    clock.set(dueAt);
    await api.sql`
      update graphile_worker._private_jobs j set run_at = now() from graphile_worker._private_tasks t
       where t.id = j.task_id and t.identifier = ${LEGACY_STEP_TASK} and (j.payload->>'orgId')::bigint = ${org.orgId}`;
    await until('the waiting state to finish', async () => {
      await releaseDueSteps(api, clock);
      return (await stateOf(org, waiting)).state === 'finished' ? true : undefined;
    });
    await stepsSettled(api);
    expect(await mailingsOf(org, waiting)).toHaveLength(1);
    expect(await mailingsOf(org, stopped)).toEqual([]);
    const runs = await api.sql<{ state: string; due_at: Date }[]>`select sequence_state_id as state, due_at from sequence_step_runs where org_id = ${org.orgId}`;
    expect(runs.map((r) => [Number(r.state), r.due_at.toISOString()])).toEqual([[waiting, dueAt.toISOString()]]);
  });
});
