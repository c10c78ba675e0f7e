import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser } from '../../runtime/admin/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

/**
 * What clients written for the reference service send and ask for, over HTTP: its resource
 * types, its attributes on prospects and accounts, the events stream by eventAt, write-only
 * attributes and the values Cadence maintains (creator, updater, a user's name).
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function create(collection: string, type: string, attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) {
  const response = await api.request('POST', `/api/v2/${collection}`, { body: { data: { type, attributes, relationships } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

describe('resource types of the reference', () => {
  it.each(['personas', 'teams', 'duties', 'contentCategories', 'phoneNumbers', 'opportunityStages', 'taskPriorities', 'auditLogs'])(
    'GET /api/v2/%s answers 200 with a list',
    async (collection) => {
      const response = await api.request('GET', `/api/v2/${collection}`);
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body.data)).toBe(true);
    },
  );

  it('customDuty stays removed: 404', async () => {
    const response = await api.request('GET', '/api/v2/customDuties');
    expect(response.status).toBe(404);
    expect(response.body.errors[0].id).toBe('resourceNotFound');
  });

  it('the served schema describes the new types with their flags', async () => {
    const schema = (await api.request('GET', '/api/v2/schema')).body;
    expect(schema.definitions.persona.definitions.name).toEqual({ type: 'string', filterable: true, sortable: true, examples: ['Engineering lead'] });
    expect(schema.definitions.event.definitions.eventAt).toMatchObject({ format: 'date-time', filterable: true, sortable: true });
    expect(schema.definitions.mailbox.definitions.password).toMatchObject({ writeOnly: true });
    expect(schema.definitions).not.toHaveProperty('customDuty');
  });
});

describe('prospects and accounts with the reference attributes', () => {
  it('POST /api/v2/prospects stores phones, address, tags and the rest, and GET reads them back', async () => {
    const persona = await create('personas', 'persona', { name: 'Buyer', description: 'Signs the cheque' });
    const attributes = {
      firstName: 'Ada',
      homePhones: ['+44 20 7946 0000'],
      workPhones: ['+44 20 7946 0001', '+44 20 7946 0002'],
      mobilePhones: ['+44 7700 900000'],
      otherPhones: [],
      voipPhones: ['sip:ada@example.test'],
      addressStreet: '12 St James Square',
      addressStreet2: 'Floor 2',
      addressCity: 'London',
      addressState: 'Greater London',
      addressZip: 'SW1Y 4JH',
      addressCountry: 'GB',
      tags: ['vip', 'analytical-engine'],
      linkedInUrl: 'https://www.linkedin.com/in/ada',
      githubUsername: 'ada',
      dateOfBirth: '1815-12-10',
      score: 9.5,
      linkedInConnections: 500,
      optedOut: false,
      timeZone: 'Europe/London',
      custom2: 'second custom field',
      custom150: 'last custom field',
    };
    const created = await create('prospects', 'prospect', attributes, { persona: { data: { type: 'persona', id: persona.id } } });
    const read = await api.request('GET', `/api/v2/prospects/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.attributes).toMatchObject(attributes);
    expect(read.body.data.attributes.name).toBe('Ada');
    expect(read.body.data.relationships.persona).toEqual({ data: { type: 'persona', id: persona.id } });
    // Read-only attributes Cadence does not compute are present and null.
    expect(read.body.data.attributes).toMatchObject({ touchedAt: null, engagedScore: null, callsOptedAt: null });

    const related = new URL(persona.relationships.prospects.links.related);
    expect(related.search).toBe(`?filter%5Bpersona%5D%5Bid%5D=${persona.id}`);
    const listed = await api.request('GET', `${related.pathname}${related.search}`);
    expect(listed.body.data.map((p: { id: number }) => p.id)).toEqual([created.id]);
  });

  it('filter and sort take the reference flags: githubUsername both, tags neither', async () => {
    await create('prospects', 'prospect', { githubUsername: 'grace' });
    const sorted = await api.request('GET', '/api/v2/prospects?filter[githubUsername]=ada,grace&sort=-githubUsername');
    expect(sorted.status).toBe(200);
    expect(sorted.body.data.map((p: { attributes: { githubUsername: string } }) => p.attributes.githubUsername)).toEqual(['grace', 'ada']);
    const refused = await api.request('GET', '/api/v2/prospects?sort=tags');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].detail).toBe('tags is not sortable');
  });

  it('POST /api/v2/accounts stores industry, tags and the rest', async () => {
    const attributes = {
      name: 'Analytical Engines Ltd',
      industry: 'Machinery',
      tags: ['enterprise'],
      numberOfEmployees: 120,
      followers: 3000,
      foundedAt: '1834-01-01T00:00:00.000Z',
      linkedInUrl: 'https://www.linkedin.com/company/ae',
      locality: 'London',
      websiteUrl: 'https://ae.example.test',
      description: 'Difference and analytical engines',
      externalSource: 'crm',
      custom100: 'a custom value',
    };
    const created = await create('accounts', 'account', attributes);
    const read = await api.request('GET', `/api/v2/accounts/${created.id}`);
    expect(read.body.data.attributes).toMatchObject(attributes);
  });

  it('a column named by an SQL keyword (phoneNumber.order) filters and sorts', async () => {
    const prospect = await create('prospects', 'prospect', { firstName: 'Charles' });
    for (const [order, number] of [
      [2, '+1 555 0102'],
      [1, '+1 555 0101'],
    ] as const) {
      await create('phoneNumbers', 'phoneNumber', { order, number, phoneType: 'work' }, { prospect: { data: { type: 'prospect', id: prospect.id } } });
    }
    const response = await api.request('GET', `/api/v2/phoneNumbers?filter[prospect][id]=${prospect.id}&filter[order]=1..2&sort=order`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((p: { attributes: { number: string } }) => p.attributes.number)).toEqual(['+1 555 0101', '+1 555 0102']);
  });

  it('opportunity.trashedAt is filterable (SPEC.md, 2024-11-29)', async () => {
    const trashed = await create('opportunities', 'opportunity', { name: 'Lost deal', trashedAt: '2026-03-01T00:00:00.000Z' });
    await create('opportunities', 'opportunity', { name: 'Open deal' });
    const response = await api.request('GET', '/api/v2/opportunities?filter[trashedAt]=__notnull__');
    expect(response.status).toBe(200);
    expect(response.body.data.map((o: { id: number }) => o.id)).toEqual([trashed.id]);
  });
});

describe('events by eventAt', () => {
  it('eventAt is when the change was recorded; filter[eventAt] and sort=-eventAt work', async () => {
    const first = await create('prospects', 'prospect', { firstName: 'First' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await create('prospects', 'prospect', { firstName: 'Second' });
    const eventOf = async (id: number) => {
      const response = await api.request('GET', `/api/v2/events?filter[resourceType]=prospect&filter[resourceId]=${id}`);
      return response.body.data[0];
    };
    const [a, b] = [await eventOf(first.id), await eventOf(second.id)];
    expect(a.attributes.eventAt).toBe(a.attributes.createdAt);
    expect(b.attributes.eventAt > a.attributes.eventAt).toBe(true);

    const since = await api.request('GET', `/api/v2/events?filter[eventAt]=${b.attributes.eventAt}..inf&filter[resourceType]=prospect&sort=-eventAt`);
    expect(since.status).toBe(200);
    expect(since.body.data.map((e: { id: number }) => e.id)).toEqual([b.id]);
    const newestFirst = await api.request('GET', `/api/v2/events?filter[eventAt]=${a.attributes.eventAt}..inf&filter[resourceType]=prospect&sort=-eventAt`);
    expect(newestFirst.body.data.map((e: { id: number }) => e.id)).toEqual([b.id, a.id]);
  });
});

describe('write-only attributes', () => {
  it('a mailbox password is accepted and stored, never rendered nor recorded in its events', async () => {
    const created = await create('mailboxes', 'mailbox', { email: 'ada@example.test', password: 'hunter2', smtpPassword: 's3cret', validateSend: true });
    expect(created.attributes).not.toHaveProperty('password');
    expect(created.attributes).not.toHaveProperty('smtpPassword');
    expect(created.attributes).toMatchObject({ email: 'ada@example.test' });
    const [row] = await api.sql`select password, smtp_password from mailboxes where id = ${created.id}`;
    expect(row).toEqual({ password: 'hunter2', smtp_password: 's3cret' });

    const updated = await api.request('PATCH', `/api/v2/mailboxes/${created.id}`, {
      body: { data: { type: 'mailbox', id: String(created.id), attributes: { password: 'correct horse' } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).not.toHaveProperty('password');
    const events = await api.sql`select payload::text as payload from events where resource_type = 'mailbox' and resource_id = ${created.id}`;
    expect(events.length).toBeGreaterThan(0);
    for (const { payload } of events) expect(payload).not.toMatch(/hunter2|s3cret|correct horse|password/i);
  });

  it('a write-only attribute is neither filterable nor sortable', async () => {
    expect((await api.request('GET', '/api/v2/mailboxes?filter[password]=hunter2')).status).toBe(400);
    expect((await api.request('GET', '/api/v2/mailboxes?sort=password')).status).toBe(400);
  });
});

describe('values Cadence maintains', () => {
  it('a task records when its state changed; a phone number when its status did', async () => {
    const task = await create('tasks', 'task', { action: 'call' });
    // The request's clock, not the transaction's: within a second of createdAt.
    expect(Math.abs(Date.parse(task.attributes.stateChangedAt) - Date.parse(task.attributes.createdAt))).toBeLessThan(1000);
    const completed = await api.request('POST', `/api/v2/tasks/${task.id}/actions/markComplete`);
    expect(completed.status).toBe(200);
    expect(completed.body.data.attributes.state).toBe('completed');
    expect(completed.body.data.attributes.stateChangedAt >= task.attributes.stateChangedAt).toBe(true);
    expect(completed.body.data.attributes.stateChangedAt).toBe(completed.body.data.attributes.completedAt);

    const phone = await create('phoneNumbers', 'phoneNumber', { number: '+1 555 0199' });
    expect(phone.attributes.statusChangedAt).toBeNull();
    const patch = (attributes: Record<string, unknown>) =>
      api.request('PATCH', `/api/v2/phoneNumbers/${phone.id}`, { body: { data: { type: 'phoneNumber', id: String(phone.id), attributes } } });
    const validated = (await patch({ status: 'valid' })).body.data.attributes;
    expect(validated.statusChangedAt).not.toBeNull();
    expect((await patch({ extension: '12' })).body.data.attributes.statusChangedAt).toBe(validated.statusChangedAt);
  });

  it('creator and updater name the acting user; an update by another user changes only updater', async () => {
    const team = await create('teams', 'team', { name: 'Closers' });
    expect(team.relationships.creator).toEqual({ data: { type: 'user', id: api.org.userId } });
    expect(team.relationships.updater).toEqual({ data: { type: 'user', id: api.org.userId } });

    const other = await api.request('POST', '/api/v2/users', {
      body: { data: { type: 'user', attributes: { email: 'grace@example.test', firstName: 'Grace', lastName: 'Hopper' } } },
    });
    expect(other.status).toBe(201);
    expect(other.body.data.attributes.name).toBe('Grace Hopper');
    const { userId: editor } = await createUser(api.sql, { orgId: api.org.orgId, email: 'editor@example.test', admin: false });
    const { token } = await createToken(api.sql, { orgId: api.org.orgId, userId: editor, scopes: ['teams.all'] });
    const patched = await api.request('PATCH', `/api/v2/teams/${team.id}`, {
      token,
      body: { data: { type: 'team', id: String(team.id), attributes: { color: 'red' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.relationships.creator).toEqual({ data: { type: 'user', id: api.org.userId } });
    expect(patched.body.data.relationships.updater).toEqual({ data: { type: 'user', id: editor } });
  });
});
