import { pino } from 'pino';
import { expect } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { LEGACY_STEP_TASK, STEP_RUNNER_TASK } from '../../runtime/sequences/index.js';
import type { DeliveryOptions } from '../../runtime/webhooks/delivery/index.js';
import type { TestApi } from './api.js';
import { create, type OrgClient } from './bulk-actions.js';
import { until } from './wait.js';

/**
 * Sequences in simulated time (issue #15), for test/api/sequence*.test.ts. The API and the
 * worker share one SimulatedClock, which only moves when a test says. A due step's row and its
 * runner job's run-at are its due time by that clock; PostgreSQL's own clock cannot be moved, so
 * `advance` makes the runner jobs that are due by the simulated clock runnable now, which is
 * what time passing would do. Everything else is real: the jobs, the worker, the HTTP API.
 */
export class SimulatedClock {
  private time: number;

  constructor(start = Date.now()) {
    this.time = start;
  }

  readonly now = (): Date => new Date(this.time);

  set(at: Date): void {
    this.time = at.getTime();
  }
}

export const MINUTE = 60_000;

/** Moves the clock on by `ms` and lets the steps due by then run. */
export async function advance(api: TestApi, clock: SimulatedClock, ms: number): Promise<void> {
  clock.set(new Date(clock.now().getTime() + ms));
  await releaseDueSteps(api, clock);
}

/** Makes the step runner's jobs due by the simulated clock runnable now. */
export function releaseDueSteps(api: TestApi, clock: SimulatedClock): Promise<number> {
  return releaseDueJobs(api, clock, STEP_RUNNER_TASK);
}

/** Makes the jobs of `task` due by the simulated clock (their run-at was set by it) runnable now. */
export async function releaseDueJobs(api: TestApi, clock: SimulatedClock, task: string): Promise<number> {
  const released = await api.sql`
    update graphile_worker._private_jobs j set run_at = now()
      from graphile_worker._private_tasks t
     where t.id = j.task_id and t.identifier = ${task} and j.run_at <= ${clock.now().toISOString()}::timestamptz and j.run_at > now()`;
  return released.count;
}

/** Steps due and not yet run (sequence_steps_due), by state id: their due times. */
export async function pendingSteps(api: TestApi): Promise<Map<number, string[]>> {
  const rows = await api.sql<{ state: string; due_at: Date }[]>`select sequence_state_id as state, due_at from sequence_steps_due order by due_at`;
  const pending = new Map<number, string[]>();
  for (const r of rows) pending.set(Number(r.state), [...(pending.get(Number(r.state)) ?? []), r.due_at.toISOString()]);
  return pending;
}

/** Until no step runner job is left to run or running (the worker is done with what is due). */
export async function stepsSettled(api: TestApi): Promise<void> {
  await until('due step runners to have run', async () => {
    // A locked job is running whatever its attempts: graphile-worker sets a running job's attempts
    // to max_attempts when a new job takes over its key, so that it is not retried.
    const [row] = await api.sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier in (${STEP_RUNNER_TASK}, ${LEGACY_STEP_TASK}) and (j.locked_at is not null or (j.run_at <= now() and j.attempts < j.max_attempts))`;
    return row!.n === 0 ? true : undefined;
  });
}

/** A real worker on the simulated clock; `delivery` lets its webhooks reach a loopback receiver. */
export function startClockedWorker(api: TestApi, clock: SimulatedClock, delivery?: DeliveryOptions): Promise<StartedWorker> {
  return startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    clock: clock.now,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: delivery ?? { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
  });
}

export interface SequenceFixture {
  sequence: number;
  steps: number[];
  mailbox: number;
  owner: number;
  template: number;
}

/**
 * A sequence with `steps` (stepType and interval or date), the first template attached to its
 * e-mail steps, and a mailbox owned by `owner`.
 */
export async function sequenceWith(
  org: OrgClient,
  owner: number,
  sequenceType: 'interval' | 'date',
  steps: { stepType: string; interval?: number; date?: string }[],
  ruleset?: number,
): Promise<SequenceFixture> {
  const sequence = await create(
    org,
    'sequences',
    'sequence',
    { name: `Sequence ${Math.random()}`, sequenceType },
    ruleset ? { ruleset: { type: 'ruleset', id: ruleset } } : {},
  );
  const template = await create(org, 'templates', 'template', { name: 'Intro', subject: 'Hello', bodyHtml: '<p>Hi</p>' });
  const stepIds: number[] = [];
  for (const [i, step] of steps.entries()) {
    const id = await create(org, 'sequenceSteps', 'sequenceStep', { ...step, order: i + 1 }, { sequence: { type: 'sequence', id: sequence } });
    stepIds.push(id);
    if (step.stepType.endsWith('email')) {
      await create(org, 'sequenceTemplates', 'sequenceTemplate', {}, { sequenceStep: { type: 'sequenceStep', id }, template: { type: 'template', id: template } });
    }
  }
  // Sending is test/api/mail-sending.test.ts's subject: here mailings stay scheduled (held by
  // sendDisabled), so that what the sequence tests see does not race the send job.
  const mailbox = await create(org, 'mailboxes', 'mailbox', { email: `rep${Math.random()}@example.test`, sendDisabled: true }, { user: { type: 'user', id: owner } });
  return { sequence, steps: stepIds, mailbox, owner, template };
}

export async function enrol(org: OrgClient, prospect: number, fixture: Pick<SequenceFixture, 'sequence' | 'mailbox'>) {
  return org.request('POST', '/api/v2/sequenceStates', {
    body: {
      data: {
        type: 'sequenceState',
        relationships: {
          prospect: { data: { type: 'prospect', id: prospect } },
          sequence: { data: { type: 'sequence', id: fixture.sequence } },
          mailbox: { data: { type: 'mailbox', id: fixture.mailbox } },
        },
      },
    },
  });
}

export async function stateOf(org: OrgClient, id: number): Promise<{ state: string; step: number | null; attributes: Record<string, any> }> {
  const response = await org.request('GET', `/api/v2/sequenceStates/${id}`);
  expect(response.status).toBe(200);
  const step = response.body.data.relationships.sequenceStep.data;
  return { state: response.body.data.attributes.state, step: step ? Number(step.id) : null, attributes: response.body.data.attributes };
}

/** The resources of `path` (a collection with a filter), all of them, following `links.next` page by page. */
export async function everyPage(org: OrgClient, path: string): Promise<any[]> {
  const resources: any[] = [];
  let next: string | undefined = `/api/v2/${path}${path.includes('?') ? '&' : '?'}page[size]=1000`;
  while (next) {
    const response = await org.request('GET', next);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    resources.push(...response.body.data);
    next = response.body.links?.next ? new URL(response.body.links.next).pathname + new URL(response.body.links.next).search : undefined;
  }
  return resources;
}

/** The resources of `path` (a collection with a filter), all of them. */
export async function listOf(org: OrgClient, path: string): Promise<any[]> {
  const response = await org.request('GET', `/api/v2/${path}${path.includes('?') ? '&' : '?'}page[size]=1000`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}
