import type { Logger } from 'pino';
import type { WriteEffects, WriteOperation, WriteOutcome } from '../../engine/index.js';
import type { Row } from '../../engine/render.js';
import { moveOn, type Move } from '../advance.js';
import type { DueStep } from './due-steps.js';
import { claimStepRuns, includesStep } from './step-runs.js';

/**
 * Runs a claimed set of due steps in the caller's transaction, each kind of write one set
 * through the record writer (one statement per type and column set, their events and jobs with
 * them), however many steps the set holds. Each step does what its type says:
 * - `auto_email`: a scheduled mailing from the step's active template (several rotate by state),
 *   and the state moves on at once;
 * - `manual_email`, `call`, `task`: a task for the mailbox's user, due now; completing it moves
 *   the state on (consequences.ts). A manual e-mail's task comes with its mailing drafted.
 * A step with no template to send, an e-mail step of a state without a mailbox, or a step with
 * no type fails its state saying why (its errorReason). A claimed step whose
 * state is no longer active on it (paused, finished, moved on), or that a run before this one
 * ran, is stale and does nothing.
 */

/** What each manual step type asks of the mailbox's user. */
const TASK_OF_STEP: Readonly<Record<string, { action: string; taskType: string }>> = {
  manual_email: { action: 'email', taskType: 'sequence_step_email' },
  call: { action: 'call', taskType: 'sequence_step_call' },
  task: { action: 'action_item', taskType: 'sequence_step_task' },
};

/** A claimed step this run runs, with what it is made from. */
interface StepToRun {
  readonly due: DueStep;
  readonly state: Row;
  readonly step: Row;
  readonly template: Row | undefined;
  /** The step's sequence template the template came from. */
  readonly sequenceTemplateId: number | undefined;
}

interface Failure {
  readonly stateId: number;
  readonly reason: string;
}

/** Runs the set; how many steps ran (stale ones not counted). */
export async function runSteps(effects: WriteEffects, claimed: readonly DueStep[], log: Logger): Promise<number> {
  const states = await effects.records.rows(
    'sequenceState',
    claimed.map((c) => c.stateId),
  );
  const toRun = await stepsToRun(effects, claimed, states);
  const failures: Failure[] = [];
  const autoEmails: StepToRun[] = [];
  const manual: StepToRun[] = [];
  for (const s of toRun) {
    if (String(s.step.stepType).endsWith('email') && s.state.mailbox == null) {
      failures.push({ stateId: s.due.stateId, reason: `Step ${s.due.stepId} sends e-mail, and the sequence state has no mailbox to send it from` });
    } else if (s.step.stepType === 'auto_email') {
      if (s.template) autoEmails.push(s);
      else failures.push({ stateId: s.due.stateId, reason: `Step ${s.due.stepId} has no active template to send` });
    } else if (TASK_OF_STEP[String(s.step.stepType)]) manual.push(s);
    else failures.push({ stateId: s.due.stateId, reason: `Step ${s.due.stepId} has no step type` });
  }

  const drafts = manual.filter((s) => s.step.stepType === 'manual_email');
  const mailings = await effects.write([...autoEmails.map((s) => mailingOf(effects, s, 'scheduled')), ...drafts.map((s) => mailingOf(effects, s, 'drafted'))]);
  const moves: Move[] = [];
  autoEmails.forEach((s, i) => {
    if (mailings[i]!.status === 'written') moves.push({ stateId: s.due.stateId, fromStepId: s.due.stepId, kind: 'advance' });
    else failures.push(refusal(s, 'mailing', mailings[i]!, log));
  });
  const drafted = new Map<number, number>();
  drafts.forEach((s, i) => {
    const outcome = mailings[autoEmails.length + i]!;
    if (outcome.status === 'written') drafted.set(s.due.stateId, Number(outcome.row.id));
    else failures.push(refusal(s, 'mailing', outcome, log));
  });

  const tasked = manual.filter((s) => s.step.stepType !== 'manual_email' || drafted.has(s.due.stateId));
  const tasks = await effects.write(await tasksOf(effects, tasked, drafted));
  tasked.forEach((s, i) => {
    if (tasks[i]!.status !== 'written') failures.push(refusal(s, 'task', tasks[i]!, log));
  });

  await effects.write(failures.map((f) => effects.update('sequenceState', f.stateId, { state: 'failed', errorReason: f.reason })));
  // The claim locked the states, and nothing above changes them: moveOn need not read them again.
  await moveOn(effects, moves, states);
  return toRun.length;
}

/**
 * The claimed steps that run now: those whose state is still active on the step, claimed in
 * sequence_step_runs by this run, with their step and template.
 */
