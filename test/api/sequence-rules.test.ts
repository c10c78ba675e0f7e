import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, freshOrg, newUserId, type OrgClient } from '../helpers/bulk-actions.js';
import { enrol, listOf, pendingSteps, sequenceWith, stateOf } from '../helpers/sequences.js';

/**
 * The rules of sequences (issue #15): who may be enrolled, what a locked sequence refuses,
 * which deletes are refused and which finish states, and which steps fit which sequence. No
 * worker runs here: these are decided when the request is made.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ poolSize: 3 });
});

afterAll(async () => {
  await api?.close();
});

async function prospect(org: OrgClient, attributes: Record<string, unknown> = {}): Promise<number> {
  return create(org, 'prospects', 'prospect', { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`], ...attributes });
}

async function rulesetWith(org: OrgClient, attributes: Record<string, unknown>): Promise<number> {
  return create(org, 'rulesets', 'ruleset', { name: `Rules ${Math.random()}`, ...attributes });
}

function expect422(response: { status: number; body: any }, pointer: string, detail: RegExp): void {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.errors).toEqual([expect.objectContaining({ status: '422', source: { pointer }, detail: expect.stringMatching(detail) })]);
  expect(response.body.errors[0].id).toEqual(expect.any(String));
  expect(response.body.errors[0].title).toEqual(expect.any(String));
}

describe('enrolment', () => {
  it('starts active on the first step by order, with the prospect account and its step scheduled', async () => {
    const org = await freshOrg(api, 'Enrolment');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'call', interval: 30 },
      { stepType: 'task', interval: 60 },
    ]);
    // A step added later with a lower order runs first.
    const first = await create(
      org,
      'sequenceSteps',
      'sequenceStep',
      { stepType: 'task', interval: 5, order: 0 },
      { sequence: { type: 'sequence', id: fixture.sequence } },
    );
    const account = await create(org, 'accounts', 'account', { name: 'Acme' });
    const who = await create(org, 'prospects', 'prospect', { firstName: 'Ada' }, { account: { type: 'account', id: account } });
    const response = await enrol(org, who, fixture);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const data = response.body.data;
    expect(data.attributes).toMatchObject({ state: 'active', activeAt: expect.any(String), stateChangedAt: expect.any(String) });
    expect(data.relationships.sequenceStep.data).toEqual({ type: 'sequenceStep', id: first });
    expect(data.relationships.account.data).toEqual({ type: 'account', id: account });
    const due = (await pendingSteps(api)).get(data.id);
    expect(due).toHaveLength(1);
    expect(new Date(due![0]!).getTime() - new Date(data.attributes.activeAt).getTime()).toBe(5 * 60_000);
  });

  it('refuses an inactive sequence, an opted-out prospect and a mailbox of another org, with pointers', async () => {
    const org = await freshOrg(api, 'Enrolment refusals');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 0 }]);

    const optedOut = await prospect(org, { optedOut: true });
    expect422(await enrol(org, optedOut, fixture), '/data/relationships/prospect', /opted out/);
    // Out of e-mail only: refused by a sequence that sends e-mail, enrolled in one that calls.
    const emailOptedOut = await prospect(org, { emailOptedOut: true });
    expect((await enrol(org, emailOptedOut, fixture)).status).toBe(201);
    const mailing = await sequenceWith(org, owner, 'interval', [{ stepType: 'auto_email', interval: 0 }]);
    expect422(await enrol(org, emailOptedOut, mailing), '/data/relationships/prospect', /opted out of e-mail/);

    const other = await freshOrg(api, 'Another org');
    const foreignMailbox = await create(other, 'mailboxes', 'mailbox', { email: 'theirs@example.test' });
    expect422(await enrol(org, await prospect(org), { ...fixture, mailbox: foreignMailbox }), '/data/relationships/mailbox', /does not exist/);

    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/deactivate`)).status).toBe(200);
    expect422(await enrol(org, await prospect(org), fixture), '/data/relationships/sequence', /inactive/);
    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/activate`)).status).toBe(200);
    expect((await enrol(org, await prospect(org), fixture)).status).toBe(201);
    expect(await listOf(org, `sequenceStates?filter[sequence][id]=${fixture.sequence}`)).toHaveLength(2); // the e-mail opt-out, and the prospect enrolled once the sequence was active again
  });

  /**
   * permitDuplicateProspects against a prospect already in the sequence, finished or live:
   * [value, allowed while live, allowed once finished].
   */
  const matrix: [string | null, boolean, boolean][] = [
    [null, false, false],
    ['disallow', false, false],
    ['allow', true, true],
    ['only_if_inactive', false, true],
    ['onlyIfActive', false, true],
  ];
  it.each(matrix)('permitDuplicateProspects %s: again while live %s, again once finished %s', async (value, whileLive, onceFinished) => {
    const org = await freshOrg(api, `Duplicates ${value}`);
    const owner = await newUserId(api, org);
    const ruleset = await rulesetWith(org, { permitDuplicateProspects: value });
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 0 }], ruleset);
    const who = await prospect(org);
    const first = await enrol(org, who, fixture);
    expect(first.status).toBe(201);

    const again = await enrol(org, who, fixture);
    if (whileLive) expect(again.status).toBe(201);
    else expect422(again, '/data/relationships/prospect', new RegExp(`already in sequence|still active in sequence`));

    for (const state of await listOf(org, `sequenceStates?filter[prospect][id]=${who}`)) {
      expect((await org.request('POST', `/api/v2/sequenceStates/${state.id}/actions/finish`)).status).toBe(200);
    }
    const afterFinish = await enrol(org, who, fixture);
    if (onceFinished) expect(afterFinish.status).toBe(201);
    else expect422(afterFinish, '/data/relationships/prospect', /already in sequence/);
  });

  it.each([
    ['all_sequences', null, false],
    ['exclusive_sequences', null, true],
    ['exclusive_sequences', 'all_sequences', false],
    [null, 'all_sequences', true],
  ])('sequenceExclusivity %s while live in a sequence whose exclusivity is %s: enrolled %s', async (target, other, enrolled) => {
    const org = await freshOrg(api, 'Exclusivity');
    const owner = await newUserId(api, org);
    const live = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 0 }], await rulesetWith(org, { sequenceExclusivity: other }));
    const next = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 0 }], await rulesetWith(org, { sequenceExclusivity: target }));
    const who = await prospect(org);
    expect((await enrol(org, who, live)).status).toBe(201);
    const response = await enrol(org, who, next);
    if (enrolled) expect(response.status, JSON.stringify(response.body)).toBe(201);
    else expect422(response, '/data/relationships/prospect', /is active in sequence .* exclusive/);
  });

  it('admits one of many concurrent enrolments of the same prospect, with fewer connections than requests', async () => {
    const org = await freshOrg(api, 'Concurrent enrolment');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 0 }]);
    const who = await prospect(org);
    const responses = await Promise.all(Array.from({ length: 12 }, () => enrol(org, who, fixture)));
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array<number>(11).fill(422)]);
    expect(await listOf(org, `sequenceStates?filter[prospect][id]=${who}`)).toHaveLength(1);
  });
});

