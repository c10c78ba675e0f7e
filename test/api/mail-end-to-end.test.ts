import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTrackingSecret } from '../../runtime/db/settings.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { SYNC_MAILBOX_TASK } from '../../runtime/mail/sync/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, eventsOf, freshOrg, newUserId } from '../helpers/bulk-actions.js';
import { loopbackImapConnect, passwordFor, startImapServer, type ImapServer } from '../helpers/imap.js';
import { advance, enrol, MINUTE, SimulatedClock, stateOf, stepsSettled } from '../helpers/sequences.js';
import { hitsFolded } from '../helpers/tracking.js';
import { decodeQuotedPrintable, loopbackTransports, releaseDueSends, sendsSettled, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

/**
 * Issue #16 end to end, in simulated time: a prospect enrolled in a sequence gets its first
 * step's e-mail through a real SMTP server on 127.0.0.1, rendered, tracked and with its
 * List-Unsubscribe header; opening it (the pixel) and clicking its link are recorded; the
 * prospect's reply, found by syncing the mailbox from a real IMAP server (dovecot), marks the
 * mailing replied and finishes the sequence. Every worker-side setting is the production
 * default except the transports, which send to loopback whatever host a mailbox names.
 */

let api: TestApi;
let worker: StartedWorker;
let smtp: TestSmtpServer;
let imap: ImapServer;
const clock = new SimulatedClock();
/** Everything the API and the worker log, at debug level: no secret may be in it. */
const logLines: string[] = [];
const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(String(chunk))) }));

beforeAll(async () => {
  imap = await startImapServer();
  smtp = await startSmtpServer({ username: 'rep', password: 'smtp-secret-e2e' });
  api = await startTestApi({ clock: clock.now, log, imapConnect: loopbackImapConnect, mailTransports: (sql) => loopbackTransports(sql, clock.now) });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    clock: clock.now,
    log,
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    imapConnect: loopbackImapConnect,
    // Tracking's transform and headers are the worker's own default; links point at this API.
    mail: { transports: loopbackTransports(api.sql, clock.now), publicBaseUrl: api.baseUrl },
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await smtp?.close();
  await imap?.close();
});

