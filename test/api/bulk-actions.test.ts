import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import {
  attributesOf,
  batchCount,
  create,
  eventsOf,
  freshOrg,
  identifier,
  newUserId,
  runAction,
  settled,
  sortedIds,
  startAction,
  startTestWorker,
  states,
  type OrgClient,
} from '../helpers/bulk-actions.js';

/**
 * Bulk actions (issue #13), one happy path per action: POST /api/v2/batches/actions/<name> with
 * actionParams[skipConfirmation]=true, a real graphile-worker applying the chunks, and what a
 * client can observe afterwards: the batch, its items, the records and the events their writes
 * recorded. Confirmation, cancellation and refusals are in bulk-action-states.test.ts.
 */

let api: TestApi;
let worker: StartedWorker | undefined;

beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api);
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

const finished = (total: number) => ({ state: 'finished', total, pending: 0, failures: 0, summary: null });

async function prospects(org: OrgClient, attributes: Record<string, unknown>[], relationships: Record<string, { type: string; id: number }> = {}) {
  const ids: number[] = [];
  for (const a of attributes) ids.push(await create(org, 'prospects', 'prospect', a, relationships));
  return ids;
}

async function accounts(org: OrgClient, attributes: Record<string, unknown>[]) {
  const ids: number[] = [];
  for (const a of attributes) ids.push(await create(org, 'accounts', 'account', a));
  return ids;
}

const room = {
  name: 'room',
  displayName: 'Room',
  displayField: 'label',
  fields: [
    { name: 'label', type: 'string', required: true, filterable: true, sortable: true },
    { name: 'seats', type: 'integer', filterable: true, sortable: true },
  ],
};

async function rooms(org: OrgClient, attributes: Record<string, unknown>[]) {
  const defined = await org.request('POST', '/api/v2/customObjectDefinitions', { body: { data: { type: 'customObjectDefinition', attributes: room } } });
  expect(defined.status, JSON.stringify(defined.body)).toBe(201);
  const ids: number[] = [];
  for (const a of attributes) ids.push(await create(org, 'customObjects/room', 'room', a));
  return ids;
}