describe('steps', () => {
  it('refuses steps that do not fit the sequence type', async () => {
    const org = await freshOrg(api, 'Step types');
    const interval = await create(org, 'sequences', 'sequence', { name: 'I', sequenceType: 'interval' });
    const dated = await create(org, 'sequences', 'sequence', { name: 'D', sequenceType: 'date' });
    const step = (sequence: number, attributes: Record<string, unknown>) =>
      org.request('POST', '/api/v2/sequenceSteps', {
        body: {
          data: { type: 'sequenceStep', attributes: { stepType: 'call', ...attributes }, relationships: { sequence: { data: { type: 'sequence', id: sequence } } } },
        },
      });
    const dateOnInterval = await step(interval, { date: '2026-12-01' });
    expect(dateOnInterval.status).toBe(422);
    expect(dateOnInterval.body.errors.map((e: any) => [e.source.pointer, e.detail])).toEqual([
      ['/data/attributes/interval', expect.stringMatching(/needs an interval/)],
      ['/data/attributes/date', expect.stringMatching(/has an interval, not a date/)],
    ]);
    expect((await step(interval, { date: '2026-12-01', interval: 5 })).body.errors.map((e: any) => e.source.pointer)).toEqual(['/data/attributes/date']);
    expect422(await step(dated, {}), '/data/attributes/date', /needs a date/);
    expect((await step(dated, { date: '2026-12-01', interval: 5 })).body.errors.map((e: any) => e.source.pointer)).toEqual(['/data/attributes/interval']);
    expect((await step(interval, { interval: 5 })).status).toBe(201);
    const ok = await step(dated, { date: '2026-12-01' });
    expect(ok.status).toBe(201);
    // A sequence with steps keeps its type: its steps are timed by it.
    const retyped = await org.request('PATCH', `/api/v2/sequences/${interval}`, {
      body: { data: { type: 'sequence', id: String(interval), attributes: { sequenceType: 'date' } } },
    });
    expect422(retyped, '/data/attributes/sequenceType', /cannot change type/);
    // A PATCH is judged on the step as it would be.
    const patched = await org.request('PATCH', `/api/v2/sequenceSteps/${ok.body.data.id}`, {
      body: { data: { type: 'sequenceStep', id: String(ok.body.data.id), attributes: { date: null } } },
    });
    expect422(patched, '/data/attributes/date', /needs a date/);
  });

  it('attaches the first step added to states enrolled while the sequence had none', async () => {
    const org = await freshOrg(api, 'Late steps');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', []);
    const response = await enrol(org, await prospect(org), fixture);
    expect(response.status).toBe(201);
    expect(response.body.data.relationships.sequenceStep.data).toBeNull();
    expect((await pendingSteps(api)).get(response.body.data.id)).toBeUndefined();
    const step = await create(org, 'sequenceSteps', 'sequenceStep', { stepType: 'call', interval: 10 }, { sequence: { type: 'sequence', id: fixture.sequence } });
    expect((await stateOf(org, response.body.data.id)).step).toBe(step);
    expect((await pendingSteps(api)).get(response.body.data.id)).toHaveLength(1);
  });
});

