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

describe('cadence sandbox init|seed and org reset', { timeout: 300_000 }, () => {
  /** How many records `path` lists for the token's org, by the list's count. */
  async function listed(token: string, path: string): Promise<number> {
    const response = await setup.api.request('GET', `/api/v2/${path}?count=true&page[size]=1`, { token });
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
    return response.body.meta.count;
  }
  const LISTS = [
    'prospects',
    'accounts',
    'opportunities',
    'tasks',
    'calls',
    'sequences',
    'sequenceSteps',
    'templates',
    'mailboxes',
    'customObjects/sandboxCompetitor',
    'customObjects/sandboxMeeting',
  ];
  const countsOf = async (token: string) => Object.fromEntries(await Promise.all(LISTS.map(async (path) => [path, await listed(token, path)] as const)));
  const names = async (token: string) =>
    (await setup.api.request('GET', '/api/v2/prospects?sort=id&page[size]=20', { token })).body.data.map((p: any) => [
      p.attributes.firstName,
      p.attributes.lastName,
      p.attributes.emails,
    ]);

  it('init makes an org with a token and sample records, seed adds to it, and reset empties it but its users and tokens', async () => {
    const init = await cadence('sandbox', 'init', '--name', 'Sandbox A', '--prospects', '50');
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const org = JSON.parse(init.stdout);
    expect(org).toMatchObject({ orgId: expect.any(Number), userId: expect.any(Number), token: expect.any(String), expiresAt: expect.any(String) });
    expect(org.seeded).toMatchObject({ prospect: 50, account: 16, user: 3, task: 5, call: 3, sandboxMeeting: 2, sandboxCompetitor: 2 });
    expect(await countsOf(org.token)).toEqual({
      prospects: 50,
      accounts: 16,
      opportunities: 16,
      tasks: 5,
      calls: 3,
      sequences: 2,
      sequenceSteps: 6,
      templates: 2,
      mailboxes: 1,
      'customObjects/sandboxCompetitor': 2,
      'customObjects/sandboxMeeting': 2,
    });
    const prospect = (await setup.api.request('GET', '/api/v2/prospects?sort=id&page[size]=1', { token: org.token })).body.data[0];
    expect(prospect.attributes.emails[0]).toMatch(/^[a-z.]+\.0@[a-z-]+\.example$/);
    expect(prospect.relationships.account.data).toMatchObject({ type: 'account' });

    // The same seed gives the same people in another org.
    const other = JSON.parse((await cadence('sandbox', 'init', '--name', 'Sandbox B', '--prospects', '20')).stdout);
    expect(await names(other.token)).toEqual(await names(org.token));

    const seeded = await cadence('sandbox', 'seed', '--org', String(org.orgId), '--prospects', '10', '--seed', '7');
    expect(seeded.code).toBe(0);
    expect(JSON.parse(seeded.stdout).seeded).toMatchObject({ prospect: 10, user: 3 });
    expect(await listed(org.token, 'prospects')).toBe(60);
    const users = await listed(org.token, 'users');
    expect(users).toBe(7);

    const refused = await cadence('org', 'reset', '--org', String(org.orgId));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`org reset deletes every record of org ${org.orgId} but its users; add --yes to do it`);
    expect(await listed(org.token, 'prospects')).toBe(60);

    const reset = await cadence('org', 'reset', '--org', String(org.orgId), '--yes');
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout).deleted).toMatchObject({ prospect: 60, account: 32, sandboxMeeting: 3 });
    expect(Object.values(await countsOf(org.token)).every((n) => n === 0)).toBe(true);
    // Users and the token stay; the other org is untouched.
    expect(await listed(org.token, 'users')).toBe(users);
    expect(await listed(other.token, 'prospects')).toBe(20);
  });

  it('names the bad argument', async () => {
    const tooMany = await cadence('sandbox', 'seed', '--org', '1', '--prospects', '100001');
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--prospects must be at most 100000, not 100001');
    const zero = await cadence('sandbox', 'init', '--prospects', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--prospects must be a positive integer');
    const noOrg = await cadence('org', 'reset', '--org', '999999', '--yes');
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain('org 999999 does not exist');
  });
});