describe('modify', () => {
  it('prospectsBulkModify with an attributes map patches exactly the filtered prospects', async () => {
    const org = await freshOrg(api);
    const selected = await prospects(org, [
      { firstName: 'Ada', lastName: 'Bulk', title: 'Engineer' },
      { firstName: 'Grace', lastName: 'Bulk' },
    ]);
    const [other] = await prospects(org, [{ firstName: 'Alan', lastName: 'Other', title: 'Engineer' }]);
    const { started, batch, items } = await runAction(org, 'prospectsBulkModify', 'actionParams[filter][lastName][]=Bulk', { title: 'CTO', jobStartDate: '2026-01-05' });

    expect(String(started.id)).toMatch(/^\d+$/);
    expect(started.attributes).toMatchObject({ action: 'prospectsBulkModify', resourceType: 'prospect', total: 2 });
    expect(batch).toMatchObject(finished(2));
    expect(batch.finishedAt).toEqual(expect.any(String));
    expect(items.map((i) => [i.itemId, i.state, i.data])).toEqual(selected.map((id) => [id, 'success', identifier('prospect', id)]));
    expect(items.map((i) => i.errors ?? [])).toEqual([[], []]);
    for (const id of selected) expect(await attributesOf(org, `prospects/${id}`)).toMatchObject({ title: 'CTO', jobStartDate: '2026-01-05' });
    expect(await attributesOf(org, `prospects/${other}`)).toMatchObject({ title: 'Engineer', jobStartDate: null });
    expect(await eventsOf(org, 'prospect', ['prospect_updated'])).toEqual(selected.map((id) => ['prospect_updated', id]));
  });

  it('prospectsBulkModify with fieldName and fieldValue sets that one field', async () => {
    const org = await freshOrg(api);
    const ids = await prospects(org, [{ firstName: 'Ada' }, { firstName: 'Grace' }]);
    const { batch, items } = await runAction(org, 'prospectsBulkModify', '', { fieldName: 'occupation', fieldValue: 'Mathematician' });
    expect(batch).toMatchObject(finished(2));
    expect(states(items)).toEqual(ids.map((id) => [id, 'success']));
    for (const id of ids) expect(await attributesOf(org, `prospects/${id}`)).toMatchObject({ occupation: 'Mathematician' });
    expect(await eventsOf(org, 'prospect', ['prospect_updated'])).toEqual(ids.map((id) => ['prospect_updated', id]));
  });

  it('accountsBulkModify patches the filtered accounts', async () => {
    const org = await freshOrg(api);
    const [small, medium, large] = await accounts(org, [
      { name: 'Small', buyerIntentScore: 1 },
      { name: 'Medium', buyerIntentScore: 5 },
      { name: 'Large', buyerIntentScore: 9 },
    ]);
    const { started, batch, items } = await runAction(org, 'accountsBulkModify', 'actionParams[filter][buyerIntentScore][gte]=5', { domain: 'big.example.test' });
    expect(started.attributes).toMatchObject({ action: 'accountsBulkModify', resourceType: 'account' });
    expect(batch).toMatchObject(finished(2));
    expect(items.map((i) => [i.itemId, i.state, i.data])).toEqual([
      [medium, 'success', identifier('account', medium!)],
      [large, 'success', identifier('account', large!)],
    ]);
    expect((await attributesOf(org, `accounts/${medium}`)).domain).toBe('big.example.test');
    expect((await attributesOf(org, `accounts/${large}`)).domain).toBe('big.example.test');
    expect((await attributesOf(org, `accounts/${small}`)).domain).toBeNull();
    expect(await eventsOf(org, 'account', ['account_updated'])).toEqual([
      ['account_updated', medium!],
      ['account_updated', large!],
    ]);
  });

  it('customObjectBulkModify patches records of the custom object named by actionParams[objectName]', async () => {
    const org = await freshOrg(api);
    const [blue, red, green] = await rooms(org, [
      { label: 'Blue', seats: 4 },
      { label: 'Red', seats: 4 },
      { label: 'Green', seats: 10 },
    ]);
    const { started, batch, items } = await runAction(org, 'customObjectBulkModify', 'actionParams[objectName]=room&actionParams[filter][seats][]=4', { seats: 6 });
    expect(started.attributes).toMatchObject({ action: 'customObjectBulkModify', resourceType: 'room' });
    expect(batch).toMatchObject(finished(2));
    expect(items.map((i) => [i.itemId, i.state, i.data])).toEqual([
      [blue, 'success', identifier('room', blue!)],
      [red, 'success', identifier('room', red!)],
    ]);
    expect(await attributesOf(org, `customObjects/room/${blue}`)).toMatchObject({ label: 'Blue', seats: 6 });
    expect(await attributesOf(org, `customObjects/room/${red}`)).toMatchObject({ label: 'Red', seats: 6 });
    expect(await attributesOf(org, `customObjects/room/${green}`)).toMatchObject({ seats: 10 });
    expect(await eventsOf(org, 'room', ['room_updated'])).toEqual([
      ['room_updated', blue!],
      ['room_updated', red!],
    ]);
  });
});

