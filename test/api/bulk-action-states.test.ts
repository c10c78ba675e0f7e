import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import {
  attributesOf,
  batchCount,
  create,
  drained,
  freshOrg,
  itemsOf,
  runAction,
  settled,
  startAction,
  startTestWorker,
  states,
  userWithScopes,
  type OrgClient,
} from '../helpers/bulk-actions.js';

/**
 * Bulk actions (issue #13): the batch's states (confirming, pending, finished, failed, canceled),
 * the confirm and cancel actions, and every request refused as a whole. The happy path of each
 * action is in bulk-actions.test.ts.
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

async function prospects(org: OrgClient, attributes: Record<string, unknown>[]) {
  const ids: number[] = [];
  for (const a of attributes) ids.push(await create(org, 'prospects', 'prospect', a));
  return ids;
}

/** `count` prospects straight into the database, in one statement, for selections past a limit. */
async function manyProspects(org: OrgClient, count: number, lastName: string) {
  await api.sql`
    insert into prospects (org_id, first_name, last_name, created_at, updated_at)
    select ${org.orgId}, 'Many ' || g, ${lastName}, now(), now() from generate_series(1, ${count}) g`;
}

const confirm = (org: OrgClient, id: number | string, query = '') => org.request('POST', `/api/v2/batches/${id}/actions/confirm${query ? `?${query}` : ''}`);
const cancel = (org: OrgClient, id: number | string) => org.request('POST', `/api/v2/batches/${id}/actions/cancel`);

function expectError(response: ApiResponse, status: number, error: Record<string, unknown>) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), ...error });
  expect(response.body.errors[0].detail).toEqual(expect.any(String));
}

/** A short pause, so that a worker that should not touch anything would have had its chance. */
const pause = (ms = 1500) => new Promise((resolve) => setTimeout(resolve, ms));

describe('confirming', () => {
  it('without skipConfirmation: confirming, confirmCount, confirmedCountRequired false for a small modify; nothing applied', async () => {
    const org = await freshOrg(api);
    const ids = await prospects(org, [{ lastName: 'Wait' }, { lastName: 'Wait' }]);
    const response = await startAction(org, 'prospectsBulkModify', 'actionParams[filter][lastName][]=Wait&actionParams[skipConfirmation]=false', { title: 'Boss' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.type).toBe('batch');
    expect(response.body.data.attributes).toMatchObject({
      action: 'prospectsBulkModify',
      resourceType: 'prospect',
      state: 'confirming',
      confirmCount: 2,
      total: 2,
      pending: 2,
      failures: 0,
      confirmedCountRequired: false,
      startedAt: null,
      confirmedAt: null,
      finishedAt: null,
    });
    expect(response.body.data.attributes.payload).toEqual(expect.any(Object));
    await pause();
    const again = await org.request('GET', `/api/v2/batches/${response.body.data.id}`);
    expect(again.body.data.attributes).toMatchObject({ state: 'confirming', pending: 2 });
    for (const id of ids) expect((await attributesOf(org, `prospects/${id}`)).title).toBeNull();
  });

  it('confirmedCountRequired is true for DestroyAll and customObjectBulkDelete', async () => {
    const org = await freshOrg(api);
    await prospects(org, [{ firstName: 'A' }]);
    await create(org, 'accounts', 'account', { name: 'A' });
    const defined = await org.request('POST', '/api/v2/customObjectDefinitions', {
      body: {
        data: { type: 'customObjectDefinition', attributes: { name: 'desk', displayName: 'Desk', displayField: 'label', fields: [{ name: 'label', type: 'string' }] } },
      },
    });
    expect(defined.status).toBe(201);
    await create(org, 'customObjects/desk', 'desk', { label: 'A' });
    for (const [name, query] of [
      ['prospectsDestroyAll', ''],
      ['accountsDestroyAll', ''],
      ['customObjectBulkDelete', 'actionParams[objectName]=desk'],
    ] as const) {
      const response = await startAction(org, name, query);
      expect(response.status, name).toBe(200);
      expect(response.body.data.attributes, name).toMatchObject({ state: 'confirming', confirmCount: 1, confirmedCountRequired: true });
    }
  });

  it('confirmedCountRequired is true for any action over 1,000 records', async () => {
    const org = await freshOrg(api);
    await manyProspects(org, 1001, 'Crowd');
    const response = await startAction(org, 'prospectsAddTags', '', { tags: ['crowd'] });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ state: 'confirming', confirmCount: 1001, total: 1001, confirmedCountRequired: true });
    // Exactly 1,000 is not over 1,000.
    const first1000 = await api.sql<{ id: string }[]>`select id from prospects where org_id = ${org.orgId} order by id limit 1000`;
    const exactly1000 = await startAction(org, 'prospectsAddTags', '', { tags: ['crowd'], ids: first1000.map((r) => Number(r.id)) });
    expect(exactly1000.status, JSON.stringify(exactly1000.body)).toBe(200);
    expect(exactly1000.body.data.attributes).toMatchObject({ state: 'confirming', confirmCount: 1000, confirmedCountRequired: false });
    expect((await cancel(org, response.body.data.id)).status).toBe(200);
    expect((await cancel(org, exactly1000.body.data.id)).status).toBe(200);
  });
});

