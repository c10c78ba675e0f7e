import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, freshOrg } from '../helpers/bulk-actions.js';

/**
 * A logged call is a touch point (issue #27 item 4): the prospect's counts run "since the last
 * touch point" (SPEC.md). An outbound call logged to a prospect, with or without completing its
 * task, sets touchedAt and starts the counts again from 0, as a mailing delivered to them does
 * (mail-tracking.test.ts); a call the prospect made to us (inbound) touches nothing.
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
  /** A prospect as a delivered mailing and hits on it leave one (mail-tracking.test.ts makes them for real). */
  async function engagedProspect(org: Awaited<ReturnType<typeof freshOrg>>): Promise<number> {
    const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Pat' });
    await api.sql`
      update prospects set touched_at = '2026-01-05T10:00:00Z', engaged_at = '2026-01-06T10:00:00Z', open_count = 3, click_count = 2, reply_count = 1
       where org_id = ${org.orgId} and id = ${prospect}`;
    return prospect;
  }
  const logCall = (org: Awaited<ReturnType<typeof freshOrg>>, direction: string, relationships: Record<string, unknown>) =>
    org.request('POST', '/api/v2/calls', { body: { data: { type: 'call', attributes: { direction, outcome: 'completed', note: 'Left a message' }, relationships } } });

  it('outbound, with or without completing its task, is a touch point: touchedAt moves on and the counts start again from 0', async () => {
    const org = await freshOrg(api, 'Calls');
    for (const completing of [false, true]) {
      const prospect = await engagedProspect(org);
      const task = await create(org, 'tasks', 'task', { action: 'call', dueAt: '2026-01-07T10:00:00.000Z' }, { prospect: { type: 'prospect', id: prospect } });
      const relationships = {
        prospect: { data: { type: 'prospect', id: prospect } },
        ...(completing && { task: { data: { type: 'task', id: task }, meta: { complete: true } } }),
      };
      const logged = await logCall(org, 'outbound', relationships);
      expect(logged.status, JSON.stringify(logged.body)).toBe(201);
      const after = await attributesOf(org, `prospects/${prospect}`);
      expect(Date.parse(String(after.touchedAt))).toBeGreaterThan(Date.parse('2026-01-05T10:00:00Z'));
      expect(after).toMatchObject({ openCount: 0, clickCount: 0, replyCount: 0, engagedAt: '2026-01-06T10:00:00.000Z' });
      expect((await attributesOf(org, `tasks/${task}`)).completed).toBe(completing);
    }
  });

  it('inbound is not a touch point: the prospect keeps touchedAt and the counts', async () => {
    const org = await freshOrg(api, 'Inbound calls');
    const prospect = await engagedProspect(org);
    const before = await attributesOf(org, `prospects/${prospect}`);
    const logged = await logCall(org, 'inbound', { prospect: { data: { type: 'prospect', id: prospect } } });
    expect(logged.status, JSON.stringify(logged.body)).toBe(201);
    const after = await attributesOf(org, `prospects/${prospect}`);
    expect(Object.fromEntries(TOUCH.map((name) => [name, after[name]]))).toEqual(Object.fromEntries(TOUCH.map((name) => [name, before[name]])));
    expect(before).toMatchObject({ touchedAt: '2026-01-05T10:00:00.000Z', openCount: 3 });
  });
});