describe('delete', () => {
  it('prospectsDestroyAll deletes the selected prospects', async () => {
    const org = await freshOrg(api);
    const doomed = await prospects(org, [{ lastName: 'Gone' }, { lastName: 'Gone' }]);
    const [kept] = await prospects(org, [{ lastName: 'Kept' }]);
    const { batch, items } = await runAction(org, 'prospectsDestroyAll', 'actionParams[filter][lastName][]=Gone');
    expect(batch).toMatchObject({ ...finished(2), resourceType: 'prospect' });
    expect(items.map((i) => [i.itemId, i.state, i.data])).toEqual(doomed.map((id) => [id, 'success', identifier('prospect', id)]));
    for (const id of doomed) expect((await org.request('GET', `/api/v2/prospects/${id}`)).status).toBe(404);
    expect((await org.request('GET', `/api/v2/prospects/${kept}`)).status).toBe(200);
    expect(await eventsOf(org, 'prospect', ['prospect_destroyed'])).toEqual(doomed.map((id) => ['prospect_destroyed', id]));
  });

  it('accountsDestroyAll deletes the selected accounts', async () => {
    const org = await freshOrg(api);
    const doomed = await accounts(org, [{ name: 'A' }, { name: 'B' }]);
    const { batch, items } = await runAction(org, 'accountsDestroyAll', '', {});
    expect(batch).toMatchObject({ ...finished(2), resourceType: 'account' });
    expect(states(items)).toEqual(doomed.map((id) => [id, 'success']));
    for (const id of doomed) expect((await org.request('GET', `/api/v2/accounts/${id}`)).status).toBe(404);
    expect(await eventsOf(org, 'account', ['account_destroyed'])).toEqual(doomed.map((id) => ['account_destroyed', id]));
  });

  it('customObjectBulkDelete deletes the selected custom object records', async () => {
    const org = await freshOrg(api);
    const [small, big] = await rooms(org, [
      { label: 'Small', seats: 2 },
      { label: 'Big', seats: 40 },
    ]);
    const { batch, items } = await runAction(org, 'customObjectBulkDelete', 'actionParams[objectName]=room&actionParams[filter][seats][lte]=10');
    expect(batch).toMatchObject({ ...finished(1), action: 'customObjectBulkDelete', resourceType: 'room' });
    expect(items.map((i) => [i.itemId, i.state, i.data])).toEqual([[small, 'success', identifier('room', small!)]]);
    expect((await org.request('GET', `/api/v2/customObjects/room/${small}`)).status).toBe(404);
    expect((await org.request('GET', `/api/v2/customObjects/room/${big}`)).status).toBe(200);
    expect(await eventsOf(org, 'room', ['room_destroyed'])).toEqual([['room_destroyed', small!]]);
  });
});

