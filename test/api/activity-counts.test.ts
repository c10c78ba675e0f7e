import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { SYNC_MAILBOX_TASK } from '../../runtime/mail/sync/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, eventsOf, freshOrg, newUserId, type OrgClient } from '../helpers/bulk-actions.js';
import { loopbackImapConnect, passwordFor, startImapServer, type ImapServer } from '../helpers/imap.js';
import { advance, enrol, SimulatedClock, stepsSettled } from '../helpers/sequences.js';
import { decodeQuotedPrintable, loopbackTransports, releaseDueSends, sendsSettled, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { hitsFolded } from '../helpers/tracking.js';
import { until } from '../helpers/wait.js';

/**
 * Activity counts (issue #27) as a client reads them: a sequence, its e-mail step, the step's
 * sequence template and the template count the mailings the sequence scheduled, delivered,
 * that were opened, clicked, replied to, bounced, failed and opted out of (mailings, not hits),
 * the prospects it contacted and that replied, its steps, and when it and the template were
 * last used. Real SMTP and IMAP servers on 127.0.0.1, a real worker, simulated time.
 */

let api: TestApi;
let worker: StartedWorker;
let smtp: TestSmtpServer;
let imap: ImapServer;
const clock = new SimulatedClock();

beforeAll(async () => {
  imap = await startImapServer();
  smtp = await startSmtpServer();
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  api = await startTestApi({ clock: clock.now, log, imapConnect: loopbackImapConnect, mailTransports: (sql) => loopbackTransports(sql, clock.now) });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    clock: clock.now,
    log,
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    imapConnect: loopbackImapConnect,
    mail: { transports: loopbackTransports(api.sql, clock.now), publicBaseUrl: api.baseUrl },
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await smtp?.close();
  await imap?.close();
});

const ZERO = { scheduleCount: 0, deliverCount: 0, openCount: 0, clickCount: 0, replyCount: 0, bounceCount: 0, failureCount: 0, optOutCount: 0 };

/** The tracking URLs of the message the SMTP server received for `to`. */
function linksOf(to: string) {
  const message = smtp.received.find((m) => m.to.includes(to));
  const raw = decodeQuotedPrintable(message!.raw);
  const url = (pattern: RegExp) => raw.match(pattern)![1]!;
  return {
    pixel: url(/src="(http:\/\/127\.0\.0\.1:\d+\/t\/o\/[\w-]+\.gif)"/),
    click: url(/href="(http:\/\/127\.0\.0\.1:\d+\/t\/c\/[\w-]+)"/),
    unsubscribe: url(/href="(http:\/\/127\.0\.0\.1:\d+\/t\/u\/[\w-]+)"/),
  };
}

async function sequenceWithEmailStep(org: OrgClient) {
  const template = await create(org, 'templates', 'template', {
    name: 'Intro',
    subject: 'Hello {{first_name}}',
    bodyHtml: '<p>Hi, see <a href="https://example.test/pricing">our pricing</a>.</p>',
    trackOpens: true,
    trackLinks: true,
  });
  const sequence = await create(org, 'sequences', 'sequence', { name: 'Outreach', sequenceType: 'interval' });
  const step = await create(org, 'sequenceSteps', 'sequenceStep', { stepType: 'auto_email', interval: 0, order: 1 }, { sequence: { type: 'sequence', id: sequence } });
  await create(org, 'sequenceSteps', 'sequenceStep', { stepType: 'call', interval: 24 * 60, order: 2 }, { sequence: { type: 'sequence', id: sequence } });
  const use = await create(
    org,
    'sequenceTemplates',
    'sequenceTemplate',
    {},
    { sequenceStep: { type: 'sequenceStep', id: step }, template: { type: 'template', id: template } },
  );
  return { template, sequence, step, use };
}

describe('activity counts', () => {
  it('start at 0 on a new sequence, step, sequence template and template; sequenceStepCount follows its steps', async () => {
    const org = await freshOrg(api, 'Counts from zero');
    const { template, sequence, step, use } = await sequenceWithEmailStep(org);
    expect(await attributesOf(org, `sequences/${sequence}`)).toMatchObject({
      ...ZERO,
      numContactedProspects: 0,
      numRepliedProspects: 0,
      sequenceStepCount: 2,
      lastUsedAt: null,
    });
    expect(await attributesOf(org, `sequenceSteps/${step}`)).toMatchObject(ZERO);
    expect(await attributesOf(org, `sequenceTemplates/${use}`)).toMatchObject(ZERO);
    expect(await attributesOf(org, `templates/${template}`)).toMatchObject({ ...ZERO, lastUsedAt: null });

    const third = await create(org, 'sequenceSteps', 'sequenceStep', { stepType: 'task', interval: 60, order: 3 }, { sequence: { type: 'sequence', id: sequence } });
    expect((await attributesOf(org, `sequences/${sequence}`)).sequenceStepCount).toBe(3);
    expect((await org.request('DELETE', `/api/v2/sequenceSteps/${third}`)).status).toBe(204);
    expect((await attributesOf(org, `sequences/${sequence}`)).sequenceStepCount).toBe(2);
  });

  it('count the mailings a locked sequence sends, and what became of them, on the sequence, step, sequence template and template', async () => {
    const org = await freshOrg(api, 'Counts from sending');
    const owner = await newUserId(api, org);
    const login = { user: `rep${Date.now()}@example.test`, password: '' };
    login.password = passwordFor(login.user);
    const mailbox = await create(
      org,
      'mailboxes',
      'mailbox',
      {
        email: 'rep@sales.example.test',
        smtpHost: 'smtp.example.test',
        smtpPort: smtp.port,
        smtpSsl: false,
        imapHost: imap.host,
        imapPort: imap.port,
        imapSsl: false,
        username: login.user,
        password: login.password,
      },
      { user: { type: 'user', id: owner } },
    );
    const { template, sequence, step, use } = await sequenceWithEmailStep(org);
    // Ada opens twice and clicks, Bea clicks (which counts as her open) and unsubscribes, Cy's
    // server bounces the mail, and Dee has no first name for the subject: her mailing fails.
    const emails = { ada: 'ada@customer.example.test', bea: 'bea@customer.example.test', cy: 'cy@customer.example.test', dee: 'dee@customer.example.test' };
    const prospects = {
      ada: await create(org, 'prospects', 'prospect', { firstName: 'Ada', emails: [emails.ada] }),
      bea: await create(org, 'prospects', 'prospect', { firstName: 'Bea', emails: [emails.bea] }),
      cy: await create(org, 'prospects', 'prospect', { firstName: 'Cy', emails: [emails.cy] }),
      dee: await create(org, 'prospects', 'prospect', { emails: [emails.dee] }),
    };
    smtp.answer = (m) => (m.to.includes(emails.cy) ? { code: 550, message: 'No such user' } : 'accept');

    for (const prospect of Object.values(prospects)) expect((await enrol(org, prospect, { sequence, mailbox })).status).toBe(201);
    const enrolledAt = clock.now().toISOString();
    expect((await attributesOf(org, `sequences/${sequence}`)).lastUsedAt).toBe(enrolledAt);
    // Locked, it refuses edits; what it sends is counted all the same.
    expect((await org.request('POST', `/api/v2/sequences/${sequence}/actions/lock`)).status).toBe(200);

    await advance(api, clock, 0);
    await stepsSettled(api);
    const mailedAt = clock.now().toISOString();
    // The sends may already be under way: only what the step runner did is asked here.
    expect(await attributesOf(org, `sequenceSteps/${step}`)).toMatchObject({ scheduleCount: 4 });
    expect(await attributesOf(org, `templates/${template}`)).toMatchObject({ scheduleCount: 4, lastUsedAt: mailedAt });

    await releaseDueSends(api, clock);
    await sendsSettled(api);
    expect(await attributesOf(org, `sequences/${sequence}`)).toMatchObject({
      ...ZERO,
      scheduleCount: 4,
      deliverCount: 2,
      bounceCount: 1,
      failureCount: 1,
      numContactedProspects: 2,
    });

    const ada = linksOf(emails.ada);
    const bea = linksOf(emails.bea);
    for (const url of [ada.pixel, ada.pixel, ada.click, bea.click]) expect([200, 302]).toContain((await fetch(url, { redirect: 'manual' })).status);
    await hitsFolded(api, org.orgId);
    const unsubscribed = await fetch(bea.unsubscribe, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unsubscribed.status).toBe(200);

    const [adaMailing] = (await org.request('GET', `/api/v2/mailings?filter[prospect][id]=${prospects.ada}`)).body.data;
    await imap.deliver(
      login.user,
      login.password,
      [
        'From: Ada <ada@customer.example.test>',
        'To: rep@sales.example.test',
        `Date: ${clock.now().toUTCString()}`,
        'Subject: Re: Hello Ada',
        'Message-ID: <reply-counts@customer.example.test>',
        `In-Reply-To: ${adaMailing.attributes.messageId}`,
        '',
        'Yes, let us talk.',
        '',
      ].join('\r\n'),
    );
    const key = `${SYNC_MAILBOX_TASK}:${org.orgId}:${mailbox}`;
    await api.sql`select graphile_worker.add_job(${SYNC_MAILBOX_TASK}, json_build_object('orgId', ${org.orgId}::int, 'mailboxId', ${mailbox}::int), queue_name := ${key}, job_key := ${key})`;
    await until('the reply to be synced', async () => ((await attributesOf(org, `mailings/${adaMailing.id}`)).state === 'replied' ? true : undefined));

    const counts = { scheduleCount: 4, deliverCount: 2, openCount: 2, clickCount: 2, replyCount: 1, bounceCount: 1, failureCount: 1, optOutCount: 1 };
    expect(await attributesOf(org, `sequences/${sequence}`)).toMatchObject({
      ...counts,
      numContactedProspects: 2,
      numRepliedProspects: 1,
      sequenceStepCount: 2,
      lastUsedAt: enrolledAt,
    });
    expect(await attributesOf(org, `sequenceSteps/${step}`)).toMatchObject(counts);
    expect(await attributesOf(org, `sequenceTemplates/${use}`)).toMatchObject(counts);
    expect(await attributesOf(org, `templates/${template}`)).toMatchObject({ ...counts, lastUsedAt: mailedAt });
    // Counts change the sequence as any write does: sequence.updated is recorded (as for prospects' counts).
    expect((await eventsOf(org, 'sequence', ['sequence_updated'])).length).toBeGreaterThan(0);
  });

  it('count a prospect contacted once: a second call to one already called adds nobody', async () => {
    const org = await freshOrg(api, 'Counts of contacts');
    const { sequence } = await sequenceWithEmailStep(org);
    const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Eve' });
    const other = await create(org, 'prospects', 'prospect', { firstName: 'Flo' });
    const inSequence = (id: number) => ({ prospect: { type: 'prospect', id }, sequence: { type: 'sequence', id: sequence } });
    await create(org, 'calls', 'call', { direction: 'outbound' }, inSequence(prospect));
    expect((await attributesOf(org, `sequences/${sequence}`)).numContactedProspects).toBe(1);
    await create(org, 'calls', 'call', { direction: 'outbound' }, inSequence(prospect));
    expect((await attributesOf(org, `sequences/${sequence}`)).numContactedProspects).toBe(1);
    await create(org, 'calls', 'call', { direction: 'outbound' }, inSequence(other));
    expect((await attributesOf(org, `sequences/${sequence}`)).numContactedProspects).toBe(2);
  });
});
