import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SET_SIZE, STEP_RUNNER_TASK } from '../../runtime/sequences/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg, newUserId, settled, startAction } from '../helpers/bulk-actions.js';
import { everyPage, sequenceWith } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';
import { untilWaitingOn, WorkerProcesses, type WorkerProcess } from '../helpers/worker-processes.js';

/**
 * Sequence steps run by real `cadence worker` processes (issue #15, #26). Thousands of states go
 * through a three-step sequence of automatic e-mails due at once, which the step runner claims
 * and runs in sets (SET_SIZE per transaction); the worker running them is SIGKILLed twice in the
 * middle of a set, with some states moved on and others not. A set whose transaction died with
 * its worker is due again and runs on the next worker, and one that committed is not repeated:
 * in the end every state is finished, with one mailing and one run per step and the events of
 * exactly one pass through the sequence, as a client sees them over HTTP.
 */

/** Four sets per step: when a third of the states have run a step, sets of it are still running. */
const STATES = 4 * SET_SIZE;
const STEPS = 3;

let api: TestApi;
const workers = new WorkerProcesses(() => api.databaseUrl);

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  workers.killAll();
  await api?.close();
});

/** How many states of the org have run each step, by step id: the sequence_step_runs rows. */
async function runsByStep(orgId: number): Promise<Map<number, number>> {
  const rows = await api.sql<{ step: string; n: number }[]>`
    select sequence_step_id as step, count(*)::int as n from sequence_step_runs where org_id = ${orgId} group by sequence_step_id`;
  return new Map(rows.map((r) => [Number(r.step), r.n]));
}

/**
 * Kills a worker in the middle of a set, once some states have run `step` (`ready` says how many)
 * and at least one has not. The kill point is made, not waited for: the test locks (FOR UPDATE)
 * the prospect of the newest state yet to run `step`, so the set holding that state cannot write
 * its mailing, whose foreign key must share-lock the prospect, and waits inside its job,
 * uncommitted; the other states go on. Once such a mailing insert is seen waiting on the lock and
 * `ready` holds, the worker holding a step runner job is killed, and its replacement starts before
 * the lock is let go. The victim, its replacement, and the runs of each step once the victim has
 * exited (a transaction it had not committed never will be).
 */
async function killMidStep(
  orgId: number,
  step: number,
  what: string,
  ready: (runs: Map<number, number>) => boolean,
): Promise<{ victim: WorkerProcess; replacement: WorkerProcess; runs: Map<number, number> }> {
  const holder = postgres(api.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const lock = await holder.reserve();
    const [{ pid }] = await lock<[{ pid: number }]>`select pg_backend_pid() as pid`;
    await until(
      `the prospect of a state yet to run step ${step} locked`,
      async () => {
        await lock`begin`;
        // NOWAIT: a set that has written this state's mailing holds a share lock until it commits,
        // and then the state has run the step; another state is tried.
        const locked = await lock<{ id: string }[]>`
          select id from prospects
           where org_id = ${orgId}
             and id = (select s.prospect_id from sequence_states s
                        where s.org_id = ${orgId}
                          and not exists (select 1 from sequence_step_runs r
                                           where r.org_id = ${orgId} and r.sequence_state_id = s.id and r.sequence_step_id = ${step})
                        order by s.id desc limit 1)
           for update nowait`.catch((error: { code?: string }) => {
          if (error.code === '55P03') return undefined;
          throw error;
        });
        // Still yet to run it, now that no set can write its mailing.
        const pending =
          locked?.length === 1 &&
          (
            await lock<[{ pending: boolean }]>`
              select not exists (select 1 from sequence_step_runs r join sequence_states s on s.org_id = r.org_id and s.id = r.sequence_state_id
                                  where r.org_id = ${orgId} and s.prospect_id = ${locked[0]!.id} and r.sequence_step_id = ${step}) as pending`
          )[0].pending;
        if (pending) return true;
        await lock`rollback`;
        return undefined;
      },
      90_000,
    );
    await untilWaitingOn(api.sql, pid, `${what}, and a set's mailing insert waiting on the locked prospect`, {
      queryLike: '%insert into%mailings%',
      alsoReady: async () => ready(await runsByStep(orgId)),
    });
    const victim = await until('a worker holding a step runner job', () => workers.holding(api.sql, STEP_RUNNER_TASK), 60_000);
    await workers.kill(victim);
    const runs = await runsByStep(orgId);
    const replacement = await workers.start();
    await lock`rollback`;
    lock.release();
    return { victim, replacement, runs };
  } finally {
    await holder.end({ timeout: 5 });
  }
}

/** The ids of the dead workers whose locked jobs the live ones released, from their log lines. */
function releasedWorkers(...survivors: WorkerProcess[]): Set<string> {
  const lines = survivors.flatMap((w) => w.process.stdout().split('\n')).filter((line) => line.includes('released the jobs of workers'));
  return new Set(lines.flatMap((line) => (JSON.parse(line) as { workers: string[] }).workers));
}