describe('a sequence e-mail', () => {
  it('is sent over SMTP with tracking, its open and click are recorded, and the reply synced over IMAP finishes the sequence', async () => {
    const org = await freshOrg(api, 'End to end');
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
        smtpUsername: 'rep',
        smtpPassword: 'smtp-secret-e2e',
        smtpSsl: false,
        imapHost: imap.host,
        imapPort: imap.port,
        imapSsl: false,
        username: login.user,
        password: login.password,
      },
      { user: { type: 'user', id: owner } },
    );
    const template = await create(org, 'templates', 'template', {
      name: 'Intro',
      subject: 'Hello {{first_name}}',
      bodyHtml: '<p>Hi {{first_name}}, see <a href="https://example.test/pricing?plan=pro&amp;x=1">our pricing</a>.</p>',
      trackOpens: true,
      trackLinks: true,
    });
    const sequence = await create(org, 'sequences', 'sequence', { name: 'Outreach', sequenceType: 'interval' });
    const first = await create(org, 'sequenceSteps', 'sequenceStep', { stepType: 'auto_email', interval: 0, order: 1 }, { sequence: { type: 'sequence', id: sequence } });
    await create(org, 'sequenceSteps', 'sequenceStep', { stepType: 'call', interval: 24 * 60, order: 2 }, { sequence: { type: 'sequence', id: sequence } });
    await create(org, 'sequenceTemplates', 'sequenceTemplate', {}, { sequenceStep: { type: 'sequenceStep', id: first }, template: { type: 'template', id: template } });
    const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Ada <3', emails: ['ada@customer.example.test'] });

    const enrolled = await enrol(org, prospect, { sequence, mailbox });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    const stateId = Number(enrolled.body.data.id);
    await advance(api, clock, 0);
    await stepsSettled(api);
    await releaseDueSends(api, clock);
    const received = await until('the message at the SMTP server', () => smtp.received.find((m) => m.to.includes('ada@customer.example.test')));
    await sendsSettled(api);

    // What the server received: the rendered, escaped e-mail with its tracking and headers.
    const raw = decodeQuotedPrintable(received.raw);
    const [mailing] = (await org.request('GET', `/api/v2/mailings?filter[sequenceState][id]=${stateId}`)).body.data;
    expect(mailing.attributes).toMatchObject({ state: 'delivered', deliveredAt: clock.now().toISOString() });
    expect(raw).toContain(`Message-ID: ${mailing.attributes.messageId}`);
    expect(raw).toMatch(/^Subject: Hello Ada <3$/m);
    expect(raw).toContain('Hi Ada &lt;3, see');
    expect(raw).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/t\/u\/[\w-]+>$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(raw).not.toContain('smtp-secret-e2e');
    // The HTML part links only through tracking (the plain-text part keeps the address readable).
    expect(raw).not.toContain('href="https://example.test/pricing');
    const click = raw.match(/href="(http:\/\/127\.0\.0\.1:\d+\/t\/c\/[\w-]+)"/)?.[1];
    const pixel = raw.match(/src="(http:\/\/127\.0\.0\.1:\d+\/t\/o\/[\w-]+\.gif)"/)?.[1];
    expect(click && pixel).toBeTruthy();

    // The recipient opens it and follows the link.
    const opened = await fetch(pixel!);
    expect(opened.headers.get('content-type')).toBe('image/gif');
    expect((await opened.arrayBuffer()).byteLength).toBe(43);
    const followed = await fetch(click!, { redirect: 'manual' });
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe('https://example.test/pricing?plan=pro&x=1');
    // Counted by the worker's fold, about a second after the hits.
    await hitsFolded(api, org.orgId);
    expect(await attributesOf(org, `mailings/${mailing.id}`)).toMatchObject({ state: 'opened', openCount: 1, clickCount: 1 });
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ openCount: 1, clickCount: 1, replyCount: 0 });

    // The reply arrives in the mailbox; the next sync finds it.
    await imap.deliver(
      login.user,
      login.password,
      [
        'From: Ada <ada@customer.example.test>',
        'To: rep@sales.example.test',
        `Date: ${clock.now().toUTCString()}`,
        'Subject: Re: Hello Ada',
        'Message-ID: <reply-e2e@customer.example.test>',
        `In-Reply-To: ${mailing.attributes.messageId}`,
        `References: ${mailing.attributes.messageId}`,
        '',
        'Yes, let us talk.',
        '',
      ].join('\r\n'),
    );
    await advance(api, clock, MINUTE);
    const key = `${SYNC_MAILBOX_TASK}:${org.orgId}:${mailbox}`;
    await api.sql`select graphile_worker.add_job(${SYNC_MAILBOX_TASK}, json_build_object('orgId', ${org.orgId}::int, 'mailboxId', ${mailbox}::int), queue_name := ${key}, job_key := ${key})`;
    const finished = await until('the reply to finish the sequence state', async () => {
      const state = await stateOf(org, stateId);
      return state.state === 'finished' ? state : undefined;
    });
    expect(finished.attributes.repliedAt).toBe(clock.now().toISOString());
    expect(await attributesOf(org, `mailings/${mailing.id}`)).toMatchObject({ state: 'replied', repliedAt: clock.now().toISOString() });
    expect((await attributesOf(org, `prospects/${prospect}`)).replyCount).toBe(1);
    const events = await eventsOf(org, 'mailing', ['mailing_delivered', 'mailing_opened', 'mailing_replied']);
    expect(events.map(([name]) => name)).toEqual(['mailing_delivered', 'mailing_opened', 'mailing_replied']);

    // No secret anywhere: not the SMTP or IMAP password, not the signing key, not a token.
    const secret = await loadTrackingSecret(api.sql);
    const token = pixel!.slice(pixel!.lastIndexOf('/') + 1, -'.gif'.length);
    expect(logLines.length).toBeGreaterThan(0);
    for (const text of [raw, logLines.join('\n')]) {
      for (const hidden of ['smtp-secret-e2e', login.password, secret]) expect(text).not.toContain(hidden);
    }
    expect(logLines.join('\n')).not.toContain(token);
  });
});
