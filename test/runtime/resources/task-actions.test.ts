import { describe, expect, test } from 'vitest';
import type { Row } from '../../../runtime/engine/render.js';
import { taskBehaviour } from '../../../runtime/behaviours/task.js';

/**
 * What each completing task action hands the sequence automation (its `effect`, seen by the
 * task's afterWrite, not in a response): which the HTTP tests cannot observe.
 */

const now = new Date('2026-03-10T12:00:00.000Z');
const openTask: Row = { id: 1, completed: false, state: 'incomplete', action: 'in_person', 'rel:sequenceState': 5, 'rel:mailing': 6 };

function run(action: string, params: Record<string, string> = {}, record: Row = openTask) {
  return taskBehaviour.actions![action]!.handle({ record, params: new Map(Object.entries(params)), now });
}

describe('effects of task actions', () => {
  test.each<{ action: string; params: Record<string, string>; event: string; effect: string }>([
    { action: 'markComplete', params: {}, event: 'completed', effect: 'advance' },
    { action: 'markComplete', params: { completionAction: 'finish_no_reply' }, event: 'completed', effect: 'finish' },
    { action: 'markComplete', params: { completionAction: 'finish_replied' }, event: 'completed', effect: 'finishReplied' },
    { action: 'markComplete', params: { completionAction: 'advance_please' }, event: 'completed', effect: 'advance' },
    { action: 'advance', params: {}, event: 'completed', effect: 'advance' },
    { action: 'logMeetInPerson', params: { taskDispositionId: '3' }, event: 'completed', effect: 'advance' },
  ])('$action $params: event $event, effect $effect', ({ action, params, event, effect }) => {
    const result = run(action, params);
    expect(result).toMatchObject({ event, effect, changes: { completed: true, state: 'completed', completedAt: now.toISOString() } });
  });

  test('deliver: in progress, effect deliver, no domain event', () => {
    expect(run('deliver', {}, { ...openTask, action: 'email' })).toEqual({ changes: { state: 'in progress' }, effect: 'deliver' });
  });

  test('actions that only edit the task set nothing in motion', () => {
    for (const [action, params] of [
      ['reassignOwner', { ownerId: '2' }],
      ['reschedule', { dueAt: '2026-04-01T00:00:00Z' }],
      ['snooze', {}],
      ['updateNote', { note: 'n' }],
      ['updateOpportunityAssociation', { opportunityAssociation: 'noop' }],
    ] as const) {
      const result = run(action, params);
      expect(result.effect, action).toBeUndefined();
      expect(result.event, action).toBeUndefined();
    }
  });
});
