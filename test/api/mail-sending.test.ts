import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SMTP_POOL_LIMITS, SEND_MAILING_TASK, SEND_MAILINGS_TASK } from '../../runtime/mail/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, eventsOf, freshOrg, type OrgClient } from '../helpers/bulk-actions.js';
import { runCadence } from '../helpers/cli.js';
import { enrol, everyPage, MINUTE, pendingSteps, releaseDueSteps, SimulatedClock, sequenceWith, stateOf, stepsSettled } from '../helpers/sequences.js';
import { decodeQuotedPrintable, loopbackTransports, pendingSends, releaseDueSends, sendsSettled, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

/**
 * Sending mailings (issue #16) to a real SMTP server on 127.0.0.1, in simulated time: the API
 * and a real worker share a clock set far ahead of the database's, so no send job runs before a
 * test releases it. Mailboxes name an outside host (smtp.example.test); the transports given
 * to the worker and the API take them to the loopback server, so nothing leaves the machine.
 * The worker claims sends in sets of SET_SIZE, small here so that a few mailings make several
 * sets, two of them in flight at once (concurrency 2).
 */

const SECRET = 'hunter2-smtp-secret';
const SMTP_USER = 'rep-login';
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SET_SIZE = 4;

let api: TestApi;
let worker: StartedWorker;
let smtp: TestSmtpServer;
const logLines: string[] = [];
/** Every org a test made, to read their mailboxes as the API shows them at the end. */
const orgs: OrgClient[] = [];
const clock = new SimulatedClock(Date.parse('2099-03-10T09:00:00.000Z'));

/** The mailbox's own SMTP server, at 127.0.0.1 whatever host it names; else the local transport. */

beforeAll(async () => {
  smtp = await startSmtpServer({ username: SMTP_USER, password: SECRET });
  const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(String(chunk))) }));
  api = await startTestApi({ clock: clock.now, log, mailTransports: (sql) => loopbackTransports(sql, clock.now) });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    clock: clock.now,
    log,
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    mail: { transports: loopbackTransports(api.sql, clock.now), mailFrom: 'Cadence <invites@cadence.test>', publicBaseUrl: 'https://cadence.test', setSize: SET_SIZE },
  });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await smtp?.close();
});

interface Fixture {
  org: OrgClient;
  mailbox: number;
  prospect: number;
}

async function sender(org: OrgClient): Promise<number> {
  return create(org, 'users', 'user', { email: `sender${Math.random()}@cadence.test`, firstName: 'Grace', lastName: 'Hopper' });
}

/** An org with a sender, their mailbox (own SMTP server, or none: the local transport) and a prospect at an account. */
async function fixture(name: string, mailbox: Record<string, unknown> = {}, smtpServer = true): Promise<Fixture> {
  const org = await freshOrg(api, name);
  orgs.push(org);
  const user = await sender(org);
  const smtpSettings = smtpServer ? { smtpHost: 'smtp.example.test', smtpPort: smtp.port, smtpUsername: SMTP_USER, smtpPassword: SECRET, smtpSsl: false } : {};
  const mailboxId = await create(org, 'mailboxes', 'mailbox', { email: 'grace@sales.example.test', ...smtpSettings, ...mailbox }, { user: { type: 'user', id: user } });
  const account = await create(org, 'accounts', 'account', { name: 'Acme & Sons' });
  const prospect = await create(
    org,
    'prospects',
    'prospect',
    { firstName: 'Ada', lastName: '<Lovelace>', title: 'CTO', emails: ['ada@acme.example.test'] },
    { account: { type: 'account', id: account } },
  );
  return { org, mailbox: mailboxId, prospect };
}

/** A scheduled mailing from the fixture's mailbox to its prospect, with `attributes` and any further relationships. */
async function scheduled(f: Fixture, attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}): Promise<number> {
  return create(
    f.org,
    'mailings',
    'mailing',
    { state: 'scheduled', ...attributes },
    { mailbox: { type: 'mailbox', id: f.mailbox }, prospect: { type: 'prospect', id: f.prospect }, ...relationships },
  );
}

async function scheduleMailing(f: Fixture, subject: string, bodyHtml: string, attributes: Record<string, unknown> = {}): Promise<number> {
  return scheduled(f, { subject, bodyHtml, ...attributes });
}

async function mailing(org: OrgClient, id: number): Promise<Record<string, any>> {
  return attributesOf(org, `mailings/${id}`);
}

