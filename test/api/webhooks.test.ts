import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';

/** The webhook resource, its visibility rules, cleanup, and deliveries enqueued with events. */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

async function createWebhook(attributes: Record<string, unknown>, token?: string) {
  return api.request('POST', '/api/v2/webhooks', { body: { data: { type: 'webhook', attributes } }, ...(token && { token }) });
}

/** The deliveries queued: the items of every deliver_webhook job (a set of them each). */
async function deliveryJobs(): Promise<{ orgId: number; eventId: number; webhookId: number }[]> {
  const rows = await api.sql`
    select i.item from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id,
           jsonb_array_elements(j.payload::jsonb) with ordinality as i(item, n)
     where t.identifier = 'deliver_webhook' order by j.id, i.n`;
  return rows.map((r) => r.item);
}

describe('webhook resource', () => {
  it('defaults resource and action to *, payloadVersion 1, active; returns a cleanup token', async () => {
    const response = await createWebhook({ url: 'https://hooks.example.test/a', secret: 's3cret' });
    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({
      resource: '*',
      action: '*',
      payloadVersion: 1,
      active: true,
      secret: 's3cret',
      disabledReason: null,
      disabledSince: null,
      disabledUntil: null,
      creatorAppId: null,
    });
    expect(response.body.data.attributes.cleanupToken).toMatch(/^whc_\d+_/);
  });

  it('refuses a URL that is not HTTPS, and a payloadVersion other than 1 or 2', async () => {
    const http = await createWebhook({ url: 'http://hooks.example.test/a' });
    expect(http.status).toBe(422);
    expect(http.body.errors[0].source.pointer).toBe('/data/attributes/url');
    const version = await createWebhook({ url: 'https://hooks.example.test/a', payloadVersion: 3 });
    expect(version.status).toBe(422);
  });

  it.each([
    [{ resource: 'nosuch' }, '/data/attributes/resource', '"nosuch" is not a resource webhooks can watch'],
    [{ resource: 'event' }, '/data/attributes/resource', '"event" is not a resource webhooks can watch'],
    [{ resource: 'prospect', action: 'exploded' }, '/data/attributes/action', 'prospect has no webhook action "exploded"; it has "*", "created", "updated", "destroyed"'],
    [{ action: 'completed' }, '/data/attributes/action', '* has no webhook action "completed"; it has "*", "created", "updated", "destroyed"'],
    [{ resource: 'user', action: 'destroyed' }, '/data/attributes/action', 'user has no webhook action "destroyed"; it has "*", "created", "updated"'],
    [{ resource: null }, '/data/attributes/resource', 'resource must be a resource type or *, not null'],
  ])('422 for a subscription that can never fire: %j', async (attributes, pointer, detail) => {
    const response = await createWebhook({ url: 'https://hooks.example.test/s', ...attributes });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ id: 'validationError', status: '422', title: 'Validation Error', detail, source: { pointer } }]);
  });

  it("accepts every subscription of SPEC.md's table, and custom objects the org defines", async () => {
    for (const [resource, action] of [
      ['*', 'destroyed'],
      ['mailing', 'bounced'],
      ['mailing', 'replied'],
      ['sequenceState', 'advanced'],
      ['import', 'finished'],
      ['kaiaRecording', 'created'],
      ['user', 'updated'],
      ['task', '*'],
    ]) {
      const response = await createWebhook({ url: 'https://hooks.example.test/ok', resource, action });
      expect(response.status, `${resource}.${action}`).toBe(201);
    }
    const defined = await api.request('POST', '/api/v2/customObjectDefinitions', {
      body: { data: { type: 'customObjectDefinition', attributes: { name: 'parcel', displayField: 'label', fields: [{ name: 'label', type: 'string' }] } } },
    });
    expect(defined.status).toBe(201);
    expect((await createWebhook({ url: 'https://hooks.example.test/p', resource: 'parcel', action: 'created' })).status).toBe(201);
    expect((await createWebhook({ url: 'https://hooks.example.test/p', resource: 'parcel', action: 'bounced' })).status).toBe(422);
  });

  it('an update is checked the same way, and leaves the webhook unchanged when refused', async () => {
    const created = await createWebhook({ url: 'https://hooks.example.test/u', resource: 'prospect' });
    const id = created.body.data.id;
    const refused = await api.request('PATCH', `/api/v2/webhooks/${id}`, { body: { data: { type: 'webhook', id: String(id), attributes: { action: 'finished' } } } });
    expect(refused.status).toBe(422);
    expect((await api.request('GET', `/api/v2/webhooks/${id}`)).body.data.attributes.action).toBe('*');
  });

  it('the cleanup token and secret never reach event payloads', async () => {
    const response = await createWebhook({ url: 'https://hooks.example.test/e', secret: 'topsecret' });
    const [event] = await api.sql`select payload from events where resource_type = 'webhook' and resource_id = ${response.body.data.id}`;
    expect(JSON.stringify(event!.payload)).not.toContain('topsecret');
    expect(JSON.stringify(event!.payload)).not.toContain(response.body.data.attributes.cleanupToken);
  });
});

