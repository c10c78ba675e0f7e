import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { createUser as createUserAsOperator } from '../../runtime/admin/index.js';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type ApiResponse, type TestApi } from '../helpers/api.js';
import { create, freshOrg, startTestWorker, type OrgClient } from '../helpers/bulk-actions.js';
import { runCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

/**
 * Values outside an attribute's set (issue #27 item 5): every attribute whose schema names its
 * values (an `enum`) refuses any other with a 422 pointing at it, on create, update and bulk
 * upsert, and still takes null; a user's e-mail address is unique in the org whatever its case,
 * also under concurrent creates and within one bulk set; the CLI refuses an address that is none.
 */

let api: TestApi;
let worker: StartedWorker;

beforeAll(async () => {
  api = await startTestApi({ poolSize: 8 });
  worker = await startTestWorker(api);
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

/** The 422's error about attribute `name`, asserting the answer is one. */
function refusalOf(response: ApiResponse, name: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  const error = response.body.errors.find((e: { source?: { pointer?: string } }) => e.source?.pointer === `/data/attributes/${name}`);
  expect(error, JSON.stringify(response.body)).toBeDefined();
  return error;
}

const writableEnums = [...descriptors.values()].flatMap((d) =>
  d.operations.create ? d.attributes.filter((a) => a.enum && !a.readOnly).map((a) => [d.type, d.collection, a.name, a.enum!] as const) : [],
);

describe('attributes with a set of values', () => {
  it('are found in the schema (the reference and SPEC.md name these sets)', () => {
    const names = writableEnums.map(([type, , name]) => `${type}.${name}`);
    for (const expected of ['ruleset.permitDuplicateProspects', 'ruleset.sequenceExclusivity', 'sequence.primaryReplyAction', 'call.outcome', 'user.phoneType']) {
      expect(names).toContain(expected);
    }
  });

  it.each(writableEnums)('%s.%s: a create with a value outside the set is a 422 pointing at it', async (type, collection, name, values) => {
    const outside = typeof values[0] === 'number' ? 987654 : 'not-one-of-them';
    const response = await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes: { [name]: outside } } } });
    expect(refusalOf(response, name).detail).toMatch(/must be one of/);
  });

  it('permitDuplicateProspects: "sometimes" is refused on create and update; each value of both sources and null are taken', async () => {
    const org = await freshOrg(api, 'Ruleset values');
    const refused = await org.request('POST', '/api/v2/rulesets', {
      body: { data: { type: 'ruleset', attributes: { name: 'R', permitDuplicateProspects: 'sometimes' } } },
    });
    expect(refusalOf(refused, 'permitDuplicateProspects').detail).toBe(
      'permitDuplicateProspects must be one of "allow", "disallow", "only_if_inactive", "onlyIfActive", null',
    );

    const id = await create(org, 'rulesets', 'ruleset', { name: 'R' });
    const patch = (attributes: Record<string, unknown>) => org.request('PATCH', `/api/v2/rulesets/${id}`, { body: { data: { type: 'ruleset', id, attributes } } });
    refusalOf(await patch({ permitDuplicateProspects: 'sometimes' }), 'permitDuplicateProspects');
    refusalOf(await patch({ sequenceExclusivity: 'some_sequences' }), 'sequenceExclusivity');
    for (const value of ['allow', 'disallow', 'only_if_inactive', 'onlyIfActive', null]) {
      const response = await patch({ permitDuplicateProspects: value });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data.attributes.permitDuplicateProspects).toBe(value);
    }
  });

  it("a sequence's reply settings and a user's phone type are refused alike on update", async () => {
    const org = await freshOrg(api, 'Sequence values');
    const sequence = await create(org, 'sequences', 'sequence', { name: 'S', sequenceType: 'interval' });
    const patchSequence = (attributes: Record<string, unknown>) =>
      org.request('PATCH', `/api/v2/sequences/${sequence}`, { body: { data: { type: 'sequence', id: sequence, attributes } } });
    refusalOf(await patchSequence({ primaryReplyAction: 'stop' }), 'primaryReplyAction');
    expect((await patchSequence({ primaryReplyAction: 'pause', secondaryReplyAction: null })).status).toBe(200);

    const patchUser = (attributes: Record<string, unknown>) =>
      org.request('PATCH', `/api/v2/users/${org.userId}`, { body: { data: { type: 'user', id: org.userId, attributes } } });
    refusalOf(await patchUser({ phoneType: 'landline' }), 'phoneType');
    expect((await patchUser({ phoneType: 'voip' })).status).toBe(200);
  });
});