async function untilState(org: OrgClient, id: number, state: string): Promise<Record<string, any>> {
  await releaseDueSends(api, clock);
  return until(`mailing ${id} to be ${state}`, async () => {
    const found = await mailing(org, id);
    return found.state === state ? found : undefined;
  });
}

async function moveClock(ms: number): Promise<void> {
  clock.set(new Date(clock.now().getTime() + ms));
  await releaseDueSends(api, clock);
}

describe('a scheduled mailing', () => {
  it('is rendered, sent through its mailbox with a login, and delivered with its Message-ID and events', async () => {
    const f = await fixture('Render and send');
    const before = smtp.received.length;
    const id = await scheduleMailing(
      f,
      'Hi {{first_name}} at {{company}}',
      '<p>Hello {{ first_name }} {{last_name}},</p><p>{{account.name}} from {{sender.first_name}} {{sender.last_name}}</p>',
    );
    expect((await pendingSends(api)).get(id)).toBe(clock.now().toISOString());

    const delivered = await untilState(f.org, id, 'delivered');
    expect(delivered).toMatchObject({
      deliveredAt: clock.now().toISOString(),
      stateChangedAt: clock.now().toISOString(),
      messageId: expect.stringMatching(/^<[0-9a-f-]{36}@sales\.example\.test>$/),
      mailboxAddress: 'grace@sales.example.test',
      bodyText: 'Hello Ada <Lovelace>,\n\nAcme & Sons from Grace Hopper',
      errorReason: null,
    });
    expect(smtp.received.length).toBe(before + 1);
    const message = smtp.received.at(-1)!;
    expect(message.from).toBe('grace@sales.example.test');
    expect(message.to).toEqual(['ada@acme.example.test']);
    const headers = message.raw.slice(0, message.raw.indexOf('\r\n\r\n'));
    expect(headers).toContain('From: Grace Hopper <grace@sales.example.test>\r\n');
    expect(headers).toMatch(/\r\nTo: "?Ada <Lovelace>"? <ada@acme\.example\.test>\r\n|\r\nTo: =\?/);
    expect(headers).toContain('Subject: Hi Ada at Acme & Sons\r\n');
    expect(headers).toContain(`Message-ID: ${delivered.messageId}\r\n`);
    expect(headers).toContain('Content-Type: multipart/alternative;');
    const body = decodeQuotedPrintable(message.raw.slice(headers.length));
    expect(body).toContain('Content-Type: text/plain');
    expect(body).toContain('Hello Ada <Lovelace>,\r\n\r\nAcme & Sons from Grace Hopper');
    expect(body).toContain('Content-Type: text/html');
    expect(body).toContain('<p>Hello Ada &lt;Lovelace&gt;,</p><p>Acme &amp; Sons from Grace Hopper</p>');
    expect(smtp.logins).toContain(`${SMTP_USER}:${SECRET}`);
    expect(await eventsOf(f.org, 'mailing', ['mailing_delivered'])).toEqual([['mailing_delivered', id]]);
    expect(await pendingSends(api)).not.toContain(id);
  });

  it('with an unknown variable fails, naming it, and sends nothing', async () => {
    const f = await fixture('Unknown variable');
    const before = smtp.received.length;
    const id = await scheduleMailing(f, 'Hi {{first_name}}', '<p>Your {{favourite_colour}}</p>');
    const failed = await untilState(f.org, id, 'failed');
    expect(failed.errorReason).toBe('Unknown variable {{favourite_colour}}');
    expect(failed.messageId).toBeNull();
    expect(smtp.received.length).toBe(before);
  });

  it('made from a template, with no subject or body of its own, is sent with the template’s', async () => {
    const f = await fixture('From a template');
    const template = await create(f.org, 'templates', 'template', {
      name: 'Intro',
      subject: 'Hello {{first_name}}',
      bodyHtml: '<p>From the template, {{first_name}}</p>',
    });
    const before = smtp.received.length;
    const id = await scheduled(f, {}, { template: { type: 'template', id: template } });
    const delivered = await untilState(f.org, id, 'delivered');
    expect(delivered).toMatchObject({ subject: 'Hello {{first_name}}', bodyHtml: '<p>From the template, {{first_name}}</p>', bodyText: 'From the template, Ada' });
    expect(smtp.received.length).toBe(before + 1);
    const raw = smtp.received.at(-1)!.raw;
    expect(raw).toContain('Subject: Hello Ada\r\n');
    expect(decodeQuotedPrintable(raw)).toContain('<p>From the template, Ada</p>');
  });

  it('carries its mailbox’s emailSignature after the body, in the HTML and the text part, template mail included', async () => {
    const signature = '<p>Grace Hopper<br>Acme Sales, {{not a variable}}</p>';
    const f = await fixture('Signature', { emailSignature: signature });
    const template = await create(f.org, 'templates', 'template', {
      name: 'Intro',
      subject: 'Hello',
      bodyHtml: '<html><body><p>From the template, {{first_name}}</p></body></html>',
    });
    const before = smtp.received.length;
    const id = await scheduled(f, {}, { template: { type: 'template', id: template } });
    const delivered = await untilState(f.org, id, 'delivered');
    expect(delivered.bodyText).toBe('From the template, Ada\n\nGrace Hopper\nAcme Sales, {{not a variable}}');
    expect(smtp.received.length).toBe(before + 1);
    const body = decodeQuotedPrintable(smtp.received.at(-1)!.raw);
    expect(body).toContain(`<p>From the template, Ada</p><div class="signature">${signature}</div></body>`);
    expect(body).toContain('From the template, Ada\r\n\r\nGrace Hopper\r\nAcme Sales, {{not a variable}}');
  });

  it('with neither a subject, a body nor a template fails saying so, and sends nothing', async () => {
    const f = await fixture('Nothing to send');
    const before = smtp.received.length;
    const id = await scheduled(f, {});
    const failed = await untilState(f.org, id, 'failed');
    expect(failed.errorReason).toBe('The mailing has no subject and no body, and no template to take them from');
    expect(smtp.received.length).toBe(before);
  });

  it('deleted or drafted again before it is due loses its send job', async () => {
    const f = await fixture('Unscheduled');
    const later = new Date(clock.now().getTime() + HOUR).toISOString();
    const drafted = await scheduleMailing(f, 'A', '<p>a</p>', { scheduledAt: later });
    const deleted = await scheduleMailing(f, 'B', '<p>b</p>', { scheduledAt: later });
    expect((await pendingSends(api)).get(drafted)).toBe(later);
    const patched = await f.org.request('PATCH', `/api/v2/mailings/${drafted}`, { body: { data: { type: 'mailing', id: drafted, attributes: { state: 'drafted' } } } });
    expect(patched.status).toBe(200);
    expect((await f.org.request('DELETE', `/api/v2/mailings/${deleted}`)).status).toBe(204);
    const pending = await pendingSends(api);
    expect([pending.has(drafted), pending.has(deleted)]).toEqual([false, false]);
  });
});