describe('tags', () => {
  const sorted = (tags: string[] | null) => [...(tags ?? [])].sort();

  it('prospectsAddTags adds the tags without duplicates', async () => {
    const org = await freshOrg(api);
    const [a, b, c] = await prospects(org, [{ tags: ['warm'] }, { tags: ['vip', 'cold'] }, {}]);
    const { batch, items } = await runAction(org, 'prospectsAddTags', '', { tags: ['vip', 'q4'] });
    expect(batch).toMatchObject(finished(3));
    expect(states(items)).toEqual([
      [a, 'success'],
      [b, 'success'],
      [c, 'success'],
    ]);
    expect(sorted((await attributesOf(org, `prospects/${a}`)).tags)).toEqual(['q4', 'vip', 'warm']);
    expect(sorted((await attributesOf(org, `prospects/${b}`)).tags)).toEqual(['cold', 'q4', 'vip']);
    expect(sorted((await attributesOf(org, `prospects/${c}`)).tags)).toEqual(['q4', 'vip']);
    expect(await eventsOf(org, 'prospect', ['prospect_updated'])).toEqual([a!, b!, c!].map((id) => ['prospect_updated', id]));
  });

  it('accountAddTags adds the tags without duplicates', async () => {
    const org = await freshOrg(api);
    const [a, b] = await accounts(org, [{ name: 'A', tags: ['partner'] }, { name: 'B' }]);
    const { batch, items } = await runAction(org, 'accountAddTags', '', { tags: ['partner', 'emea'] });
    expect(batch).toMatchObject({ ...finished(2), resourceType: 'account' });
    expect(states(items)).toEqual([
      [a, 'success'],
      [b, 'success'],
    ]);
    expect(sorted((await attributesOf(org, `accounts/${a}`)).tags)).toEqual(['emea', 'partner']);
    expect(sorted((await attributesOf(org, `accounts/${b}`)).tags)).toEqual(['emea', 'partner']);
    expect(await eventsOf(org, 'account', ['account_updated'])).toEqual([a!, b!].map((id) => ['account_updated', id]));
  });

  it('prospectsRemoveTags removes the tags and keeps the others', async () => {
    const org = await freshOrg(api);
    const [a, b] = await prospects(org, [{ tags: ['vip', 'warm', 'q4'] }, { tags: ['cold'] }]);
    const { batch } = await runAction(org, 'prospectsRemoveTags', '', { tags: ['vip', 'q4'] });
    expect(batch).toMatchObject({ state: 'finished', failures: 0 });
    expect(sorted((await attributesOf(org, `prospects/${a}`)).tags)).toEqual(['warm']);
    expect(sorted((await attributesOf(org, `prospects/${b}`)).tags)).toEqual(['cold']);
    expect((await eventsOf(org, 'prospect', ['prospect_updated'])).filter(([, id]) => id === a)).toEqual([['prospect_updated', a!]]);
  });

  it('accountsRemoveTags removes the tags and keeps the others', async () => {
    const org = await freshOrg(api);
    const [a] = await accounts(org, [{ name: 'A', tags: ['partner', 'emea'] }]);
    const { batch, items } = await runAction(org, 'accountsRemoveTags', '', { tags: ['emea'] });
    expect(batch).toMatchObject(finished(1));
    expect(states(items)).toEqual([[a, 'success']]);
    expect((await attributesOf(org, `accounts/${a}`)).tags).toEqual(['partner']);
    expect(await eventsOf(org, 'account', ['account_updated'])).toEqual([['account_updated', a!]]);
  });
});

describe('owner and account', () => {
  it('prospectsAssignOwner sets the owner relationship', async () => {
    const org = await freshOrg(api);
    const owner = await newUserId(api, org);
    const ids = await prospects(org, [{ firstName: 'A' }, { firstName: 'B' }]);
    const { batch, items } = await runAction(org, 'prospectsAssignOwner', '', { ownerId: owner });
    expect(batch).toMatchObject(finished(2));
    expect(states(items)).toEqual(ids.map((id) => [id, 'success']));
    for (const id of ids) {
      const prospect = await org.request('GET', `/api/v2/prospects/${id}`);
      expect(prospect.body.data.relationships.owner.data).toEqual({ type: 'user', id: owner });
    }
    expect(await eventsOf(org, 'prospect', ['prospect_updated'])).toEqual(ids.map((id) => ['prospect_updated', id]));
  });

  it('accountsAssignOwner sets the owner relationship (ownerId as a numeric string)', async () => {
    const org = await freshOrg(api);
    const owner = await newUserId(api, org);
    const [a] = await accounts(org, [{ name: 'A' }]);
    const { batch, items } = await runAction(org, 'accountsAssignOwner', '', { ownerId: String(owner) });
    expect(batch).toMatchObject(finished(1));
    expect(states(items)).toEqual([[a, 'success']]);
    const account = await org.request('GET', `/api/v2/accounts/${a}`);
    expect(account.body.data.relationships.owner.data).toEqual({ type: 'user', id: owner });
    expect(await eventsOf(org, 'account', ['account_updated'])).toEqual([['account_updated', a!]]);
  });

  it('prospectsAssignAccount sets the account relationship', async () => {
    const org = await freshOrg(api);
    const [account] = await accounts(org, [{ name: 'Acme' }]);
    const ids = await prospects(org, [{ firstName: 'A' }, { firstName: 'B' }]);
    const { batch, items } = await runAction(org, 'prospectsAssignAccount', '', { accountId: account });
    expect(batch).toMatchObject(finished(2));
    expect(states(items)).toEqual(ids.map((id) => [id, 'success']));
    const listed = await org.request('GET', `/api/v2/prospects?filter[account][id]=${account}&sort=id`);
    expect(listed.body.data.map((p: { id: number }) => p.id)).toEqual(ids);
    expect(await eventsOf(org, 'prospect', ['prospect_updated'])).toEqual(ids.map((id) => ['prospect_updated', id]));
  });

  it('prospectsAssignOpportunity creates one opportunityProspectRole per prospect; a prospect that has one is skipped', async () => {
    const org = await freshOrg(api);
    const opportunity = await create(org, 'opportunities', 'opportunity', { name: 'Big deal' });
    const [linked, a, b] = await prospects(org, [{ firstName: 'Linked' }, { firstName: 'A' }, { firstName: 'B' }]);
    const existing = await create(
      org,
      'opportunityProspectRoles',
      'opportunityProspectRole',
      {},
      {
        prospect: { type: 'prospect', id: linked! },
        opportunity: { type: 'opportunity', id: opportunity },
      },
    );
    const { batch, items } = await runAction(org, 'prospectsAssignOpportunity', '', { opportunityId: opportunity });
    expect(batch).toMatchObject(finished(3));
    expect(states(items)).toEqual([
      [linked, 'skipped'],
      [a, 'success'],
      [b, 'success'],
    ]);
    for (const id of [linked, a, b]) {
      const roles = await org.request('GET', `/api/v2/opportunityProspectRoles?filter[prospect][id]=${id}`);
      expect(roles.body.data).toHaveLength(1);
      expect(roles.body.data[0].relationships.opportunity.data).toEqual({ type: 'opportunity', id: opportunity });
    }
    const created = await eventsOf(org, 'opportunityProspectRole', ['opportunityProspectRole_created']);
    expect(created).toHaveLength(3);
    expect(created.map(([, id]) => id)).toContain(existing);
  });
});