/** How often each value occurs, for one readable assertion over thousands of records. */
function tally(values: readonly unknown[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

it('workers SIGKILLed between steps: every step of every state still runs exactly once', async () => {
  const org = await freshOrg(api, 'Sequence crash org');
  const owner = await newUserId(api, org);
  const fixture = await sequenceWith(
    org,
    owner,
    'interval',
    Array.from({ length: STEPS }, () => ({ stepType: 'auto_email', interval: 0 })),
  );
  const [, second, last] = fixture.steps as [number, number, number];
  // The prospects are fixtures (one statement); their enrolment goes through the API and a worker.
  await api.sql`
    insert into prospects (org_id, first_name, last_name, emails)
    select ${org.orgId}, 'Prospect', 'n' || g, array['p' || g || '@sequence-crash.test'] from generate_series(1, ${STATES}) g`;

  const started = performance.now();
  await workers.start();
  const enrolment = await startAction(org, 'prospectsAddToSequence', 'actionParams[skipConfirmation]=true', {
    sequenceId: fixture.sequence,
    mailboxId: fixture.mailbox,
  });
  expect(enrolment.status, JSON.stringify(enrolment.body)).toBe(200);

  // First kill: some states past their second step, others not.
  const firstKill = await killMidStep(org.orgId, second, 'a third of the states ran step 2', (runs) => (runs.get(second) ?? 0) >= STATES / 3);
  const secondWorker = firstKill.replacement;
  // Second kill: some states finished, some not.
  const secondKill = await killMidStep(org.orgId, last, 'a third of the states ran step 3', (runs) => (runs.get(last) ?? 0) >= STATES / 3);
  const thirdWorker = secondKill.replacement;
  try {
    await until('every state to have run every step', async () => ((await runsByStep(org.orgId)).get(last) === STATES ? true : undefined), 90_000);
    expect((await settled(org, enrolment.body.data.id)).attributes).toMatchObject({ state: 'finished', total: STATES, failures: 0 });
    // A victim's set is due again as soon as its transaction dies, and another runner job can run
    // it before the victim's own job is released (its lock goes stale after WORKER_STALE_AFTER_MS):
    // every state may be done first. The job stays locked by the dead worker until a live one
    // releases it, so that is waited for.
    await until(
      'the live workers to have released the jobs of both victims',
      () => {
        const released = releasedWorkers(secondWorker, thirdWorker);
        return [firstKill.victim, secondKill.victim].every((victim) => victim.workerIds.some((id) => released.has(id))) ? true : undefined;
      },
      30_000,
    );
  } finally {
    await workers.stopAll();
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const shown = (runs: Map<number, number>) => fixture.steps.map((s) => runs.get(s) ?? 0).join('/');
  console.info(`${STATES} states x ${STEPS} steps in ${seconds} s; runs of steps 1/2/3 when killed: ${shown(firstKill.runs)} and ${shown(secondKill.runs)}`);

  // Both kills landed between steps: some states had moved on, others had not.
  expect(firstKill.runs.get(second)).toBeGreaterThan(0);
  expect(firstKill.runs.get(second)).toBeLessThan(STATES);
  expect(secondKill.runs.get(last)).toBeGreaterThan(0);
  expect(secondKill.runs.get(last)).toBeLessThan(STATES);
  expect(workers.killed.size).toBe(2);
  // And in the middle of a step: each victim died holding a job (in either of its runners' pools),
  // which a live worker released to run again; no live worker's jobs were released.
  const released = releasedWorkers(secondWorker, thirdWorker);
  for (const victim of [firstKill.victim, secondKill.victim]) expect(victim.workerIds.some((id) => released.has(id))).toBe(true);
  expect([...released].filter((id) => !firstKill.victim.workerIds.includes(id) && !secondKill.victim.workerIds.includes(id))).toEqual([]);

  // Every state finished.
  const states = await everyPage(org, `sequenceStates?filter[sequence][id]=${fixture.sequence}`);
  expect(states).toHaveLength(STATES);
  expect(tally(states.map((s) => s.attributes.state))).toEqual({ finished: STATES });
  const stateIds = states.map((s) => Number(s.id)).sort((a, b) => a - b);
  const everyPair = stateIds.flatMap((state) => fixture.steps.map((step) => `${state}:${step}`)).sort();

  // Exactly one mailing per state and step: none repeated, none missing.
  const mailings = await everyPage(org, `mailings?filter[sequence][id]=${fixture.sequence}`);
  const mailingPairs = mailings.map((m) => `${m.relationships.sequenceState.data.id}:${m.relationships.sequenceStep.data.id}`);
  expect(mailingPairs.sort()).toEqual(everyPair);
  expect(tally(mailings.map((m) => m.attributes.state))).toEqual({ scheduled: STATES * STEPS });

  // One pass through the sequence per state: two `advanced` events and one `finished`.
  const events = await everyPage(org, 'events?filter[resourceType]=sequenceState&filter[name]=sequenceState_advanced,sequenceState_finished');
  const byState = new Map<number, string[]>(stateIds.map((id) => [id, []]));
  for (const e of events) byState.get(Number(e.attributes.resourceId))?.push(e.attributes.name);
  const passes = [...byState.values()].map((names) => names.sort().join(','));
  expect(tally(passes)).toEqual({ 'sequenceState_advanced,sequenceState_advanced,sequenceState_finished': STATES });
  expect(events).toHaveLength(STATES * STEPS);

  // And one sequence_step_runs row per state and step.
  const runs = await api.sql<{ state: string; step: string }[]>`
    select sequence_state_id as state, sequence_step_id as step from sequence_step_runs where org_id = ${org.orgId}`;
  expect(runs.map((r) => `${r.state}:${r.step}`).sort()).toEqual(everyPair);
}, 180_000);
