import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUTY_SYMBOLIC_NAMES, TASK_PRIORITIES } from '../../runtime/admin/org-records.js';
import { MIGRATIONS_DIR } from '../../runtime/db/migrate.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * The records an org has from its creation, over HTTP: its settings at its own id, the task
 * priorities and the duties; and migration 0034 giving them to orgs that existed before.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const settingsBody = (orgId: number, attributes: Record<string, unknown>) => ({
  data: { type: 'orgSetting', id: orgId, attributes },
});

describe("an org's settings", () => {
  it('GET /api/v2/orgSettings/<orgId> answers the settings record of a new org', async () => {
    const response = await api.request('GET', `/api/v2/orgSettings/${api.org.orgId}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({
      type: 'orgSetting',
      id: api.org.orgId,
      attributes: { contactExclusions: null, prospectEmailExclusions: null, sendExclusions: null },
    });
  });

  it('PATCH /api/v2/orgSettings/<orgId> changes it, and GET reads the change', async () => {
    const patched = await api.request('PATCH', `/api/v2/orgSettings/${api.org.orgId}`, {
      body: settingsBody(api.org.orgId, { sendExclusions: 'competitor.example' }),
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.attributes.sendExclusions).toBe('competitor.example');
    const read = await api.request('GET', `/api/v2/orgSettings/${api.org.orgId}`);
    expect(read.body.data.attributes).toMatchObject({ sendExclusions: 'competitor.example', contactExclusions: null });
  });

  it('the settings record is the only one the org can have: another id is refused by the database', async () => {
    await expect(api.sql`insert into org_settings (org_id) values (${api.org.orgId})`).rejects.toMatchObject({
      constraint_name: expect.stringMatching(/^org_settings_(pkey|id_is_org_id)$/),
    });
  });

  it("another org's settings are 404, to GET and to PATCH", async () => {
    const other = await api.newOrg('Settings neighbour');
    const mine = await api.request('GET', `/api/v2/orgSettings/${other.orgId}`, { token: other.token });
    expect(mine.status).toBe(200);
    expect((await api.request('GET', `/api/v2/orgSettings/${other.orgId}`)).status).toBe(404);
    const patch = await api.request('PATCH', `/api/v2/orgSettings/${other.orgId}`, { body: settingsBody(other.orgId, { sendExclusions: 'x' }) });
    expect(patch.status).toBe(404);
  });
});

describe('the fixed sets', () => {
  it('GET /api/v2/taskPriorities lists the priorities, lowest weight first', async () => {
    const response = await api.request('GET', '/api/v2/taskPriorities?sort=weight');
    expect(response.status).toBe(200);
    expect(response.body.data.map((p: any) => p.attributes)).toEqual(
      TASK_PRIORITIES.map((p) => ({ ...p, createdAt: expect.any(String), updatedAt: expect.any(String) })),
    );
    expect(response.body.data.map((p: any) => p.attributes.name)).toContain('High');
  });

  it('GET /api/v2/duties lists the suggested duties', async () => {
    const response = await api.request('GET', '/api/v2/duties');
    expect(response.status).toBe(200);
    const names = response.body.data.map((d: any) => d.attributes.symbolicName).sort();
    expect(names).toEqual([...DUTY_SYMBOLIC_NAMES].sort());
    expect(new Set(response.body.data.map((d: any) => d.attributes.dutyType))).toEqual(new Set(['duty']));
  });

  it('a task can take a task priority of its org', async () => {
    const [high] = (await api.request('GET', '/api/v2/taskPriorities?filter[name]=High')).body.data;
    const task = await api.request('POST', '/api/v2/tasks', {
      body: { data: { type: 'task', attributes: { action: 'call' }, relationships: { taskPriority: { data: { type: 'taskPriority', id: high.id } } } } },
    });
    expect(task.status, JSON.stringify(task.body)).toBe(201);
    expect(task.body.data.relationships.taskPriority.data).toEqual({ type: 'taskPriority', id: high.id });
  });

  it('the reference does not serve writes to them', async () => {
    expect((await api.request('POST', '/api/v2/taskPriorities', { body: { data: { type: 'taskPriority', attributes: { name: 'Urgent' } } } })).status).toBe(405);
  });
});

describe('migration 0034 for orgs that existed before', () => {
  it('gives an org without them its settings, priorities and duties, and leaves an org that has them as it was', async () => {
    const bare = await api.newOrg('Before 0034');
    await api.sql.begin(async (tx) => {
      for (const table of ['org_settings', 'task_priorities', 'duties']) await tx.unsafe(`delete from ${table} where org_id = $1`, [bare.orgId]);
    });
    const counts = async (orgId: number) =>
      (
        await api.sql`select (select count(*) from org_settings where org_id = ${orgId} and id = ${orgId})::int as settings,
          (select count(*) from task_priorities where org_id = ${orgId})::int as priorities,
          (select count(*) from duties where org_id = ${orgId})::int as duties`
      )[0];
    expect(await counts(bare.orgId)).toEqual({ settings: 0, priorities: 0, duties: 0 });
    const migration = readFileSync(join(MIGRATIONS_DIR, '0034_org_standard_records.sql'), 'utf8');
    // Its inserts, as it ran them when it landed (its constraint is already there).
    const inserts = migration.split('--> statement-breakpoint').filter((statement) => statement.includes('INSERT INTO'));
    expect(inserts).toHaveLength(3);
    await api.sql.begin(async (tx) => {
      for (const statement of inserts) await tx.unsafe(statement);
    });
    const expected = { settings: 1, priorities: TASK_PRIORITIES.length, duties: DUTY_SYMBOLIC_NAMES.length };
    expect(await counts(bare.orgId)).toEqual(expected);
    expect(await counts(api.org.orgId)).toEqual(expected);
    const priorities = await api.request('GET', '/api/v2/taskPriorities?sort=weight', { token: bare.token });
    expect(priorities.body.data.map((p: any) => [p.attributes.name, p.attributes.weight, p.attributes.color])).toEqual(
      TASK_PRIORITIES.map((p) => [p.name, p.weight, p.color]),
    );
  });
});
