import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';
import { startWebhookSetup, type WebhookSetup } from '../helpers/webhook-worker.js';

/**
 * The sandbox commands as an operator runs them: the real CLI as a process against the test
 * database, a real API server, a real worker and a real HTTPS receiver on 127.0.0.1.
 */

let setup: WebhookSetup;
beforeAll(async () => {
  setup = await startWebhookSetup();
}, 60_000);
afterAll(async () => {
  await setup?.close();
});

const cadence = (...args: string[]) => runCadence(setup.api.databaseUrl, args);

async function subscribe(resource: string, action: string, token = setup.api.org.token): Promise<void> {
  const response = await setup.api.request('POST', '/api/v2/webhooks', { token, body: { data: { type: 'webhook', attributes: { url: setup.url, resource, action } } } });
  expect(response.status).toBe(201);
}

/** The delivery of `eventName` about record `id`, once the receiver has it. */
function delivery(eventName: string, id: number): Promise<any> {
  return until(`${eventName} of ${id} delivered`, () =>
    setup.receiver.requests.map((r) => JSON.parse(r.body.toString())).find((body) => body.meta.eventName === eventName && Number(body.data.id) === id),
  );
}

describe('cadence trigger', { timeout: 180_000 }, () => {
  it('prospect.created: makes a prospect through the writer, prints it, and a subscribed webhook receives the event', async () => {
    await subscribe('prospect', 'created');
    const result = await cadence('trigger', 'prospect.created', '--org', String(setup.api.org.orgId));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.event).toBe('prospect.created');
    const prospect = printed.records.at(-1);
    expect(prospect.type).toBe('prospect');
    const received = await delivery('prospect.created', prospect.id);
    expect(received.data.attributes).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('task.completed: the task is marked complete by its action', async () => {
    await subscribe('task', 'completed');
    const result = await cadence('trigger', 'task.completed', '--org', String(setup.api.org.orgId));
    expect(result.code).toBe(0);
    const task = JSON.parse(result.stdout).records.at(-1);
    const received = await delivery('task.completed', task.id);
    expect(received.data.attributes.completed).toBe(true);
  });

  it('mailing.delivered: the worker sends the scheduled mailing through the local transport', async () => {
    await subscribe('mailing', 'delivered');
    const result = await cadence('trigger', 'mailing.delivered', '--org', String(setup.api.org.orgId));
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.note).toContain('worker');
    const mailing = printed.records.at(-1);
    expect(mailing.type).toBe('mailing');
    const received = await delivery('mailing.delivered', mailing.id);
    expect(received.data.attributes.state).toBe('delivered');
    const stored = await cadence('mail', 'list', '--org', String(setup.api.org.orgId));
    expect(stored.stdout).toContain('Hello from the Cadence sandbox');
  });

  it('--list names the events; an unknown one is refused with that list, a missing org by name', async () => {
    const listed = await cadence('trigger', '--list');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).events).toEqual(expect.arrayContaining(['prospect.created', 'task.completed', 'sequenceState.finished', 'mailing.delivered']));
    const unknown = await cadence('trigger', 'prospect.exploded', '--org', String(setup.api.org.orgId));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^cadence: cannot trigger "prospect.exploded"; the events cadence trigger makes are: account.created, .*prospect.created/);
    const noOrg = await cadence('trigger', 'prospect.created');
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain('--org must be a positive integer');
    const noEvent = await cadence('trigger', '--org', '1');
    expect(noEvent.code).toBe(2);
    expect(noEvent.stderr).toContain('trigger takes one event name');
  });
});
