import { actionFailed } from '../jsonapi/index.js';
import type { ActionHandler, ResourceBehaviour } from '../engine/index.js';
import type { Row } from '../engine/render.js';
import { parseTimestamp } from '../model/timestamps.js';

/**
 * Task actions change only the task itself. Where the sequence automation (runtime/sequences)
 * must act on the task's sequence state, the handler names it in `effect`: `advance`, `finish`,
 * `finishReplied` (a completion) or `deliver` (the task's mailing is to be scheduled). Parameter
 * values arrive checked against the schema's x-paramSchemas (ids in digits, strict date-times).
 */

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/** A to-one relationship's id on a locked row (rows carry them under `rel:<name>`, sql-text.ts). */
function linked(record: Row, relationship: string): unknown {
  return record[`rel:${relationship}`] ?? null;
}

function refuseCompleted(record: Row, action: string): void {
  if (record.completed === true) throw actionFailed('taskAlreadyCompleted', `Task ${record.id} is already completed; ${action} applies only to open tasks`);
}

/** What completing a task stores; a note given with the completion replaces the task's note. */
function completion(now: Date, note: string | undefined): Record<string, unknown> {
  return { completed: true, state: 'completed', completedAt: now.toISOString(), ...(note !== undefined && { note }) };
}
const COMPLETION = ['completed', 'state', 'completedAt', 'note'] as const;

/** The reference's completionAction values that end the sequence state instead of advancing it. */
const FINISHING: Readonly<Record<string, string>> = { finish_no_reply: 'finish', finish_replied: 'finishReplied' };

/** Completes the task; `completionNote` replaces its note; `completionAction` decides what the sequence state does. */
const markComplete: ActionHandler = {
  changes: COMPLETION,
  handle({ record, params, now }) {
    refuseCompleted(record, 'markComplete');
    const effect = FINISHING[params.get('completionAction') ?? ''] ?? 'advance';
    return { changes: completion(now, params.get('completionNote')), event: 'completed', effect };
  },
};

/** Completes a sequence step's task so that its sequence state moves on to the next step. */
const advance: ActionHandler = {
  changes: COMPLETION,
  handle({ record, now }) {
    refuseCompleted(record, 'advance');
    if (linked(record, 'sequenceState') === null)
      throw actionFailed('taskNotInSequence', `Task ${record.id} belongs to no sequence state: only a sequence step's task advances`);
    return { changes: completion(now, undefined), event: 'completed', effect: 'advance' };
  },
};

/**
 * Hands an e-mail task's mailing to delivery: the task is `in progress` until the mailing is
 * delivered, which completes it (runtime/sequences schedules the mailing on the `deliver` effect).
 */
const deliver: ActionHandler = {
  changes: ['state'],
  handle({ record }) {
    refuseCompleted(record, 'deliver');
    if (record.action !== 'email' || linked(record, 'mailing') === null) {
      throw actionFailed('taskNotDeliverable', `Task ${record.id} is not an e-mail task with a mailing: only those are delivered`);
    }
    if (record.state !== 'incomplete') throw actionFailed('taskAlreadyDelivering', `Task ${record.id} is already ${String(record.state)}`);
    return { changes: { state: 'in progress' }, effect: 'deliver' };
  },
};

/** Records an in-person meeting's outcome and completes the task. */
const logMeetInPerson: ActionHandler = {
  changes: [...COMPLETION, 'taskDisposition', 'taskPurpose'],
  handle({ record, params, now }) {
    refuseCompleted(record, 'logMeetInPerson');
    if (record.action !== 'in_person') throw actionFailed('taskNotInPerson', `Task ${record.id} is not an in-person task (its action is ${String(record.action)})`);
    const purpose = params.get('taskPurposeId');
    return {
      changes: {
        ...completion(now, params.get('completionNote')),
        taskDisposition: Number(params.get('taskDispositionId')),
        ...(purpose !== undefined && { taskPurpose: Number(purpose) }),
      },
      event: 'completed',
      effect: 'advance',
    };
  },
};

const reassignOwner: ActionHandler = {
  changes: ['owner'],
  handle({ record, params }) {
    refuseCompleted(record, 'reassignOwner');
    return { changes: { owner: Number(params.get('ownerId')) } };
  },
};

/** Moves dueAt anywhere, earlier included (snooze only ever moves it later). */
const reschedule: ActionHandler = {
  changes: ['dueAt'],
  handle({ record, params }) {
    refuseCompleted(record, 'reschedule');
    return { changes: { dueAt: parseTimestamp(params.get('dueAt')!)!.toISOString() } };
  },
};

/**
 * Without `dueAt`, a day after now or the current dueAt, whichever is later (the reference's
 * rule). A `dueAt` earlier than the current one is refused rather than ignored: snooze never
 * moves a due date earlier, and a client asking for it should learn that reschedule does.
 * `markAsUrgent` is accepted as the reference has it, but changes nothing: a task has no
 * urgency of its own to store, and choosing a taskPriority for it would be a guess.
 */
const snooze: ActionHandler = {
  changes: ['dueAt'],
  handle({ record, params, now }) {
    refuseCompleted(record, 'snooze');
    const current = typeof record.dueAt === 'string' ? parseTimestamp(record.dueAt) : undefined;
    const given = params.get('dueAt');
    if (given === undefined) {
      const from = Math.max(now.getTime(), current?.getTime() ?? 0);
      return { changes: { dueAt: new Date(from + ONE_DAY_MS).toISOString() } };
    }
    const dueAt = parseTimestamp(given)!;
    if (current && dueAt < current) {
      throw actionFailed('snoozeEarlier', `Snoozing never moves a due date earlier: task ${record.id} is due at ${current.toISOString()}; reschedule moves it earlier`);
    }
    return { changes: { dueAt: dueAt.toISOString() } };
  },
};

const updateNote: ActionHandler = {
  changes: ['note'],
  handle: ({ params }) => ({ changes: { note: params.get('note')! } }),
};

const updateOpportunityAssociation: ActionHandler = {
  changes: ['opportunityAssociation'],
  handle: ({ params }) => ({ changes: { opportunityAssociation: params.get('opportunityAssociation')! } }),
};

export const taskBehaviour: ResourceBehaviour = {
  /**
   * stateChangedAt: when the task got its state (created, delivered, completed); completer: the
   * user who completed it, by whichever action (none for an application acting alone);
   * taskType: `manual` for a task created without one, as the reference says of tasks created
   * through the API (a sequence step's task comes with its own, runtime/sequences).
   */
  derives: ['stateChangedAt', 'completer', 'taskType'],
  derive(next, previous, { now, actor }) {
    const completing = next.completed === true && previous?.completed !== true;
    return {
      ...((!previous || next.state !== previous.state) && { stateChangedAt: now.toISOString() }),
      ...(completing && { completer: actor.userId }),
      ...(!previous && next.taskType == null && { taskType: 'manual' }),
    };
  },
  actions: { advance, deliver, logMeetInPerson, markComplete, reassignOwner, reschedule, snooze, updateNote, updateOpportunityAssociation },
};
