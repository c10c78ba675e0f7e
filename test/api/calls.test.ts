import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, freshOrg } from '../helpers/bulk-actions.js';

/**
 * A logged call is not a touch point (issue #27 item 4): the prospect's counts run "since the
 * last touch point" (SPEC.md), which a mailing delivered to them is (runtime/mail/tracking/);
 * logging a call, with or without completing its task, leaves touchedAt, the counts and
 * engagedAt as they were.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const TOUCH = ['touchedAt', 'engagedAt', 'openCount', 'clickCount', 'replyCount'] as const;

describe('a logged call', () => {
  it('is not a touch point: the prospect keeps touchedAt, engagedAt and the counts since the last one', async () => {
    const org = await freshOrg(api, 'Calls');
    const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Pat' });
    // As a delivered mailing and hits on it leave a prospect (mail-tracking.test.ts makes them for real).
    await api.sql`
      update prospects set touched_at = '2026-01-05T10:00:00Z', engaged_at = '2026-01-06T10:00:00Z', open_count = 3, click_count = 2, reply_count = 1
       where org_id = ${org.orgId} and id = ${prospect}`;
    const before = await attributesOf(org, `prospects/${prospect}`);
    const task = await create(org, 'tasks', 'task', { action: 'call', dueAt: '2026-01-07T10:00:00.000Z' }, { prospect: { type: 'prospect', id: prospect } });

    for (const relationships of [
      { prospect: { data: { type: 'prospect', id: prospect } } },
      { prospect: { data: { type: 'prospect', id: prospect } }, task: { data: { type: 'task', id: task }, meta: { complete: true } } },
    ]) {
      const logged = await org.request('POST', '/api/v2/calls', {
        body: { data: { type: 'call', attributes: { direction: 'outbound', outcome: 'completed', note: 'Left a message' }, relationships } },
      });
      expect(logged.status, JSON.stringify(logged.body)).toBe(201);
    }

    expect((await attributesOf(org, `tasks/${task}`)).completed).toBe(true);
    const after = await attributesOf(org, `prospects/${prospect}`);
    expect(Object.fromEntries(TOUCH.map((name) => [name, after[name]]))).toEqual(Object.fromEntries(TOUCH.map((name) => [name, before[name]])));
    expect(before).toMatchObject({ touchedAt: '2026-01-05T10:00:00.000Z', openCount: 3 });
  });
});