describe("users' e-mail addresses", () => {
  const createUser = (org: OrgClient, email: string) =>
    org.request('POST', '/api/v2/users', { body: { data: { type: 'user', attributes: { email }, meta: { sendInvite: false } } } });

  it('are unique in the org whatever their case, on create and update; another org may hold the same one', async () => {
    const org = await freshOrg(api, 'Unique e-mails');
    expect((await createUser(org, 'Ann.Lee@example.test')).status).toBe(201);
    expect(refusalOf(await createUser(org, 'ann.lee@EXAMPLE.test'), 'email').detail).toBe('Another user already has this email');

    const other = Number((await createUser(org, 'bo@example.test')).body.data.id);
    const renamed = await org.request('PATCH', `/api/v2/users/${other}`, { body: { data: { type: 'user', id: other, attributes: { email: 'ANN.LEE@example.test' } } } });
    refusalOf(renamed, 'email');

    expect((await createUser(await freshOrg(api, 'Another org'), 'ann.lee@example.test')).status).toBe(201);
  });

  it('concurrent creates of one address make one user; the others are 422s', async () => {
    const org = await freshOrg(api, 'Concurrent e-mails');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(org, i % 2 ? 'race@example.test' : 'RACE@example.test')));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 201)) refusalOf(refused, 'email');
    const { body } = await org.request('GET', '/api/v2/users?filter[email]=race@example.test,RACE@example.test');
    expect(body.data).toHaveLength(1);
  });

  it('the CLI refuses an address that is none, and one taken, exiting non-zero with the reason', async () => {
    const org = await freshOrg(api, 'CLI e-mails');
    const notAnAddress = await runCadence(api.databaseUrl, ['user', 'create', '--org', String(org.orgId), '--email', 'notanemail']);
    expect(notAnAddress.code).not.toBe(0);
    expect(notAnAddress.stderr).toContain('--email must be an e-mail address (name@example.com), not "notanemail"');

    await createUserAsOperator(api.sql, { orgId: org.orgId, email: 'cli@example.test', admin: false });
    const taken = await runCadence(api.databaseUrl, ['user', 'create', '--org', String(org.orgId), '--email', 'CLI@example.test']);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain('Another user already has this email');
  });
});

describe('bulk upsert', () => {
  async function upsertedItems(org: OrgClient, records: { data: Record<string, unknown> }[]) {
    const response = await org.request('POST', '/api/v2/imports/actions/bulkUpsert', { body: { data: { attributes: { records } } } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const batch = response.body.data.id;
    await until(`batch ${batch} to settle`, async () => {
      const { body } = await org.request('GET', `/api/v2/batches/${batch}`);
      return body.data.attributes.state === 'pending' ? undefined : true;
    });
    const { body } = await org.request('GET', `/api/v2/batchItems?filter[batch][id]=${batch}&sort=id`);
    return body.data.map((i: { attributes: Record<string, any> }) => i.attributes) as Record<string, any>[];
  }

  it("reports a value outside the set as that record's error, pointing at the attribute; the others are written", async () => {
    const org = await freshOrg(api, 'Bulk values');
    const items = await upsertedItems(org, [
      { data: { type: 'ruleset', attributes: { name: 'Fine', permitDuplicateProspects: 'allow' } } },
      { data: { type: 'ruleset', attributes: { name: 'Bad', permitDuplicateProspects: 'sometimes' } } },
    ]);
    expect(items.map((i) => i.state)).toEqual(['success', 'error']);
    expect(items[1]!.errors).toEqual([expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/permitDuplicateProspects' } })]);
  });

  it('two records of one address in one set: the first is written, the second is its error, pointing at email', async () => {
    const org = await freshOrg(api, 'Bulk e-mails');
    const items = await upsertedItems(org, [
      { data: { type: 'user', attributes: { email: 'twin@example.test' } } },
      { data: { type: 'user', attributes: { email: 'Twin@Example.test' } } },
      { data: { type: 'user', attributes: { email: 'single@example.test' } } },
    ]);
    expect(items.map((i) => i.state)).toEqual(['success', 'error', 'success']);
    expect(items[1]!.errors).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/email' }, detail: 'Another user already has this email' }),
    ]);
  });
});