describe('visibility', () => {
  it('a regular user sees secret, cleanup token and the sensitive parts of the url redacted; an admin sees all', async () => {
    const created = await createWebhook({ url: 'https://user:pw@hooks.example.test/path?key=abc', secret: 'shh' });
    const id = created.body.data.id;
    const regular = await api.newUserToken(api.org.orgId, ['webhooks.all']);
    const seen = await api.request('GET', `/api/v2/webhooks/${id}`, { token: regular });
    expect(seen.body.data.attributes).toMatchObject({
      secret: '[REDACTED]',
      cleanupToken: '[REDACTED]',
      url: 'https://[REDACTED]@hooks.example.test/path?[REDACTED]',
    });
    const listed = await api.request('GET', '/api/v2/webhooks', { token: regular });
    expect(JSON.stringify(listed.body)).not.toContain('shh');
    const admin = await api.newUserToken(api.org.orgId, ['webhooks.all'], true);
    const full = await api.request('GET', `/api/v2/webhooks/${id}`, { token: admin });
    expect(full.body.data.attributes).toMatchObject({ secret: 'shh', url: 'https://user:pw@hooks.example.test/path?key=abc' });
  });

  it('a regular user who creates a webhook gets its cleanup token in the create response, and only there', async () => {
    const regular = await api.newUserToken(api.org.orgId, ['webhooks.all']);
    const created = await createWebhook({ url: 'https://hooks.example.test/mine', secret: 'shh' }, regular);
    expect(created.body.data.attributes.cleanupToken).toMatch(/^whc_\d+_/);
    expect(created.body.data.attributes.secret).toBe('[REDACTED]');
    const [row] = await api.sql`select cleanup_token from webhooks where id = ${created.body.data.id}`;
    expect(created.body.data.attributes.cleanupToken).toBe(row!.cleanup_token);
    const later = await api.request('GET', `/api/v2/webhooks/${created.body.data.id}`, { token: regular });
    expect(later.body.data.attributes.cleanupToken).toBe('[REDACTED]');
  });

  it('a webhook shows active: false while it is disabled, and true again once the disabling lapses', async () => {
    const id = (await createWebhook({ url: 'https://hooks.example.test/d' })).body.data.id;
    // As the delivery worker disables a webhook whose host resolves to a private address.
    await api.sql`update webhooks set disabled_reason = 'host resolves to a private address', disabled_since = now(), disabled_until = now() + interval '1 hour' where id = ${id}`;
    expect((await api.request('GET', `/api/v2/webhooks/${id}`)).body.data.attributes).toMatchObject({
      active: false,
      disabledReason: 'host resolves to a private address',
    });
    await api.sql`update webhooks set disabled_until = now() - interval '1 second' where id = ${id}`;
    expect((await api.request('GET', `/api/v2/webhooks/${id}`)).body.data.attributes.active).toBe(true);
  });
});