describe('locked sequences', () => {
  it('refuse edits to themselves, their steps and their templates, and take them again once unlocked', async () => {
    const org = await freshOrg(api, 'Locks');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'auto_email', interval: 0 }]);
    const [step] = fixture.steps as [number];
    const [use] = await listOf(org, `sequenceTemplates?filter[sequenceStep][id]=${step}`);
    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/lock`)).status).toBe(200);

    const patch = (path: string, type: string, id: number, attributes: Record<string, unknown>) =>
      org.request('PATCH', `/api/v2/${path}/${id}`, { body: { data: { type, id: String(id), attributes } } });
    expect422(await patch('sequences', 'sequence', fixture.sequence, { name: 'Renamed' }), '/data', /is locked/);
    expect422(await org.request('DELETE', `/api/v2/sequences/${fixture.sequence}`), '/data', /is locked/);
    expect422(await patch('sequenceSteps', 'sequenceStep', step, { interval: 9 }), '/data/relationships/sequence', /is locked/);
    expect422(await org.request('DELETE', `/api/v2/sequenceSteps/${step}`), '/data/relationships/sequence', /is locked/);
    const added = await org.request('POST', '/api/v2/sequenceSteps', {
      body: {
        data: { type: 'sequenceStep', attributes: { stepType: 'call', interval: 5 }, relationships: { sequence: { data: { type: 'sequence', id: fixture.sequence } } } },
      },
    });
    expect422(added, '/data/relationships/sequence', /is locked/);
    expect422(await org.request('DELETE', `/api/v2/sequenceTemplates/${use.id}`), '/data/relationships/sequenceStep', /is locked/);
    expect422(await patch('templates', 'template', fixture.template, { subject: 'Changed' }), '/data', /used by sequence .* is locked/);
    // Enrolment, activation and the lock itself stay open.
    expect((await enrol(org, await prospect(org), fixture)).status).toBe(201);
    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/deactivate`)).status).toBe(200);
    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/activate`)).status).toBe(200);
    expect((await attributesOf(org, `templates/${fixture.template}`)).subject).toBe('Hello');

    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/unlock`)).status).toBe(200);
    expect((await patch('sequences', 'sequence', fixture.sequence, { name: 'Renamed' })).status).toBe(200);
    expect((await patch('templates', 'template', fixture.template, { subject: 'Changed' })).status).toBe(200);
    expect((await patch('sequenceSteps', 'sequenceStep', step, { interval: 9 })).status).toBe(200);
  });
});

describe('deactivating a sequence', () => {
  it('holds its live states as disabled, with no step due, and activating resumes them', async () => {
    const org = await freshOrg(api, 'Deactivation');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 60 }]);
    const running = (await enrol(org, await prospect(org), fixture)).body.data.id;
    const paused = (await enrol(org, await prospect(org), fixture)).body.data.id;
    expect((await org.request('POST', `/api/v2/sequenceStates/${paused}/actions/pause`)).status).toBe(200);

    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/deactivate`)).status).toBe(200);
    expect((await stateOf(org, running)).state).toBe('disabled');
    expect((await stateOf(org, paused)).state).toBe('paused');
    expect((await pendingSteps(api)).get(running)).toBeUndefined();

    expect((await org.request('POST', `/api/v2/sequences/${fixture.sequence}/actions/activate`)).status).toBe(200);
    expect((await stateOf(org, running)).state).toBe('active');
    expect((await pendingSteps(api)).get(running)).toHaveLength(1);
    expect((await stateOf(org, paused)).state).toBe('paused');
  });
});

describe('deletes that states depend on', () => {
  it('refuses a sequence with live states and a step a live state is on; finishes a deleted prospect states', async () => {
    const org = await freshOrg(api, 'Deletes');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'call', interval: 0 },
      { stepType: 'task', interval: 0 },
    ]);
    const [current, later] = fixture.steps as [number, number];
    const who = await prospect(org);
    const state = (await enrol(org, who, fixture)).body.data.id;

    expect422(await org.request('DELETE', `/api/v2/sequences/${fixture.sequence}`), '/data', /has prospects in it/);
    expect422(await org.request('DELETE', `/api/v2/sequenceSteps/${current}`), '/data', /current step of live sequence states/);
    expect((await org.request('DELETE', `/api/v2/sequenceSteps/${later}`)).status).toBe(204);

    expect((await org.request('DELETE', `/api/v2/prospects/${who}`)).status).toBe(204);
    const finished = await stateOf(org, state);
    expect(finished.state).toBe('finished');
    expect(finished.attributes.errorReason).toMatch(/prospect was deleted/);
    expect((await pendingSteps(api)).get(state)).toBeUndefined();
    // With no live state left, the sequence can go.
    expect((await org.request('DELETE', `/api/v2/sequences/${fixture.sequence}`)).status).toBe(204);
  });
});