describe('confirm', () => {
  it('without confirmedCount when not required: pending with confirmedAt, then applied', async () => {
    const org = await freshOrg(api);
    const ids = await prospects(org, [{ firstName: 'A' }, { firstName: 'B' }]);
    const made = await startAction(org, 'prospectsBulkModify', '', { title: 'Confirmed' });
    const confirmed = await confirm(org, made.body.data.id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data.attributes).toMatchObject({ state: 'pending' });
    expect(confirmed.body.data.attributes.confirmedAt).toEqual(expect.any(String));
    const done = await settled(org, made.body.data.id);
    expect(done.attributes).toMatchObject({ state: 'finished', pending: 0, failures: 0, summary: null });
    expect(done.attributes.finishedAt).toEqual(expect.any(String));
    expect(states(await itemsOf(org, made.body.data.id))).toEqual(ids.map((id) => [id, 'success']));
    for (const id of ids) expect((await attributesOf(org, `prospects/${id}`)).title).toBe('Confirmed');
  });

  it('with confirmedCount equal to confirmCount when required: applied', async () => {
    const org = await freshOrg(api);
    const ids = await prospects(org, [{ firstName: 'A' }, { firstName: 'B' }]);
    const made = await startAction(org, 'prospectsDestroyAll');
    expect(made.body.data.attributes.confirmedCountRequired).toBe(true);
    const confirmed = await confirm(org, made.body.data.id, 'actionParams[confirmedCount]=2');
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data.attributes.state).toBe('pending');
    expect((await settled(org, made.body.data.id)).attributes).toMatchObject({ state: 'finished', failures: 0 });
    for (const id of ids) expect((await org.request('GET', `/api/v2/prospects/${id}`)).status).toBe(404);
  });

  it('422 confirmedCountMismatch for a mismatch, and for no confirmedCount when required; the batch stays confirming', async () => {
    const org = await freshOrg(api);
    const ids = await prospects(org, [{ firstName: 'A' }, { firstName: 'B' }]);
    const required = await startAction(org, 'prospectsDestroyAll');
    expectError(await confirm(org, required.body.data.id, 'actionParams[confirmedCount]=3'), 422, { id: 'confirmedCountMismatch' });
    expectError(await confirm(org, required.body.data.id), 422, { id: 'confirmedCountMismatch' });
    // Given when not required, it must still match.
    const optional = await startAction(org, 'prospectsBulkModify', '', { title: 'X' });
    expectError(await confirm(org, optional.body.data.id, 'actionParams[confirmedCount]=1'), 422, { id: 'confirmedCountMismatch' });
    await pause();
    for (const batch of [required, optional]) {
      expect((await org.request('GET', `/api/v2/batches/${batch.body.data.id}`)).body.data.attributes).toMatchObject({ state: 'confirming', confirmedAt: null });
    }
    for (const id of ids) expect((await attributesOf(org, `prospects/${id}`)).title).toBeNull();
  });

  it('400 for a confirmedCount that is not an integer', async () => {
    const org = await freshOrg(api);
    await prospects(org, [{ firstName: 'A' }]);
    const made = await startAction(org, 'prospectsDestroyAll');
    for (const value of ['abc', '1.5', '-1', '']) {
      expectError(await confirm(org, made.body.data.id, `actionParams[confirmedCount]=${value}`), 400, { source: { parameter: 'actionParams[confirmedCount]' } });
    }
    expect((await org.request('GET', `/api/v2/batches/${made.body.data.id}`)).body.data.attributes.state).toBe('confirming');
  });

  it('422 invalidBatchState for a batch that is not confirming (finished, canceled; pending is in the cancel tests)', async () => {
    const org = await freshOrg(api);
    await prospects(org, [{ firstName: 'A' }]);
    const { started } = await runAction(org, 'prospectsAddTags', '', { tags: ['x'] });
    expectError(await confirm(org, started.id), 422, { id: 'invalidBatchState' });
    const canceled = await startAction(org, 'prospectsAddTags', '', { tags: ['y'] });
    expect((await cancel(org, canceled.body.data.id)).status).toBe(200);
    expectError(await confirm(org, canceled.body.data.id), 422, { id: 'invalidBatchState' });
  });

  it('works on the records selected when the batch was made: later records are not touched', async () => {
    const org = await freshOrg(api);
    const ids = await prospects(org, [{ lastName: 'Snap' }, { lastName: 'Snap' }]);
    const made = await startAction(org, 'prospectsBulkModify', 'actionParams[filter][lastName][]=Snap', { title: 'Snapshot' });
    expect(made.body.data.attributes.confirmCount).toBe(2);
    const [later] = await prospects(org, [{ lastName: 'Snap' }]);
    expect((await confirm(org, made.body.data.id)).status).toBe(200);
    const done = await settled(org, made.body.data.id);
    expect(done.attributes).toMatchObject({ state: 'finished', total: 2, failures: 0 });
    expect(states(await itemsOf(org, made.body.data.id))).toEqual(ids.map((id) => [id, 'success']));
    for (const id of ids) expect((await attributesOf(org, `prospects/${id}`)).title).toBe('Snapshot');
    expect((await attributesOf(org, `prospects/${later}`)).title).toBeNull();
  });

  it('a record deleted between selection and confirm: its item is an error resourceNotFound, the others succeed', async () => {
    const org = await freshOrg(api);
    const [a, gone, c] = await prospects(org, [{ firstName: 'A' }, { firstName: 'Gone' }, { firstName: 'C' }]);
    const made = await startAction(org, 'prospectsBulkModify', '', { title: 'Survivor' });
    expect((await org.request('DELETE', `/api/v2/prospects/${gone}`)).status).toBe(204);
    expect((await confirm(org, made.body.data.id)).status).toBe(200);
    const done = await settled(org, made.body.data.id);
    expect(done.attributes).toMatchObject({ state: 'finished', total: 3, pending: 0, failures: 1, summary: { failures: 1, errors: { resourceNotFound: 1 } } });
    const items = await itemsOf(org, made.body.data.id);
    expect(states(items)).toEqual([
      [a, 'success'],
      [gone, 'error'],
      [c, 'success'],
    ]);
    expect(items[1]!.errors).toEqual([expect.objectContaining({ id: 'resourceNotFound', status: '404' })]);
    expect((await attributesOf(org, `prospects/${a}`)).title).toBe('Survivor');
    expect((await attributesOf(org, `prospects/${c}`)).title).toBe('Survivor');
  });
});