describe('SMTP refusals', () => {
  it('4xx: retried later with retryCount and retryAt, then delivered', async () => {
    const f = await fixture('Temporary failure');
    let refusals = 1;
    smtp.answer = () => (refusals-- > 0 ? { code: 451, message: 'Try again later, greylisted' } : 'accept');
    const id = await scheduleMailing(f, 'Retry', '<p>again</p>');
    await releaseDueSends(api, clock);
    const retrying = await until('a retry', async () => {
      const found = await mailing(f.org, id);
      return found.retryCount === 1 ? found : undefined;
    });
    const retryAt = new Date(clock.now().getTime() + MINUTE).toISOString();
    expect(retrying).toMatchObject({ state: 'scheduled', retryCount: 1, retryAt, retryInterval: 60, errorReason: expect.stringContaining('451 Try again later') });
    expect((await pendingSends(api)).get(id)).toBe(retryAt);
    await moveClock(MINUTE);
    expect((await untilState(f.org, id, 'delivered')).retryAt).toBeNull();
    smtp.answer = () => 'accept';
  });

  it('5xx: bounced with the answer, a mailing.bounced event, and the sequence state bounced without its next step', async () => {
    const f = await fixture('Permanent failure');
    smtp.answer = () => ({ code: 550, message: 'No such user here' });
    const owner = await sender(f.org);
    const sequence = await sequenceWith(f.org, owner, 'interval', [
      { stepType: 'auto_email', interval: 0 },
      { stepType: 'call', interval: 60 },
    ]);
    const enrolled = await enrol(f.org, f.prospect, { sequence: sequence.sequence, mailbox: f.mailbox });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    const stateId = Number(enrolled.body.data.id);
    await releaseDueSteps(api, clock);
    await stepsSettled(api);
    const [sent] = await until('the step mailing', async () => {
      const { body } = await f.org.request('GET', `/api/v2/mailings?filter[sequenceState][id]=${stateId}`);
      return body.data.length ? body.data : undefined;
    });
    expect((await pendingSteps(api)).get(stateId)).toHaveLength(1);
    const bounced = await untilState(f.org, Number(sent.id), 'bounced');
    expect(bounced).toMatchObject({ bouncedAt: clock.now().toISOString(), errorReason: expect.stringContaining('550 No such user here') });
    expect(await eventsOf(f.org, 'mailing', ['mailing_bounced'])).toEqual([['mailing_bounced', Number(sent.id)]]);
    const state = await stateOf(f.org, stateId);
    expect(state.state).toBe('bounced');
    expect(state.attributes.errorReason).toContain('550 No such user here');
    expect((await pendingSteps(api)).get(stateId)).toBeUndefined();
    // The webhook a subscriber of mailing.bounced gets: its delivery job was enqueued with the event.
    const [{ n }] = await api.sql<[{ n: number }]>`select count(*)::int as n from events where org_id = ${f.org.orgId} and name = 'mailing_bounced'`;
    expect(n).toBe(1);
    smtp.answer = () => 'accept';
  });
});