async function stepsToRun(effects: WriteEffects, claimed: readonly DueStep[], states: ReadonlyMap<number, Row>): Promise<StepToRun[]> {
  const { records } = effects;
  const live = claimed.filter((c) => {
    const state = states.get(c.stateId);
    return state?.state === 'active' && Number(state.sequenceStep) === c.stepId;
  });
  const runs = await claimStepRuns(effects.tx, effects.orgId, live, effects.now);
  const running = live.filter((c) => includesStep(runs, c));
  const steps = await records.rows(
    'sequenceStep',
    running.map((c) => c.stepId),
  );
  // A step deleted since it was scheduled has nothing to run; its run is recorded all the same.
  const withStep = running.filter((c) => steps.has(c.stepId));
  const templates = await activeTemplates(effects, withStep);
  return withStep.map((due) => {
    const chosen = templates.get(due.stateId);
    return { due, state: states.get(due.stateId)!, step: steps.get(due.stepId)!, template: chosen?.template, sequenceTemplateId: chosen?.sequenceTemplateId };
  });
}

/** Each state's template for its step, and the sequence template naming it: among the step's enabled ones, rotating by state. */
async function activeTemplates(effects: WriteEffects, due: readonly DueStep[]): Promise<Map<number, { template: Row; sequenceTemplateId: number }>> {
  if (due.length === 0) return new Map();
  const uses = await effects.records.find('sequenceTemplate', { sequenceStep: [...new Set(due.map((d) => d.stepId))] });
  const enabled = new Map<number, Row[]>();
  for (const use of uses) {
    if (use.enabled === false || use.template == null) continue;
    const step = Number(use.sequenceStep);
    enabled.set(step, [...(enabled.get(step) ?? []), use]);
  }
  const useOf = new Map<number, Row>();
  for (const d of due) {
    const choices = enabled.get(d.stepId);
    if (choices?.length) useOf.set(d.stateId, choices[d.stateId % choices.length]!);
  }
  const templates = await effects.records.rows(
    'template',
    [...useOf.values()].map((use) => Number(use.template)),
  );
  const chosen = new Map<number, { template: Row; sequenceTemplateId: number }>();
  for (const [stateId, use] of useOf) {
    const template = templates.get(Number(use.template));
    if (template) chosen.set(stateId, { template, sequenceTemplateId: Number(use.id) });
  }
  return chosen;
}

/** What a step's mailings and tasks say of where they come from. */
function originOf(s: StepToRun) {
  return { prospect: s.state.prospect ?? null, sequence: s.state.sequence ?? null, sequenceState: s.due.stateId, sequenceStep: s.due.stepId };
}

function mailingOf(effects: WriteEffects, s: StepToRun, state: 'scheduled' | 'drafted'): WriteOperation {
  return effects.create('mailing', {
    ...originOf(s),
    mailbox: s.state.mailbox ?? null,
    template: s.template ? Number(s.template.id) : null,
    state,
    mailingType: 'sequence',
    subject: s.template?.subject ?? null,
    bodyHtml: s.template?.bodyHtml ?? null,
    trackOpens: s.template?.trackOpens ?? null,
    trackLinks: s.template?.trackLinks ?? null,
    ...(state === 'scheduled' && { scheduledAt: effects.now.toISOString() }),
  });
}

/**
 * The tasks of manual steps, for the mailbox's user, with the prospect's account, the drafted
 * mailing and its sequence template, and the taskType of the step (README "Sequences").
 */
async function tasksOf(effects: WriteEffects, steps: readonly StepToRun[], drafted: ReadonlyMap<number, number>): Promise<WriteOperation[]> {
  if (steps.length === 0) return [];
  const idsOf = (name: string) =>
    steps
      .map((s) => s.state[name])
      .filter((id) => id != null)
      .map(Number);
  const prospects = await effects.records.rows('prospect', idsOf('prospect'));
  const mailboxes = await effects.records.rows('mailbox', idsOf('mailbox'));
  return steps.map((s) =>
    effects.create('task', {
      ...originOf(s),
      ...TASK_OF_STEP[String(s.step.stepType)],
      state: 'incomplete',
      owner: mailboxes.get(Number(s.state.mailbox))?.user ?? null,
      account: prospects.get(Number(s.state.prospect))?.account ?? null,
      dueAt: effects.now.toISOString(),
      // When the step was due: later than that only when the runner ran late.
      scheduledAt: s.due.dueAt.toISOString(),
      note: s.step.taskNote ?? null,
      taskPriority: s.step.taskPriority ?? null,
      template: s.template ? Number(s.template.id) : null,
      sequenceTemplate: s.sequenceTemplateId ?? null,
      mailing: drafted.get(s.due.stateId) ?? null,
    }),
  );
}

/**
 * A record the step makes was refused. The service's own writes should pass every rule, so this
 * is a defect: logged, and the state fails saying why rather than holding up the rest of the set.
 */
function refusal(s: StepToRun, what: string, outcome: WriteOutcome, log: Logger): Failure {
  const why = outcome.status === 'refused' ? outcome.error.message : 'the record is missing';
  log.error({ stateId: s.due.stateId, stepId: s.due.stepId, why }, `a sequence step's ${what} was refused`);
  return { stateId: s.due.stateId, reason: `Step ${s.due.stepId} could not make its ${what}: ${why}` };
}
