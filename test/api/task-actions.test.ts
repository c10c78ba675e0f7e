import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api.js';

/**
 * The task actions of the reference (issue #15): each with its parameters, typed by the task
 * schema's x-paramSchemas, and each refusal. The clock is the test's, so due dates are exact.
 */

let api: TestApi;
let now = new Date('2026-03-10T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;
const at = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
});
afterAll(async () => {
  await api?.close();
});

async function createTask(attributes: Record<string, unknown> = {}): Promise<number> {
  const response = await api.request('POST', '/api/v2/tasks', { body: { data: { type: 'task', attributes: { action: 'call', ...attributes } } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

async function create(collection: string, type: string, attributes: Record<string, unknown> = {}, token?: string): Promise<number> {
  const response = await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes } }, ...(token && { token }) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id;
}

/** POST /tasks/<id>/actions/<action> with `params` as actionParams[<name>]. */
function act(id: number, action: string, params: Record<string, string> = {}): Promise<ApiResponse> {
  const query = Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(`actionParams[${name}]`)}=${encodeURIComponent(value)}`)
    .join('&');
  return api.request('POST', `/api/v2/tasks/${id}/actions/${action}${query ? `?${query}` : ''}`);
}

async function task(id: number): Promise<{ attributes: Record<string, any>; relationships: Record<string, any> }> {
  return (await api.request('GET', `/api/v2/tasks/${id}`)).body.data;
}

async function eventNames(id: number): Promise<string[]> {
  const response = await api.request('GET', `/api/v2/events?filter[resourceType]=task&filter[resourceId]=${id}&sort=id`);
  expect(response.status).toBe(200);
  return response.body.data.map((e: { attributes: { name: string } }) => e.attributes.name);
}

async function completedTask(): Promise<number> {
  const id = await createTask();
  expect((await act(id, 'markComplete')).status).toBe(200);
  return id;
}

function expectRefused(response: ApiResponse, status: number, error: { id?: string; parameter?: string; detail?: string | RegExp }): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const [first] = response.body.errors;
  if (error.id) expect(first.id).toBe(error.id);
  if (error.parameter) expect(first.source).toEqual({ parameter: error.parameter });
  if (error.detail) expect(first.detail).toMatch(error.detail);
}

/** Sets a read-only relationship the service itself maintains (a sequence step's task, its mailing). */
async function link(taskId: number, column: string, targetId: number): Promise<void> {
  await api.sql`update tasks set ${api.sql(column)} = ${targetId} where id = ${taskId}`;
}

describe('markComplete', () => {
  it('completes the task with its note, completedAt, completer and a task_completed event', async () => {
    const id = await createTask({ note: 'before' });
    const response = await act(id, 'markComplete', { completionNote: 'Rang her', completionAction: 'finish_replied' });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toMatchObject({
      completed: true,
      state: 'completed',
      completedAt: now.toISOString(),
      stateChangedAt: now.toISOString(),
      note: 'Rang her',
    });
    expect(response.body.data.relationships.completer.data).toEqual({ type: 'user', id: api.org.userId });
    expect(await eventNames(id)).toEqual(['task_created', 'task_updated', 'task_completed']);
  });

  it('keeps the note when no completionNote is given; any completionAction text is taken', async () => {
    const id = await createTask({ note: 'kept' });
    const response = await act(id, 'markComplete', { completionAction: 'something_else' });
    expect(response.body.data.attributes).toMatchObject({ completed: true, note: 'kept' });
  });

  it('422 taskAlreadyCompleted for a completed task, which stays as it was', async () => {
    const id = await completedTask();
    const before = await task(id);
    expectRefused(await act(id, 'markComplete', { completionNote: 'again' }), 422, { id: 'taskAlreadyCompleted' });
    expect(await task(id)).toEqual(before);
    expect(await eventNames(id)).toEqual(['task_created', 'task_updated', 'task_completed']);
  });

  it('400 for a parameter it does not take, naming it and listing those it takes', async () => {
    expectRefused(await act(await createTask(), 'markComplete', { dueAt: '2026-03-11T00:00:00Z' }), 400, {
      parameter: 'actionParams[dueAt]',
      detail: 'dueAt is not a parameter of this action (it takes completionAction, completionNote)',
    });
  });
});

describe('advance', () => {
  it('completes a sequence step task, with task_completed', async () => {
    const id = await createTask();
    const relationships = {
      prospect: { data: { type: 'prospect', id: await create('prospects', 'prospect') } },
      sequence: { data: { type: 'sequence', id: await create('sequences', 'sequence', { name: 'S' }) } },
      mailbox: { data: { type: 'mailbox', id: await create('mailboxes', 'mailbox', { email: 'advance@example.test' }) } },
    };
    const state = await api.request('POST', '/api/v2/sequenceStates', { body: { data: { type: 'sequenceState', relationships } } });
    await link(id, 'sequence_state_id', state.body.data.id);
    const response = await act(id, 'advance');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ completed: true, state: 'completed', completedAt: now.toISOString() });
    expect(await eventNames(id)).toEqual(['task_created', 'task_updated', 'task_completed']);
    expectRefused(await act(id, 'advance'), 422, { id: 'taskAlreadyCompleted' });
  });

  it('422 taskNotInSequence for a task of no sequence state; 400 for any parameter', async () => {
    const id = await createTask();
    expectRefused(await act(id, 'advance'), 422, { id: 'taskNotInSequence' });
    expect((await task(id)).attributes.completed).toBe(false);
    expectRefused(await act(id, 'advance', { note: 'x' }), 400, { parameter: 'actionParams[note]', detail: 'note is not a parameter of this action' });
  });
});

describe('deliver', () => {
  it('puts an e-mail task with a mailing in progress; once only', async () => {
    const id = await createTask({ action: 'email' });
    await link(id, 'mailing_id', await create('mailings', 'mailing'));
    now = new Date(now.getTime() + 60_000);
    const response = await act(id, 'deliver');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ state: 'in progress', completed: false, stateChangedAt: now.toISOString() });
    expect(await eventNames(id)).toEqual(['task_created', 'task_updated']);
    expectRefused(await act(id, 'deliver'), 422, { id: 'taskAlreadyDelivering' });
  });

  it('422 taskNotDeliverable for a task that is not e-mail, or has no mailing; taskAlreadyCompleted for a completed one', async () => {
    expectRefused(await act(await createTask({ action: 'call' }), 'deliver'), 422, { id: 'taskNotDeliverable' });
    const withoutMailing = await createTask({ action: 'email' });
    expectRefused(await act(withoutMailing, 'deliver'), 422, { id: 'taskNotDeliverable' });
    expect((await task(withoutMailing)).attributes.state).toBe('incomplete');
    expectRefused(await act(await completedTask(), 'deliver'), 422, { id: 'taskAlreadyCompleted' });
  });
});

describe('logMeetInPerson', () => {
  it('sets the disposition, purpose and note and completes the task', async () => {
    const id = await createTask({ action: 'in_person' });
    const disposition = await create('taskDispositions', 'taskDisposition', { name: 'Met' });
    const purpose = await create('taskPurposes', 'taskPurpose', { name: 'Demo' });
    const response = await act(id, 'logMeetInPerson', { taskDispositionId: String(disposition), taskPurposeId: String(purpose), completionNote: 'Coffee' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ completed: true, state: 'completed', note: 'Coffee' });
    expect(response.body.data.relationships.taskDisposition.data).toEqual({ type: 'taskDisposition', id: disposition });
    expect(response.body.data.relationships.taskPurpose.data).toEqual({ type: 'taskPurpose', id: purpose });
    expect(await eventNames(id)).toEqual(['task_created', 'task_updated', 'task_completed']);
  });

  it('400 without taskDispositionId or with one that is not an id; 422 for a task that is not in person', async () => {
    const id = await createTask({ action: 'in_person' });
    expectRefused(await act(id, 'logMeetInPerson'), 400, { parameter: 'actionParams[taskDispositionId]', detail: 'actionParams[taskDispositionId] is required' });
    for (const value of ['abc', '0', '-1', '1.5', '007', '9007199254740992']) {
      expectRefused(await act(id, 'logMeetInPerson', { taskDispositionId: value }), 400, {
        parameter: 'actionParams[taskDispositionId]',
        detail: 'actionParams[taskDispositionId] must be an integer in digits from 1 to 9007199254740991',
      });
    }
    const disposition = String(await create('taskDispositions', 'taskDisposition', { name: 'Met' }));
    expectRefused(await act(await createTask({ action: 'call' }), 'logMeetInPerson', { taskDispositionId: disposition }), 422, { id: 'taskNotInPerson' });
  });

  it("422 naming the parameter for a disposition or purpose the org does not have (another org's, or none), and the task stays open", async () => {
    const id = await createTask({ action: 'in_person' });
    const other = await api.newOrg();
    const foreign = await create('taskDispositions', 'taskDisposition', { name: 'Theirs' }, other.token);
    for (const missing of [String(foreign), '987654321']) {
      expectRefused(await act(id, 'logMeetInPerson', { taskDispositionId: missing }), 422, {
        parameter: 'actionParams[taskDispositionId]',
        detail: 'actionParams[taskDispositionId] refers to a taskDisposition that does not exist',
      });
    }
    const disposition = String(await create('taskDispositions', 'taskDisposition', { name: 'Met' }));
    expectRefused(await act(id, 'logMeetInPerson', { taskDispositionId: disposition, taskPurposeId: '987654321' }), 422, { parameter: 'actionParams[taskPurposeId]' });
    expect((await task(id)).attributes.completed).toBe(false);
  });
});

describe('reassignOwner', () => {
  it('sets the owner', async () => {
    const id = await createTask();
    const user = await create('users', 'user', { email: 'new.owner@example.test' });
    const response = await act(id, 'reassignOwner', { ownerId: String(user) });
    expect(response.status).toBe(200);
    expect(response.body.data.relationships.owner.data).toEqual({ type: 'user', id: user });
    expect(await eventNames(id)).toEqual(['task_created', 'task_updated']);
  });

  it("400 without ownerId or with text; 422 naming actionParams[ownerId] for another org's user or none; 422 on a completed task", async () => {
    const id = await createTask();
    expectRefused(await act(id, 'reassignOwner'), 400, { parameter: 'actionParams[ownerId]', detail: 'actionParams[ownerId] is required' });
    expectRefused(await act(id, 'reassignOwner', { ownerId: 'me' }), 400, { parameter: 'actionParams[ownerId]' });
    const other = await api.newOrg();
    for (const missing of [String(other.userId), '987654321']) {
      expectRefused(await act(id, 'reassignOwner', { ownerId: missing }), 422, {
        id: 'validationError',
        parameter: 'actionParams[ownerId]',
        detail: 'actionParams[ownerId] refers to a user that does not exist',
      });
    }
    expect((await task(id)).relationships.owner.data).toBeNull();
    expectRefused(await act(await completedTask(), 'reassignOwner', { ownerId: String(api.org.userId) }), 422, { id: 'taskAlreadyCompleted' });
  });
});

describe('reschedule', () => {
  it('moves dueAt anywhere, earlier too', async () => {
    const id = await createTask({ dueAt: '2026-04-01T09:00:00Z' });
    const response = await act(id, 'reschedule', { dueAt: '2026-03-20T08:30:00+01:00' });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.dueAt).toBe('2026-03-20T07:30:00.000Z');
  });

  it.each(['1', '2001', 'tomorrow', '2026-03-20', '2026-03-20T08:30:00', '2026-02-30T08:30:00Z', '2026-03-20 08:30:00Z'])(
    '400 for dueAt=%s, which is no timestamp with a time zone',
    async (value) => {
      const id = await createTask({ dueAt: '2026-04-01T09:00:00Z' });
      expectRefused(await act(id, 'reschedule', { dueAt: value }), 400, {
        id: 'invalidQueryParameter',
        parameter: 'actionParams[dueAt]',
        detail: 'actionParams[dueAt] must be an ISO 8601 timestamp with a time zone that exists, such as 2025-01-31T09:00:00Z',
      });
      expect((await task(id)).attributes.dueAt).toBe('2026-04-01T09:00:00.000Z');
    },
  );

  it('400 without dueAt, 422 on a completed task', async () => {
    expectRefused(await act(await createTask(), 'reschedule'), 400, { parameter: 'actionParams[dueAt]', detail: 'actionParams[dueAt] is required' });
    expectRefused(await act(await completedTask(), 'reschedule', { dueAt: '2026-05-01T00:00:00Z' }), 422, { id: 'taskAlreadyCompleted' });
  });
});

describe('snooze', () => {
  it('without dueAt: a day after now or the current dueAt, whichever is later', async () => {
    const current = now.getTime();
    const cases: [string | null, string][] = [
      [null, at(current + DAY_MS)],
      [at(current - 5 * DAY_MS), at(current + DAY_MS)],
      [at(current + 3 * DAY_MS), at(current + 4 * DAY_MS)],
    ];
    for (const [dueAt, want] of cases) {
      const id = await createTask({ dueAt });
      const response = await act(id, 'snooze');
      expect(response.status).toBe(200);
      expect(response.body.data.attributes.dueAt, `from ${dueAt}`).toBe(want);
    }
  });

  it('with dueAt: moves it there when that is not earlier; markAsUrgent is accepted and changes nothing else', async () => {
    const id = await createTask({ dueAt: '2026-04-01T09:00:00Z' });
    const later = await act(id, 'snooze', { dueAt: '2026-04-03T09:00:00Z', markAsUrgent: 'true' });
    expect(later.status).toBe(200);
    const before = await task(await createTask({ dueAt: '2026-04-01T09:00:00Z' }));
    expect({ ...later.body.data.attributes, dueAt: null, createdAt: null, updatedAt: null, stateChangedAt: null }).toEqual({
      ...before.attributes,
      dueAt: null,
      createdAt: null,
      updatedAt: null,
      stateChangedAt: null,
    });
    expect(later.body.data.attributes.dueAt).toBe('2026-04-03T09:00:00.000Z');
    expect((await act(id, 'snooze', { dueAt: '2026-04-03T09:00:00Z', markAsUrgent: 'false' })).status).toBe(200);
  });

  it('never moves a due date earlier: 422 snoozeEarlier, and the task keeps its dueAt', async () => {
    const id = await createTask({ dueAt: '2026-04-01T09:00:00Z' });
    expectRefused(await act(id, 'snooze', { dueAt: '2026-03-31T09:00:00Z' }), 422, { id: 'snoozeEarlier', detail: /never moves a due date earlier/ });
    expect((await task(id)).attributes.dueAt).toBe('2026-04-01T09:00:00.000Z');
  });

  it('400 for a dueAt that is no timestamp (actionParams[dueAt]=1 is not the year 2001), or a markAsUrgent that is not true or false', async () => {
    const id = await createTask({ dueAt: '2026-04-01T09:00:00Z' });
    expectRefused(await act(id, 'snooze', { dueAt: '1' }), 400, { parameter: 'actionParams[dueAt]' });
    expectRefused(await act(id, 'snooze', { markAsUrgent: 'yes' }), 400, {
      parameter: 'actionParams[markAsUrgent]',
      detail: 'actionParams[markAsUrgent] must be true or false',
    });
    expect((await task(id)).attributes.dueAt).toBe('2026-04-01T09:00:00.000Z');
  });

  it('422 on a completed task', async () => {
    expectRefused(await act(await completedTask(), 'snooze'), 422, { id: 'taskAlreadyCompleted' });
  });
});

describe('updateNote and updateOpportunityAssociation', () => {
  it('set the attribute, also on a completed task', async () => {
    const id = await completedTask();
    const noted = await act(id, 'updateNote', { note: 'Follow up in May' });
    expect(noted.status).toBe(200);
    expect(noted.body.data.attributes).toMatchObject({ note: 'Follow up in May', completed: true });
    const associated = await act(id, 'updateOpportunityAssociation', { opportunityAssociation: 'recent_updated' });
    expect(associated.body.data.attributes.opportunityAssociation).toBe('recent_updated');
    expect(await eventNames(id)).toEqual(['task_created', 'task_updated', 'task_completed', 'task_updated', 'task_updated']);
  });

  it('400 without the parameter, for an association not among the values, and for a value given twice differently', async () => {
    const id = await createTask();
    expectRefused(await act(id, 'updateNote'), 400, { parameter: 'actionParams[note]', detail: 'actionParams[note] is required' });
    expectRefused(await act(id, 'updateOpportunityAssociation', { opportunityAssociation: 'latest' }), 400, {
      parameter: 'actionParams[opportunityAssociation]',
      detail: 'actionParams[opportunityAssociation] must be one of recent_created, recent_updated, noop',
    });
    const twice = await api.request('POST', `/api/v2/tasks/${id}/actions/updateNote?actionParams[note]=a&actionParams[note]=b`);
    expectRefused(twice, 400, { parameter: 'actionParams[note]' });
    expect((await task(id)).attributes.opportunityAssociation).toBeNull();
  });
});

describe('every task action', () => {
  it('is 404 for a task of another org, with valid parameters', async () => {
    const other = await api.newOrg();
    const theirs = (await api.request('POST', '/api/v2/tasks', { token: other.token, body: { data: { type: 'task', attributes: { action: 'in_person' } } } })).body.data
      .id;
    const calls: [string, Record<string, string>][] = [
      ['advance', {}],
      ['deliver', {}],
      ['logMeetInPerson', { taskDispositionId: '1' }],
      ['markComplete', {}],
      ['reassignOwner', { ownerId: String(api.org.userId) }],
      ['reschedule', { dueAt: '2026-05-01T00:00:00Z' }],
      ['snooze', {}],
      ['updateNote', { note: 'x' }],
      ['updateOpportunityAssociation', { opportunityAssociation: 'noop' }],
    ];
    for (const [action, params] of calls) expectRefused(await act(theirs, action, params), 404, { id: 'resourceNotFound' });
  });
});