describe('mailbox limits', () => {
  it('maxEmailsPerDay holds the rest to the start of the next UTC day, when they go', async () => {
    const f = await fixture('Daily limit', { maxEmailsPerDay: 1 });
    const first = await scheduleMailing(f, 'One', '<p>1</p>');
    await untilState(f.org, first, 'delivered');
    const second = await scheduleMailing(f, 'Two', '<p>2</p>');
    await releaseDueSends(api, clock);
    const tomorrow = new Date(Date.UTC(clock.now().getUTCFullYear(), clock.now().getUTCMonth(), clock.now().getUTCDate() + 1)).toISOString();
    await until('the second mailing held', async () => ((await pendingSends(api)).get(second) === tomorrow ? true : undefined));
    await sendsSettled(api);
    expect((await mailing(f.org, second)).state).toBe('scheduled');
    clock.set(new Date(tomorrow));
    expect((await untilState(f.org, second, 'delivered')).deliveredAt).toBe(tomorrow);
    clock.set(new Date(Date.parse(tomorrow) + 9 * HOUR));
  });

  it('sendDisabled holds mailings, never drops them', async () => {
    const f = await fixture('Send disabled', { sendDisabled: true });
    const id = await scheduleMailing(f, 'Held', '<p>held</p>');
    await releaseDueSends(api, clock);
    const tomorrow = new Date(Date.UTC(clock.now().getUTCFullYear(), clock.now().getUTCMonth(), clock.now().getUTCDate() + 1)).toISOString();
    await until('the mailing held', async () => ((await pendingSends(api)).get(id) === tomorrow ? true : undefined));
    expect((await mailing(f.org, id)).state).toBe('scheduled');
    const enabled = await f.org.request('PATCH', `/api/v2/mailboxes/${f.mailbox}`, {
      body: { data: { type: 'mailbox', id: f.mailbox, attributes: { sendDisabled: false } } },
    });
    expect(enabled.status).toBe(200);
    await moveClock(DAY);
    await untilState(f.org, id, 'delivered');
  });
});

