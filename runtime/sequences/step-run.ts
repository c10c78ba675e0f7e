import type { Task } from 'graphile-worker';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import { descriptors } from '../../generated/routes/index.js';
import { SERVICE_ACTOR, type RecordWriter, type WriteEffects } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import { quoteIdent } from '../model/sql-text.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import { moveOn } from './advance.js';
import type { StepJobPayload } from './step-jobs.js';
import { claimStepRun } from './step-runs.js';

export interface StepTaskDependencies {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  /** The one clock of the service: steps run, and the next ones are scheduled, by it. */
  readonly clock: () => Date;
  readonly log: Logger;
}

/** What each manual step type asks of the mailbox's user. */
const TASK_OF_STEP: Readonly<Record<string, { action: string; taskType: string }>> = {
  manual_email: { action: 'email', taskType: 'sequence_step_email' },
  call: { action: 'call', taskType: 'sequence_step_call' },
  task: { action: 'action_item', taskType: 'sequence_step_task' },
};

/**
 * The job of one due step of one sequence state. In one transaction it locks the state,
 * claims the step in sequence_step_runs (a second run of the job finds it claimed and does
 * nothing) and does what the step's type says:
 * - `auto_email`: a scheduled mailing from the step's active template (several rotate by
 *   state), and the state moves on at once;
 * - `manual_email`, `call`, `task`: a task for the mailbox's user, due now; completing it moves
 *   the state on (consequences.ts). A manual e-mail's task comes with its mailing drafted.
 * A job for a state no longer active, or no longer on that step (paused, finished, moved on),
 * is stale and does nothing.
 */
export function sequenceStepTask(deps: StepTaskDependencies): Task {
  const states = descriptors.get('sequenceState')!;
  return async (payload) => {
    const job = payload as StepJobPayload;
    await orgScopedTransaction(deps.sql, job.orgId, async (tx) => {
      await tx.unsafe(`select 1 from ${quoteIdent(states.table)} where org_id = $1 and id = $2 for no key update`, [job.orgId, job.stateId], { prepare: true });
      const effects = deps.writer.effects({ tx, orgId: job.orgId, actor: SERVICE_ACTOR });
      const state = (await effects.records.rows('sequenceState', [job.stateId])).get(job.stateId);
      if (!state || state.state !== 'active' || Number(state.sequenceStep) !== job.stepId) return;
      if (!(await claimStepRun(tx, job.orgId, job.stateId, job.stepId, new Date(job.dueAt), effects.now))) return;
      await runStep(effects, state, job);
    });
  };
}

async function runStep(effects: WriteEffects, state: Row, job: StepJobPayload): Promise<void> {
  const { records } = effects;
  const step = (await records.rows('sequenceStep', [job.stepId])).get(job.stepId);
  if (!step) return;
  const prospect = (await records.rows('prospect', [Number(state.prospect)])).get(Number(state.prospect));
  const mailbox = state.mailbox == null ? undefined : (await records.rows('mailbox', [Number(state.mailbox)])).get(Number(state.mailbox));
  const template = await activeTemplate(effects, job.stepId, job.stateId);
  const common = {
    prospect: state.prospect ?? null,
    sequence: state.sequence ?? null,
    sequenceState: job.stateId,
    sequenceStep: job.stepId,
  };
  const mailingOf = (mailingState: string) =>
    effects.create('mailing', {
      ...common,
      mailbox: state.mailbox ?? null,
      template: template ? Number(template.id) : null,
      state: mailingState,
      mailingType: 'sequence',
      subject: template?.subject ?? null,
      bodyHtml: template?.bodyHtml ?? null,
      trackOpens: template?.trackOpens ?? null,
      trackLinks: template?.trackLinks ?? null,
      ...(mailingState === 'scheduled' && { scheduledAt: effects.now.toISOString() }),
    });

  if (step.stepType === 'auto_email') {
    if (!template) {
      await effects.write([effects.update('sequenceState', job.stateId, { state: 'failed', errorReason: `Step ${job.stepId} has no active template to send` })]);
      return;
    }
    await written(effects, [mailingOf('scheduled')]);
    await moveOn(effects, [{ stateId: job.stateId, fromStepId: job.stepId, kind: 'advance' }]);
    return;
  }
  const kind = TASK_OF_STEP[String(step.stepType)];
  if (!kind) {
    await effects.write([effects.update('sequenceState', job.stateId, { state: 'failed', errorReason: `Step ${job.stepId} has no step type` })]);
    return;
  }
  const mailing = step.stepType === 'manual_email' ? (await written(effects, [mailingOf('drafted')]))[0] : undefined;
  await written(effects, [
    effects.create('task', {
      ...common,
      ...kind,
      state: 'incomplete',
      owner: mailbox?.user ?? null,
      account: prospect?.account ?? null,
      dueAt: effects.now.toISOString(),
      note: step.taskNote ?? null,
      taskPriority: step.taskPriority ?? null,
      template: template ? Number(template.id) : null,
      mailing: mailing ? Number(mailing.id) : null,
    }),
  ]);
}

/** Writes records the service makes itself, which no rule should refuse: a refusal is a defect. */
async function written(effects: WriteEffects, operations: Parameters<WriteEffects['write']>[0]): Promise<Row[]> {
  const outcomes = await effects.write(operations);
  return outcomes.map((outcome) => {
    if (outcome.status === 'written') return outcome.row;
    throw outcome.status === 'refused' ? outcome.error : new Error('a record the sequence step writes is missing');
  });
}

/** The step's template for this state: among its enabled sequence templates, rotating by state. */
async function activeTemplate(effects: WriteEffects, stepId: number, stateId: number): Promise<Row | undefined> {
  const uses = await effects.records.find('sequenceTemplate', { sequenceStep: [stepId] });
  const enabled = uses.filter((u) => u.enabled !== false && u.template != null);
  if (enabled.length === 0) return undefined;
  const use = enabled[stateId % enabled.length]!;
  return (await effects.records.rows('template', [Number(use.template)])).get(Number(use.template));
}