describe("another org's batch", () => {
  it('is not found by confirm or cancel (the contract is silent; 404 as for any record of another org)', async () => {
    const org = await freshOrg(api);
    const [id] = await prospects(org, [{ firstName: 'A' }]);
    const made = await startAction(org, 'prospectsBulkModify', '', { title: 'Theirs' });
    const stranger = await freshOrg(api, 'Stranger org');
    expectError(await confirm(stranger, made.body.data.id), 404, { id: 'resourceNotFound' });
    expectError(await cancel(stranger, made.body.data.id), 404, { id: 'resourceNotFound' });
    expect((await org.request('GET', `/api/v2/batches/${made.body.data.id}`)).body.data.attributes.state).toBe('confirming');
    expect((await attributesOf(org, `prospects/${id}`)).title).toBeNull();
  });
});

describe('cancel', () => {
  it('from confirming: canceled with canceledAt; nothing applied', async () => {
    const org = await freshOrg(api);
    const [id] = await prospects(org, [{ firstName: 'A' }]);
    const made = await startAction(org, 'prospectsBulkModify', '', { title: 'Never' });
    const canceled = await cancel(org, made.body.data.id);
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.data.attributes.state).toBe('canceled');
    expect(canceled.body.data.attributes.canceledAt).toEqual(expect.any(String));
    await pause();
    expect((await attributesOf(org, `prospects/${id}`)).title).toBeNull();
  });

  it('from pending, before the worker gets to it: canceled; its items end skipped saying so; nothing applied', async () => {
    const org = await freshOrg(api);
    const ids = await prospects(org, [{ firstName: 'A' }, { firstName: 'B' }]);
    await worker!.stop();
    worker = undefined;
    try {
      const made = await startAction(org, 'prospectsBulkModify', 'actionParams[skipConfirmation]=true', { title: 'Never' });
      expect(made.body.data.attributes.state).toBe('pending');
      expectError(await confirm(org, made.body.data.id), 422, { id: 'invalidBatchState' });
      const canceled = await cancel(org, made.body.data.id);
      expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
      expect(canceled.body.data.attributes).toMatchObject({ state: 'canceled' });
      expect(canceled.body.data.attributes.canceledAt).toEqual(expect.any(String));
      worker = await startTestWorker(api);
      const after = await drained(org, made.body.data.id);
      expect(after).toMatchObject({ state: 'canceled', pending: 0 });
      const items = await itemsOf(org, made.body.data.id);
      expect(states(items)).toEqual(ids.map((id) => [id, 'skipped']));
      for (const item of items) expect(item.info).toMatch(/cancel/i);
      for (const id of ids) expect((await attributesOf(org, `prospects/${id}`)).title).toBeNull();
    } finally {
      worker ??= await startTestWorker(api);
    }
  });

  it('422 invalidBatchState from finished and canceled', async () => {
    const org = await freshOrg(api);
    await prospects(org, [{ firstName: 'A' }]);
    const { started } = await runAction(org, 'prospectsAddTags', '', { tags: ['x'] });
    expectError(await cancel(org, started.id), 422, { id: 'invalidBatchState' });
    const made = await startAction(org, 'prospectsAddTags', '', { tags: ['y'] });
    expect((await cancel(org, made.body.data.id)).status).toBe(200);
    expectError(await cancel(org, made.body.data.id), 422, { id: 'invalidBatchState' });
  });
});