describe('sending in sets', () => {
  /** The org's mailings from the mailbox, as the API lists them. */
  const mailingsOf = (f: Fixture) => everyPage(f.org, `mailings?filter[mailbox][id]=${f.mailbox}`);
  const tomorrowOf = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();

  it('many mailings due at one instant are each sent once, over a few pooled connections', async () => {
    const f = await fixture('Many at once');
    const many = 10 * SET_SIZE;
    const [connectionsBefore, receivedBefore] = [smtp.connections, smtp.received.length];
    for (let i = 0; i < many; i++) await scheduleMailing(f, `Many ${i} for {{first_name}}`, `<p>Number ${i}</p>`);
    await releaseDueSends(api, clock);
    const delivered = await until('every mailing delivered', async () => {
      const listed = await mailingsOf(f);
      return listed.every((m) => m.attributes.state === 'delivered') ? listed : undefined;
    });
    expect(delivered).toHaveLength(many);
    const sent = smtp.received.slice(receivedBefore);
    const messageIdOf = (raw: string) => /^Message-ID: (\S+)\r$/m.exec(raw)?.[1];
    expect(sent.map((m) => messageIdOf(m.raw)).sort()).toEqual(delivered.map((m) => m.attributes.messageId).sort());
    // One pool of connections to the server, however many sets: never a connection per message.
    expect(smtp.connections - connectionsBefore).toBeLessThanOrEqual(DEFAULT_SMTP_POOL_LIMITS.maxConnections);
    await sendsSettled(api);
  });

  it('maxEmailsPerDay holds exactly, with several sets of one mailbox in flight at once', async () => {
    const limit = SET_SIZE + 1;
    const f = await fixture('Daily limit in sets', { maxEmailsPerDay: limit });
    const due = 3 * SET_SIZE;
    const receivedBefore = smtp.received.length;
    for (let i = 0; i < due; i++) await scheduleMailing(f, `Limited ${i}`, `<p>${i}</p>`);
    await releaseDueSends(api, clock);
    const tomorrow = tomorrowOf(clock.now());
    const today = await until('the day’s mailings sent and the rest held', async () => {
      const listed = await mailingsOf(f);
      const pending = await pendingSends(api);
      const held = listed.filter((m) => m.attributes.state === 'scheduled' && pending.get(Number(m.id)) === tomorrow);
      return held.length + listed.filter((m) => m.attributes.state === 'delivered').length === due ? listed : undefined;
    });
    await sendsSettled(api);
    const states = (listed: any[]) => listed.map((m) => m.attributes.state as string).filter((s) => s === 'delivered').length;
    expect(states(today)).toBe(limit);
    expect(smtp.received.length - receivedBefore).toBe(limit);
    // The next day sends as many again, the earliest first.
    clock.set(new Date(tomorrow));
    await releaseDueSends(api, clock);
    const next = await until('the next day’s mailings sent', async () => {
      const listed = await mailingsOf(f);
      return states(listed) === 2 * limit ? listed : undefined;
    });
    await sendsSettled(api);
    expect(states(await mailingsOf(f))).toBe(2 * limit);
    expect(next.filter((m) => m.attributes.state === 'scheduled')).toHaveLength(due - 2 * limit);
    clock.set(new Date(Date.parse(tomorrow) + 9 * HOUR));
  });
});

describe('a send_mailing job of the design before sets', () => {
  it('still sends its mailing, through the set sender, once', async () => {
    const f = await fixture('Legacy job');
    const before = smtp.received.length;
    const id = await scheduleMailing(f, 'Legacy', '<p>from before sets</p>');
    // A deployment's database as it was before sets: no send row, one job per mailing.
    await api.sql`delete from mailing_sends where org_id = ${f.org.orgId} and mailing_id = ${id}`;
    await api.sql`delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
                   where t.id = j.task_id and t.identifier = ${SEND_MAILINGS_TASK} and (j.payload->>'orgId')::bigint = ${f.org.orgId}`;
    await api.sql`select graphile_worker.add_job(${SEND_MAILING_TASK}, ${api.sql.json({ orgId: f.org.orgId, mailingId: id })}::json,
                    run_at => ${clock.now().toISOString()}::timestamptz, job_key => ${`${SEND_MAILING_TASK}:${f.org.orgId}:${id}`})`;
    expect((await untilState(f.org, id, 'delivered')).errorReason).toBeNull();
    await sendsSettled(api);
    expect(smtp.received.length).toBe(before + 1);
  });
});

describe('the local transport', () => {
  it('stores the whole message in PostgreSQL, delivered, readable with cadence mail list and show', async () => {
    const f = await fixture('Local transport', {}, false);
    const id = await scheduleMailing(f, 'Stored {{first_name}}', '<p>Kept for {{last_name}}</p>');
    const delivered = await untilState(f.org, id, 'delivered');
    const listed = await runCadence(api.databaseUrl, ['mail', 'list', '--org', String(f.org.orgId)]);
    expect(listed.code, listed.stderr).toBe(0);
    const [summary] = JSON.parse(listed.stdout);
    expect(summary).toMatchObject({
      mailingId: id,
      from: 'grace@sales.example.test',
      to: ['ada@acme.example.test'],
      subject: 'Stored Ada',
      messageId: delivered.messageId,
    });
    const shown = await runCadence(api.databaseUrl, ['mail', 'show', String(summary.id), '--org', String(f.org.orgId)]);
    expect(shown.code, shown.stderr).toBe(0);
    const message = JSON.parse(shown.stdout);
    expect(message.raw).toContain(`Message-ID: ${delivered.messageId}\r\n`);
    expect(decodeQuotedPrintable(message.raw)).toContain('<p>Kept for &lt;Lovelace&gt;</p>');
    const missing = await runCadence(api.databaseUrl, ['mail', 'show', '999999', '--org', String(f.org.orgId)]);
    expect(missing).toMatchObject({ code: 2, stderr: `cadence: org ${f.org.orgId} has no mail message 999999\n` });
    // Each CLI run starts a process that compiles the CLI: seconds each.
  }, 120_000);
});