describe('assignments', () => {
  // A prospect's name is read-only (derived from firstName and lastName).
  const named = (kind: string, name: string) => (kind === 'prospect' ? { firstName: name } : { name });

  for (const [kind, path, type, action] of [
    ['prospect', 'prospects', 'prospect', 'prospectsAddAssignments'],
    ['account', 'accounts', 'account', 'accountsAddAssignments'],
  ] as const) {
    it(`${action} adds user ids (integers or numeric strings) to assignedUserIds`, async () => {
      const org = await freshOrg(api);
      const [u1, u2] = [await newUserId(api, org), await newUserId(api, org)];
      const [a, b] = [await create(org, path, type, { ...named(kind, 'A'), assignedUserIds: [u1] }), await create(org, path, type, named(kind, 'B'))];
      const { batch, items } = await runAction(org, action, '', { userIds: [u1, String(u2)] });
      expect(batch).toMatchObject({ ...finished(2), resourceType: kind });
      expect(states(items)).toEqual([
        [a, 'success'],
        [b, 'success'],
      ]);
      // The contract says "adds to"; a user already assigned is not assigned twice.
      expect(sortedIds((await attributesOf(org, `${path}/${a}`)).assignedUserIds)).toEqual([u1, u2]);
      expect(sortedIds((await attributesOf(org, `${path}/${b}`)).assignedUserIds)).toEqual([u1, u2]);
      expect(await eventsOf(org, kind, [`${kind}_updated`])).toEqual([a, b].map((id) => [`${kind}_updated`, id]));
    });
  }

  for (const [kind, path, type, action] of [
    ['prospect', 'prospects', 'prospect', 'prospectsRemoveAssignments'],
    ['account', 'accounts', 'account', 'accountsRemoveAssignments'],
  ] as const) {
    it(`${action} removes those user ids from assignedUserIds`, async () => {
      const org = await freshOrg(api);
      const [u1, u2, u3] = [await newUserId(api, org), await newUserId(api, org), await newUserId(api, org)];
      const a = await create(org, path, type, { ...named(kind, 'A'), assignedUserIds: [u1, u2, u3] });
      const { batch, items } = await runAction(org, action, '', { userIds: [u1, String(u3)] });
      expect(batch).toMatchObject(finished(1));
      expect(states(items)).toEqual([[a, 'success']]);
      expect((await attributesOf(org, `${path}/${a}`)).assignedUserIds).toEqual([u2]);
      expect(await eventsOf(org, kind, [`${kind}_updated`])).toEqual([[`${kind}_updated`, a]]);
    });
  }

  for (const [kind, path, type, action] of [
    ['prospect', 'prospects', 'prospect', 'prospectsRemoveAllAssignments'],
    ['account', 'accounts', 'account', 'accountsRemoveAllAssignments'],
  ] as const) {
    it(`${action} sets assignedUserIds to []`, async () => {
      const org = await freshOrg(api);
      const [u1, u2] = [await newUserId(api, org), await newUserId(api, org)];
      const a = await create(org, path, type, { ...named(kind, 'A'), assignedUserIds: [u1, u2] });
      const { batch, items } = await runAction(org, action);
      expect(batch).toMatchObject(finished(1));
      expect(states(items)).toEqual([[a, 'success']]);
      expect((await attributesOf(org, `${path}/${a}`)).assignedUserIds).toEqual([]);
      expect(await eventsOf(org, kind, [`${kind}_updated`])).toEqual([[`${kind}_updated`, a]]);
    });
  }
});