describe('more than one chunk (1,000 records each)', () => {
  async function itemCount(org: OrgClient, batchId: number | string, state: string): Promise<number> {
    const { body } = await org.request('GET', `/api/v2/batchItems?filter[batch][id]=${batchId}&filter[state]=${state}&count=true&page[size]=1`);
    return body.meta.count;
  }

  async function taggedCount(org: OrgClient, tag: string): Promise<number> {
    const [row] = await api.sql`select count(*)::int as n from prospects where org_id = ${org.orgId} and ${tag} = any(tags)`;
    return row!.n;
  }

  it('2,500 records with skipConfirmation: every record changed, every item a success', async () => {
    const org = await freshOrg(api);
    await manyProspects(org, 2500, 'Chunked');
    const { started, batch } = await runAction(org, 'prospectsAddTags', 'actionParams[filter][lastName][]=Chunked', { tags: ['chunked'] });
    expect(batch).toMatchObject({ state: 'finished', total: 2500, pending: 0, failures: 0, summary: null });
    expect(await itemCount(org, started.id, 'success')).toBe(2500);
    expect(await taggedCount(org, 'chunked')).toBe(2500);
  }, 120_000);

  it('canceled while processing: records already changed stay changed, the rest are skipped saying so, pending drops to 0', async () => {
    const org = await freshOrg(api);
    await manyProspects(org, 6000, 'Stopped');
    const made = await startAction(org, 'prospectsAddTags', 'actionParams[skipConfirmation]=true', { tags: ['stopped'] });
    expect(made.status).toBe(200);
    const id = made.body.data.id;
    await until(
      'the first chunk to be written',
      async () => ((await org.request('GET', `/api/v2/batches/${id}`)).body.data.attributes.pending < 6000 ? true : undefined),
      60_000,
    );
    const canceled = await cancel(org, id);
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const doneAtCancel = 6000 - canceled.body.data.attributes.pending;
    const after = await drained(org, id);
    expect(after).toMatchObject({ state: 'canceled', total: 6000, pending: 0 });
    const [success, skipped] = [await itemCount(org, id, 'success'), await itemCount(org, id, 'skipped')];
    expect(success + skipped).toBe(6000);
    // Chunks already running when the cancel came finish: at most one per job the worker runs at once (2).
    expect(success).toBeGreaterThanOrEqual(doneAtCancel);
    expect(success).toBeLessThanOrEqual(doneAtCancel + 2 * 1000);
    expect(skipped).toBeGreaterThan(0);
    expect(await taggedCount(org, 'stopped')).toBe(success);
    const { body } = await org.request('GET', `/api/v2/batchItems?filter[batch][id]=${id}&filter[state]=skipped&page[size]=100`);
    for (const item of body.data) expect(item.attributes.info).toMatch(/cancel/i);
  }, 120_000);
});