describe('testSend', () => {
  it('sends a real message to the mailbox itself and answers the mailbox with the server reply', async () => {
    const f = await fixture('Test send');
    const before = smtp.received.length;
    const response = await f.org.request('POST', `/api/v2/mailboxes/${f.mailbox}/actions/testSend`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ type: 'mailbox', id: f.mailbox, attributes: { email: 'grace@sales.example.test', smtpHost: 'smtp.example.test' } });
    expect(response.body.data.attributes).not.toHaveProperty('smtpPassword');
    expect(response.body.meta).toEqual({ smtpResponse: expect.stringContaining('OK: queued as test') });
    expect(smtp.received.length).toBe(before + 1);
    expect(smtp.received.at(-1)!.to).toEqual(['grace@sales.example.test']);
  });

  it('answers 422 with the server reply when the server refuses', async () => {
    const f = await fixture('Test send refused');
    smtp.answer = () => ({ code: 554, message: 'Relay access denied' });
    const response = await f.org.request('POST', `/api/v2/mailboxes/${f.mailbox}/actions/testSend`);
    smtp.answer = () => 'accept';
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      { id: 'testSendFailed', status: '422', title: 'Unprocessable Entity', detail: expect.stringContaining('554 Relay access denied') },
    ]);
    expect((await f.org.request('POST', `/api/v2/mailboxes/999999/actions/testSend`)).status).toBe(404);
  });
});

describe('user invitations', () => {
  it('POST /users sends the invitation through the default transport, unless meta.sendInvite is false', async () => {
    const org = await freshOrg(api, 'Invitations');
    const invited = `invited${Math.random()}@example.test`;
    const quiet = `quiet${Math.random()}@example.test`;
    const created = await org.request('POST', '/api/v2/users', { body: { data: { type: 'user', attributes: { email: quiet }, meta: { sendInvite: false } } } });
    expect(created.status).toBe(201);
    await create(org, 'users', 'user', { email: invited });
    const [message] = await until('the invitation', async () => {
      const rows = await api.sql<{ envelope_to: string[]; raw: string }[]>`select envelope_to, raw from mail_messages where org_id = ${org.orgId}`;
      return rows.length ? rows : undefined;
    });
    expect(message!.envelope_to).toEqual([invited]);
    expect(decodeQuotedPrintable(message!.raw)).toMatch(/https:\/\/cadence\.test\/account\/invitations\/inv_[A-Za-z0-9_-]{43}/);
    expect(message!.raw).toContain('From: Cadence <invites@cadence.test>');
    const [{ n }] = await api.sql<[{ n: number }]>`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier = 'send_invitation' and j.payload->>'orgId' = ${String(org.orgId)}`;
    expect(n).toBe(0);
  });
});

describe('the SMTP password', () => {
  it('appears in no message, event, API response or log', async () => {
    // Runs last: every test above has sent, failed, retried and bounced with it.
    for (const message of smtp.received) expect(message.raw).not.toContain(SECRET);
    const [{ n }] = await api.sql<[{ n: number }]>`select count(*)::int as n from events e where e::text like ${`%${SECRET}%`}`;
    expect(n).toBe(0);
    const [{ stored }] = await api.sql<[{ stored: number }]>`select count(*)::int as stored from mail_messages where raw like ${`%${SECRET}%`}`;
    expect(stored).toBe(0);
    for (const org of orgs) {
      const { body } = await org.request('GET', '/api/v2/mailboxes?page[size]=1000');
      expect(body.data.length).toBeGreaterThan(0);
      expect(JSON.stringify(body)).not.toContain(SECRET);
    }
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toContain(SECRET);
  });
});