describe('sequences', () => {
  async function sequenceSetUp(org: OrgClient) {
    const sequence = await create(org, 'sequences', 'sequence', { name: 'Onboarding' });
    const mailbox = await create(org, 'mailboxes', 'mailbox', { email: `box${org.orgId}@example.test` });
    return { sequence, mailbox };
  }

  async function sequenceState(org: OrgClient, prospect: number, sequence: number, mailbox: number): Promise<number> {
    return create(
      org,
      'sequenceStates',
      'sequenceState',
      {},
      {
        prospect: { type: 'prospect', id: prospect },
        sequence: { type: 'sequence', id: sequence },
        mailbox: { type: 'mailbox', id: mailbox },
      },
    );
  }

  async function statesOfProspect(org: OrgClient, prospect: number) {
    const response = await org.request('GET', `/api/v2/sequenceStates?filter[prospect][id]=${prospect}&sort=createdAt`);
    expect(response.status).toBe(200);
    return response.body.data as { id: number; attributes: { state: string }; relationships: Record<string, { data: unknown }> }[];
  }

  it('prospectsAddToSequence creates a sequence state per prospect (an empty stepOverrides accepted)', async () => {
    const org = await freshOrg(api);
    const { sequence, mailbox } = await sequenceSetUp(org);
    const ids = await prospects(org, [{ lastName: 'Seq' }, { lastName: 'Seq' }]);
    await prospects(org, [{ lastName: 'NotSeq' }]);
    const { batch, items } = await runAction(org, 'prospectsAddToSequence', 'actionParams[filter][lastName][]=Seq', {
      sequenceId: sequence,
      mailboxId: String(mailbox),
      stepOverrides: [],
    });
    expect(batch).toMatchObject({ ...finished(2), resourceType: 'prospect' });
    expect(items.map((i) => [i.itemId, i.state, i.data])).toEqual(ids.map((id) => [id, 'success', identifier('prospect', id)]));
    const created: number[] = [];
    for (const id of ids) {
      const [state, ...more] = await statesOfProspect(org, id);
      expect(more).toEqual([]);
      expect(state!.relationships.sequence!.data).toEqual({ type: 'sequence', id: sequence });
      expect(state!.relationships.mailbox!.data).toEqual({ type: 'mailbox', id: mailbox });
      created.push(state!.id);
    }
    expect(await eventsOf(org, 'sequenceState', ['sequenceState_created'])).toEqual(sortedIds(created).map((id) => ['sequenceState_created', id]));
  });

  it('prospectsAddToSequence refuses step overrides rather than ignore them', async () => {
    const org = await freshOrg(api);
    const { sequence, mailbox } = await sequenceSetUp(org);
    const refused = await startAction(org, 'prospectsAddToSequence', 'actionParams[skipConfirmation]=true', {
      sequenceId: sequence,
      mailboxId: mailbox,
      stepOverrides: [{ stepId: 1, templateId: 2 }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ source: { pointer: '/data/attributes/stepOverrides' }, detail: expect.stringMatching(/not supported/) });
    expect(await batchCount(org)).toBe(0);
  });

  it('prospectsFinishAll finishes pending, active and paused sequence states; a prospect without any is skipped', async () => {
    const org = await freshOrg(api);
    const { sequence, mailbox } = await sequenceSetUp(org);
    const other = await create(org, 'sequences', 'sequence', { name: 'Other' });
    const [busy, idle] = await prospects(org, [{ firstName: 'Busy' }, { firstName: 'Idle' }]);
    const active = await sequenceState(org, busy!, sequence, mailbox);
    const paused = await sequenceState(org, busy!, other, mailbox);
    expect((await org.request('POST', `/api/v2/sequenceStates/${paused}/actions/pause`)).status).toBe(200);
    const { batch, items } = await runAction(org, 'prospectsFinishAll');
    expect(batch).toMatchObject(finished(2));
    expect(states(items)).toEqual([
      [busy, 'success'],
      [idle, 'skipped'],
    ]);
    expect((await statesOfProspect(org, busy!)).map((s) => [s.id, s.attributes.state])).toEqual([
      [active, 'finished'],
      [paused, 'finished'],
    ]);
    expect(await eventsOf(org, 'sequenceState', ['sequenceState_finished'])).toEqual(sortedIds([active, paused]).map((id) => ['sequenceState_finished', id]));
    // Each finish is an update too; `paused` was also updated by its pause.
    const updates = await eventsOf(org, 'sequenceState', ['sequenceState_updated']);
    expect(updates.filter(([, id]) => id === active)).toHaveLength(1);
    expect(updates.filter(([, id]) => id === paused)).toHaveLength(2);
  });

  it('prospectsPauseAll pauses active sequence states and leaves finished ones alone', async () => {
    const org = await freshOrg(api);
    const { sequence, mailbox } = await sequenceSetUp(org);
    const other = await create(org, 'sequences', 'sequence', { name: 'Other' });
    const ids = await prospects(org, [{ firstName: 'A' }, { firstName: 'B' }]);
    const stateIds = [await sequenceState(org, ids[0]!, sequence, mailbox), await sequenceState(org, ids[1]!, sequence, mailbox)];
    const done = await sequenceState(org, ids[0]!, other, mailbox);
    expect((await org.request('POST', `/api/v2/sequenceStates/${done}/actions/finish`)).status).toBe(200);
    const { batch, items } = await runAction(org, 'prospectsPauseAll', '', {});
    expect(batch).toMatchObject(finished(2));
    expect(states(items)).toEqual(ids.map((id) => [id, 'success']));
    expect((await statesOfProspect(org, ids[0]!)).map((s) => [s.id, s.attributes.state])).toEqual([
      [stateIds[0], 'paused'],
      [done, 'finished'],
    ]);
    expect((await statesOfProspect(org, ids[1]!)).map((s) => s.attributes.state)).toEqual(['paused']);
    const updated = (await eventsOf(org, 'sequenceState', ['sequenceState_updated'])).filter(([, id]) => id !== done);
    expect(updated).toEqual(sortedIds(stateIds).map((id) => ['sequenceState_updated', id]));
    expect((await eventsOf(org, 'sequenceState', ['sequenceState_updated'])).filter(([, id]) => id === done)).toHaveLength(1);
  });
});

describe('selection', () => {
  it('attributes.ids (integers or numeric strings) narrows the filtered selection', async () => {
    const org = await freshOrg(api);
    const [a, b, c] = await prospects(org, [{ lastName: 'Pick' }, { lastName: 'Pick' }, { lastName: 'Pick' }]);
    const [outside] = await prospects(org, [{ lastName: 'Elsewhere' }]);
    // An id of another org's prospect, even one the filter would match, is not selected either.
    const [foreign] = await prospects(await freshOrg(api, 'Foreign org'), [{ lastName: 'Pick' }]);
    const { batch, items } = await runAction(org, 'prospectsAddTags', 'actionParams[filter][lastName][]=Pick', {
      tags: ['picked'],
      ids: [a, String(c), outside, foreign],
    });
    expect(batch).toMatchObject(finished(2));
    expect(states(items)).toEqual([
      [a, 'success'],
      [c, 'success'],
    ]);
    expect((await attributesOf(org, `prospects/${a}`)).tags).toEqual(['picked']);
    expect((await attributesOf(org, `prospects/${b}`)).tags).toBeNull();
    expect((await attributesOf(org, `prospects/${c}`)).tags).toEqual(['picked']);
    expect((await attributesOf(org, `prospects/${outside}`)).tags).toBeNull();
  });

  it("the body's data.type may be absent or anything", async () => {
    const org = await freshOrg(api);
    const [id] = await prospects(org, [{ firstName: 'A' }]);
    for (const data of [{ attributes: { tags: ['untyped'] } }, { type: 'prospect', attributes: { tags: ['typed'] } }]) {
      const response = await org.request('POST', '/api/v2/batches/actions/prospectsAddTags?actionParams[skipConfirmation]=true', { body: { data } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect((await settled(org, response.body.data.id)).attributes.state).toBe('finished');
    }
    expect([...(await attributesOf(org, `prospects/${id}`)).tags].sort()).toEqual(['typed', 'untyped']);
  });

  it('a filter selects exactly the records GET ?newFilterSyntax=true&filter... returns', async () => {
    const org = await freshOrg(api);
    const [acme, hooli] = await accounts(org, [{ name: 'Acme' }, { name: 'Hooli' }]);
    await prospects(
      org,
      [
        { firstName: 'Ada', lastName: 'Lovelace', title: 'Countess' },
        { firstName: 'Grace', lastName: 'Hopper', title: 'Admiral' },
      ],
      { account: { type: 'account', id: acme! } },
    );
    await prospects(
      org,
      [
        { firstName: 'Ken', lastName: 'Thompson' },
        { firstName: 'Margaret', lastName: 'Hamilton', title: 'Director' },
      ],
      { account: { type: 'account', id: hooli! } },
    );
    await prospects(org, [
      { firstName: 'Niklaus', lastName: 'Wirth' },
      { firstName: 'Donald', lastName: 'Knuth', title: 'Professor' },
    ]);
    const filters = [
      'filter[firstName][]=Ada&filter[firstName][]=Ken',
      'filter[firstName][gte]=G&filter[firstName][lte]=M',
      'filter[lastName][gte]=K',
      `filter[account][id][]=${hooli}`,
      `filter[account][id][]=${acme}&filter[title][]=Admiral`,
      'filter[q]=hop',
      'filter[account][name][]=Hooli',
      'filter[title][]=__null__',
    ];
    for (const filter of filters) {
      const listed = await org.request('GET', `/api/v2/prospects?newFilterSyntax=true&${filter}&page[size]=100`);
      expect(listed.status, filter).toBe(200);
      const expected = sortedIds(listed.body.data.map((p: { id: number }) => p.id));
      const query = filter.replaceAll('filter[', 'actionParams[filter][');
      const { batch, items } = await runAction(org, 'prospectsBulkModify', query, { custom1: 'touched' });
      expect(batch, filter).toMatchObject(finished(expected.length));
      expect(
        items.map((i) => i.itemId),
        filter,
      ).toEqual(expected);
    }
  });
});