describe('more than 100,000 records', () => {
  it('200 with a failed batch, total 0 and summary.fatal; nothing applied, no items', async () => {
    const org = await freshOrg(api);
    await manyProspects(org, 100_001, 'Horde');
    const response = await startAction(org, 'prospectsAddTags', 'actionParams[skipConfirmation]=true', { tags: ['horde'] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.attributes).toMatchObject({ state: 'failed', total: 0 });
    expect(response.body.data.attributes.summary.fatal).toEqual(expect.any(String));
    expect(await itemsOf(org, response.body.data.id)).toEqual([]);
    expectError(await cancel(org, response.body.data.id), 422, { id: 'invalidBatchState' });
    expectError(await confirm(org, response.body.data.id), 422, { id: 'invalidBatchState' });
    await pause();
    const [tagged] = await api.sql`select count(*)::int as n from prospects where org_id = ${org.orgId} and tags is not null`;
    expect(tagged!.n).toBe(0);
  }, 120_000);
});

describe('requests refused as a whole (no batch is made)', () => {
  let org: OrgClient;
  beforeAll(async () => {
    org = await freshOrg(api);
    await prospects(org, [{ firstName: 'A' }]);
  });

  async function refused(name: string, query: string, attributes: Record<string, unknown> | undefined, status: number, error: Record<string, unknown>) {
    const before = await batchCount(org);
    expectError(await startAction(org, name, query, attributes), status, error);
    expect(await batchCount(org), `${name}?${query}`).toBe(before);
  }

  it('404 resourceNotFound for an unknown action', async () => {
    await refused('prospectsExplode', '', {}, 404, { id: 'resourceNotFound' });
  });

  it('400 naming an unknown actionParams parameter or a malformed value', async () => {
    await refused('prospectsBulkModify', 'actionParams[nosuch]=1', { title: 'X' }, 400, { source: { parameter: 'actionParams[nosuch]' } });
    await refused('prospectsBulkModify', 'actionParams[filter][nosuch]=1', { title: 'X' }, 400, { source: { parameter: 'actionParams[filter][nosuch]' } });
    await refused('prospectsBulkModify', 'actionParams[skipConfirmation]=yes', { title: 'X' }, 400, { source: { parameter: 'actionParams[skipConfirmation]' } });
    await refused('prospectsBulkModify', 'actionParams[filter][firstName][between]=A', { title: 'X' }, 400, {
      source: { parameter: 'actionParams[filter][firstName][between]' },
    });
  });

  it('400 for actionParams[objectName] on an action of a standard resource (the contract is silent; it is no parameter of that action)', async () => {
    await refused('prospectsBulkModify', 'actionParams[objectName]=room', { title: 'X' }, 400, { source: { parameter: 'actionParams[objectName]' } });
  });

  it('400 for a custom-object action without actionParams[objectName], or naming an object the org does not have', async () => {
    await refused('customObjectBulkModify', '', { label: 'X' }, 400, { source: { parameter: 'actionParams[objectName]' } });
    await refused('customObjectBulkDelete', '', undefined, 400, { source: { parameter: 'actionParams[objectName]' } });
    await refused('customObjectBulkModify', 'actionParams[objectName]=nosuch', { label: 'X' }, 400, { source: { parameter: 'actionParams[objectName]' } });
  });

  it('422 validationError with a pointer for a bad body', async () => {
    const invalid = (pointer: string) => ({ id: 'validationError', source: { pointer } });
    await refused('prospectsBulkModify', '', { name: 'Read Only' }, 422, invalid('/data/attributes/name'));
    await refused('prospectsBulkModify', '', { noSuchField: 1 }, 422, invalid('/data/attributes/noSuchField'));
    await refused('prospectsBulkModify', '', { title: 7 }, 422, invalid('/data/attributes/title'));
    await refused('prospectsBulkModify', '', { fieldName: 'name', fieldValue: 'Read Only' }, 422, { id: 'validationError' });
    await refused('prospectsBulkModify', '', { title: 'X', ids: 'all' }, 422, invalid('/data/attributes/ids'));
    await refused('prospectsBulkModify', '', { title: 'X', ids: ['one'] }, 422, { id: 'validationError' });
    await refused('prospectsDestroyAll', '', { tags: ['x'] }, 422, invalid('/data/attributes/tags'));
    await refused('prospectsAddTags', '', { tags: 'vip' }, 422, invalid('/data/attributes/tags'));
    await refused('prospectsAddTags', '', { tags: [1] }, 422, invalid('/data/attributes/tags'));
    await refused('prospectsAddTags', '', {}, 422, invalid('/data/attributes/tags'));
    await refused('prospectsAssignOwner', '', { ownerId: 999_999 }, 422, invalid('/data/attributes/ownerId'));
    await refused('prospectsAssignOwner', '', {}, 422, invalid('/data/attributes/ownerId'));
    await refused('prospectsAddTags', '', { tags: ['x'], ownerId: 1 }, 422, invalid('/data/attributes/ownerId'));
    await refused('accountsAddAssignments', '', {}, 422, invalid('/data/attributes/userIds'));
    await refused('prospectsAssignAccount', '', { accountId: 999_999 }, 422, invalid('/data/attributes/accountId'));
    await refused('prospectsAssignOpportunity', '', { opportunityId: 999_999 }, 422, invalid('/data/attributes/opportunityId'));
    await refused('prospectsAddAssignments', '', { userIds: [999_999] }, 422, invalid('/data/attributes/userIds'));
    const sequence = await create(org, 'sequences', 'sequence', { name: 'S' });
    const mailbox = await create(org, 'mailboxes', 'mailbox', { email: 'refusals@example.test' });
    await refused('prospectsAddToSequence', '', { mailboxId: mailbox }, 422, invalid('/data/attributes/sequenceId'));
    await refused('prospectsAddToSequence', '', { sequenceId: sequence }, 422, invalid('/data/attributes/mailboxId'));
    await refused('prospectsAddToSequence', '', { sequenceId: 999_999, mailboxId: mailbox }, 422, invalid('/data/attributes/sequenceId'));
  });

  it('422 for an unknown field of a custom object', async () => {
    const defined = await org.request('POST', '/api/v2/customObjectDefinitions', {
      body: {
        data: { type: 'customObjectDefinition', attributes: { name: 'crate', displayName: 'Crate', displayField: 'label', fields: [{ name: 'label', type: 'string' }] } },
      },
    });
    expect(defined.status).toBe(201);
    await refused('customObjectBulkModify', 'actionParams[objectName]=crate', { weight: 3 }, 422, {
      id: 'validationError',
      source: { pointer: '/data/attributes/weight' },
    });
  });

  it("403 for confirm without the records' scope (README: confirming needs them too); the batch stays confirming", async () => {
    const modify = await startAction(org, 'prospectsBulkModify', '', { title: 'Scoped' });
    const destroy = await startAction(org, 'prospectsDestroyAll');
    const batchesOnly = await userWithScopes(api, org, ['batches.read', 'batches.write']);
    expect((await confirm(batchesOnly, modify.body.data.id)).status).toBe(403);
    const writer = await userWithScopes(api, org, ['batches.read', 'batches.write', 'prospects.write']);
    expect((await confirm(writer, destroy.body.data.id, `actionParams[confirmedCount]=${destroy.body.data.attributes.confirmCount}`)).status).toBe(403);
    for (const made of [modify, destroy]) {
      expect((await org.request('GET', `/api/v2/batches/${made.body.data.id}`)).body.data.attributes.state).toBe('confirming');
    }
    const confirmed = await confirm(writer, modify.body.data.id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect((await cancel(org, destroy.body.data.id)).status).toBe(200);
    await settled(org, modify.body.data.id);
  });

  it('an owner of another org is no record of this one', async () => {
    const other = await freshOrg(api, 'Other org');
    await refused('prospectsAssignOwner', '', { ownerId: other.userId }, 422, { id: 'validationError', source: { pointer: '/data/attributes/ownerId' } });
  });

  it('403 without batches.write, batches.read, or the subject scope (prospects.delete for DestroyAll)', async () => {
    const all = ['batches.read', 'batches.write', 'prospects.write'];
    for (const missing of all) {
      const user = await userWithScopes(
        api,
        org,
        all.filter((s) => s !== missing),
      );
      const response = await startAction(user, 'prospectsBulkModify', '', { title: 'X' });
      expect(response.status, missing).toBe(403);
    }
    const enough = await userWithScopes(api, org, all);
    const ok = await startAction(enough, 'prospectsBulkModify', '', { title: 'X' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await cancel(enough, ok.body.data.id)).status).toBe(200);

    const writer = await userWithScopes(api, org, ['batches.read', 'batches.write', 'prospects.write']);
    expect((await startAction(writer, 'prospectsDestroyAll')).status).toBe(403);
    const deleter = await userWithScopes(api, org, ['batches.read', 'batches.write', 'prospects.delete']);
    const destroy = await startAction(deleter, 'prospectsDestroyAll');
    expect(destroy.status, JSON.stringify(destroy.body)).toBe(200);
    expect((await cancel(deleter, destroy.body.data.id)).status).toBe(200);
    const accountsOnly = await userWithScopes(api, org, ['batches.read', 'batches.write', 'accounts.write']);
    expect((await startAction(accountsOnly, 'prospectsAddTags', '', { tags: ['x'] })).status).toBe(403);
    const defined = await org.request('POST', '/api/v2/customObjectDefinitions', {
      body: {
        data: { type: 'customObjectDefinition', attributes: { name: 'shelf', displayName: 'Shelf', displayField: 'label', fields: [{ name: 'label', type: 'string' }] } },
      },
    });
    expect(defined.status).toBe(201);
    expect((await startAction(accountsOnly, 'customObjectBulkModify', 'actionParams[objectName]=shelf', { label: 'x' })).status).toBe(403);
    const customWriter = await userWithScopes(api, org, ['batches.read', 'batches.write', 'customObjects.write']);
    expect((await startAction(customWriter, 'customObjectBulkModify', 'actionParams[objectName]=shelf', { label: 'x' })).status).toBe(200);
    expect((await startAction(customWriter, 'customObjectBulkDelete', 'actionParams[objectName]=shelf')).status).toBe(403);
  });
});

describe('the daily bulk allowance', () => {
  let small: TestApi;
  let smallWorker: StartedWorker | undefined;
  beforeAll(async () => {
    // 10 items, refilled at one a day: what is taken stays taken for this test.
    small = await startTestApi({ bulkAllowance: { capacity: 10, perDay: 1 } });
    smallWorker = await startTestWorker(small);
  });
  afterAll(async () => {
    await smallWorker?.stop();
    await small?.close();
  });

  it('is charged when processing starts: 429 bulkAllowanceExceeded with Retry-After, at creation with skipConfirmation or at confirm', async () => {
    const org = await freshOrg(small);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await create(org, 'prospects', 'prospect', { firstName: `P${i}` }));
    const first = await startAction(org, 'prospectsAddTags', 'actionParams[skipConfirmation]=true', { tags: ['one'] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await settled(org, first.body.data.id);

    const before = await batchCount(org);
    const refused = await startAction(org, 'prospectsAddTags', 'actionParams[skipConfirmation]=true', { tags: ['two'] });
    expectError(refused, 429, { id: 'bulkAllowanceExceeded' });
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await batchCount(org)).toBe(before);

    // Making a batch to confirm takes nothing; confirming it does.
    const made = await startAction(org, 'prospectsAddTags', '', { tags: ['three'] });
    expect(made.status).toBe(200);
    expect(made.body.data.attributes.state).toBe('confirming');
    const confirmed = await confirm(org, made.body.data.id);
    expectError(confirmed, 429, { id: 'bulkAllowanceExceeded' });
    expect(confirmed.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect((await org.request('GET', `/api/v2/batches/${made.body.data.id}`)).body.data.attributes.state).toBe('confirming');
    for (const id of ids) expect((await attributesOf(org, `prospects/${id}`)).tags).toEqual(['one']);
  });
});