describe('cleanup', () => {
  it('204 removes the webhook, then 404; 401 for anything but a cleanup token; always an empty body', async () => {
    const created = await createWebhook({ url: 'https://hooks.example.test/c' });
    const token = created.body.data.attributes.cleanupToken;
    const removed = await api.request('POST', '/api/v2/webhooks/cleanup', { token });
    expect(removed).toMatchObject({ status: 204, body: null });
    expect((await api.request('GET', `/api/v2/webhooks/${created.body.data.id}`)).status).toBe(404);
    expect(await api.request('POST', '/api/v2/webhooks/cleanup', { token })).toMatchObject({ status: 404, body: null });
    expect(await api.request('POST', '/api/v2/webhooks/cleanup', { token: 'nonsense' })).toMatchObject({ status: 401, body: null });
    expect(await api.request('POST', '/api/v2/webhooks/cleanup', { token: api.org.token })).toMatchObject({ status: 401, body: null });
    expect(await api.request('POST', '/api/v2/webhooks/cleanup', { token: null })).toMatchObject({ status: 401, body: null });
  });

  // Tokens of a cleanup token's shape whose org id is past 2^53 were a 500: the id rounded to
  // another number, which the org-scoped transaction refused to use.
  it.each(['9007199254740993', '9999999999999999', '9007199254740992'])('401 for a cleanup token naming org %s', async (orgId) => {
    const token = `whc_${orgId}_${'A'.repeat(32)}`;
    expect(await api.request('POST', '/api/v2/webhooks/cleanup', { token })).toMatchObject({ status: 401, body: null });
  });

  it('404 for a token of the right shape naming an org without it', async () => {
    const token = `whc_${Number.MAX_SAFE_INTEGER}_${'A'.repeat(32)}`;
    expect(await api.request('POST', '/api/v2/webhooks/cleanup', { token })).toMatchObject({ status: 404, body: null });
  });

  it('a cleanup token authorizes nothing else', async () => {
    const created = await createWebhook({ url: 'https://hooks.example.test/d' });
    const token = created.body.data.attributes.cleanupToken;
    expect((await api.request('GET', '/api/v2/webhooks', { token })).status).toBe(401);
    expect((await api.request('DELETE', `/api/v2/webhooks/${created.body.data.id}`, { token })).status).toBe(401);
  });
});

describe('deliveries are enqueued with the event', () => {
  it('one delivery per matching active webhook, following the subscription table', async () => {
    const other = await api.newOrg('Deliveries');
    const make = (attributes: Record<string, unknown>) =>
      api.request('POST', '/api/v2/webhooks', {
        token: other.token,
        body: { data: { type: 'webhook', attributes: { url: 'https://hooks.example.test/x', ...attributes } } },
      });
    const all = (await make({})).body.data.id;
    const prospectsOnly = (await make({ resource: 'prospect' })).body.data.id;
    const accountsCreated = (await make({ resource: 'account', action: 'created' })).body.data.id;
    const taskCompleted = (await make({ resource: 'task', action: 'completed' })).body.data.id;
    await make({ resource: 'prospect', active: false });

    await api.request('POST', '/api/v2/prospects', { token: other.token, body: { data: { type: 'prospect' } } });
    const task = await api.request('POST', '/api/v2/tasks', { token: other.token, body: { data: { type: 'task', attributes: { action: 'call' } } } });
    await api.request('POST', `/api/v2/tasks/${task.body.data.id}/actions/markComplete`, { token: other.token });
    const events = await api.sql`select id, name from events where org_id = ${other.orgId}`;
    // A later write's deliveries may be appended to an earlier write's set: found by event, not by job.
    const jobs = (await deliveryJobs()).filter((j) => j.orgId === other.orgId);
    const nameOf = new Map(events.map((e) => [e.id, e.name]));
    const byEvent = (name: string) =>
      jobs
        .filter((j) => nameOf.get(j.eventId) === name)
        .map((j) => j.webhookId)
        .sort();
    expect(byEvent('prospect_created')).toEqual([all, prospectsOnly].sort());
    expect(byEvent('task_created')).toEqual([all]);
    expect(byEvent('task_updated')).toEqual([all]);
    expect(byEvent('task_completed')).toEqual([taskCompleted]);
    expect(jobs.every((j) => j.webhookId !== accountsCreated)).toBe(true);
  });

  it('a rolled-back write leaves no event and no delivery', async () => {
    await createWebhook({ url: 'https://hooks.example.test/r' });
    const events = (await api.sql`select count(*)::int as n from events`)[0]!.n;
    const jobs = (await deliveryJobs()).length;
    const refused = await api.request('POST', '/api/v2/prospects', {
      body: { data: { type: 'prospect', relationships: { account: { data: { type: 'account', id: 987654 } } } } },
    });
    expect(refused.status).toBe(422);
    expect((await api.sql`select count(*)::int as n from events`)[0]!.n).toBe(events);
    expect((await deliveryJobs()).length).toBe(jobs);
  });
});
