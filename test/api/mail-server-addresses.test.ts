import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { mailServerRule } from '../../runtime/mail/index.js';
import { SYNC_MAILBOX_TASK } from '../../runtime/mail/sync/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, freshOrg, type OrgClient } from '../helpers/bulk-actions.js';
import { startBannerServer, tableResolver, type BannerServer } from '../helpers/mail-servers.js';
import { SimulatedClock } from '../helpers/sequences.js';
import { releaseDueSends, startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

/**
 * Issue #25: a mailbox's mail servers are hosts its tenant names, so they follow the address
 * rule webhooks follow. The API and a real worker run with the default transports and imapflow,
 * under a rule whose resolver answers from a table (no outside host is ever looked up):
 * mail.allowed.test is on MAIL_ALLOWED_HOSTS, mail.internal.test resolves to 127.0.0.1 and is
 * not. Real servers listen on 127.0.0.1 (SMTP, and a service that is no mail server), counting
 * connections: a refused host is never connected to, and what answers is never shown.
 */

const BANNER = 'SSH-2.0-OpenSSH_9.6 secret-banner-7f3a\r\n';
const SMTP_BANNER = 'secret-smtp-greeting-41c2';
const ALLOWED = 'mail.allowed.test';
const INTERNAL = 'mail.internal.test';
const RULE_TEXT = 'mail servers must be public hosts, or be named in MAIL_ALLOWED_HOSTS';

let api: TestApi;
let worker: StartedWorker;
let smtp: TestSmtpServer;
let banner: BannerServer;
const clock = new SimulatedClock(Date.parse('2099-03-10T09:00:00.000Z'));
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer({ banner: SMTP_BANNER });
  banner = await startBannerServer(BANNER);
  const servers = mailServerRule(ALLOWED, tableResolver({ [ALLOWED]: ['127.0.0.1'], [INTERNAL]: ['127.0.0.1'], 'mixed.example.test': ['93.184.215.14', '10.0.0.1'] }));
  const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _encoding, done) => done(void logLines.push(String(chunk))) }));
  api = await startTestApi({ clock: clock.now, log, mailServers: servers });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    clock: clock.now,
    log,
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    mail: { servers, publicBaseUrl: 'https://cadence.test' },
  });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await smtp?.close();
  await banner?.close();
});

async function mailbox(org: OrgClient, attributes: Record<string, unknown>): Promise<number> {
  const user = await create(org, 'users', 'user', { email: `rep${Math.random()}@cadence.test` });
  return create(org, 'mailboxes', 'mailbox', { email: 'rep@sales.example.test', ...attributes }, { user: { type: 'user', id: user } });
}

async function patchMailbox(org: OrgClient, id: number, attributes: Record<string, unknown>): Promise<void> {
  const response = await org.request('PATCH', `/api/v2/mailboxes/${id}`, { body: { data: { type: 'mailbox', id, attributes } } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Literal spellings of this machine and private networks, with the address each one is. */
const LITERALS: ReadonlyArray<[host: string, address: string]> = [
  ['127.0.0.1', '127.0.0.1'],
  ['0x7f000001', '127.0.0.1'],
  ['2130706433', '127.0.0.1'],
  ['127.1', '127.0.0.1'],
  ['::1', '::1'],
  ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
  ['0.0.0.0', '0.0.0.0'],
  ['169.254.169.254', '169.254.169.254'],
  ['10.0.0.1', '10.0.0.1'],
  ['localhost', '127.0.0.1, ::1'],
];

/** Names the resolver answers with a private address, among others or alone. */
const PRIVATE_NAMES = [INTERNAL, 'mixed.example.test'];

function refusal(field: 'smtpHost' | 'imapHost', host: string, address?: string) {
  const what = address === undefined ? 'resolves to a private address' : `is a private address (${address})`;
  return {
    id: 'mailServerRefused',
    status: '422',
    title: 'Unprocessable Entity',
    detail: `${field} ${host} ${what}; ${RULE_TEXT}`,
    source: { pointer: `/data/attributes/${field}` },
  };
}

describe('testSend', () => {
  it('refuses every private spelling of smtpHost without connecting, and says so plainly', async () => {
    const org = await freshOrg(api, 'Test send refused');
    const id = await mailbox(org, { smtpHost: ALLOWED, smtpPort: smtp.port, smtpSsl: false });
    const cases: Array<[string, string | undefined]> = [...LITERALS, ...PRIVATE_NAMES.map((name): [string, undefined] => [name, undefined])];
    for (const [host, address] of cases) {
      await patchMailbox(org, id, { smtpHost: host });
      const response = await org.request('POST', `/api/v2/mailboxes/${id}/actions/testSend`);
      expect(response.status, host).toBe(422);
      expect(response.body.errors, host).toEqual([refusal('smtpHost', host, address)]);
    }
    expect(smtp.connections).toBe(0);
  });

  it('sends through an allowed host as before, connecting to the address it was checked at', async () => {
    const org = await freshOrg(api, 'Test send allowed');
    const id = await mailbox(org, { smtpHost: ALLOWED, smtpPort: smtp.port, smtpSsl: false });
    const before = smtp.received.length;
    const response = await org.request('POST', `/api/v2/mailboxes/${id}/actions/testSend`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.meta).toEqual({ smtpResponse: expect.stringContaining('OK: queued as test') });
    expect(smtp.received.length).toBe(before + 1);
  });

  it('tells an allowed host that is no SMTP server, or a closed port, in its own words: no banner', async () => {
    const org = await freshOrg(api, 'Test send banner');
    const id = await mailbox(org, { smtpHost: ALLOWED, smtpPort: banner.port, smtpSsl: false });
    const notSmtp = await org.request('POST', `/api/v2/mailboxes/${id}/actions/testSend`);
    expect(notSmtp.status).toBe(422);
    expect(notSmtp.body.errors).toEqual([
      { id: 'testSendFailed', status: '422', title: 'Unprocessable Entity', detail: 'The test message was not sent: The server did not answer as an SMTP server' },
    ]);
    expect(banner.connections).toBeGreaterThan(0);

    await patchMailbox(org, id, { smtpPort: 1 });
    const closed = await org.request('POST', `/api/v2/mailboxes/${id}/actions/testSend`);
    expect(closed.body.errors).toEqual([
      {
        id: 'testSendFailed',
        status: '422',
        title: 'Unprocessable Entity',
        detail: 'The test message was not sent: Could not talk to the SMTP server: connection refused',
      },
    ]);
  });

  it('never shows the greeting of an SMTP server that refuses the login', async () => {
    const org = await freshOrg(api, 'Test send login');
    const id = await mailbox(org, { smtpHost: ALLOWED, smtpPort: smtp.port, smtpSsl: false, smtpUsername: 'nobody', smtpPassword: 'wrong' });
    const response = await org.request('POST', `/api/v2/mailboxes/${id}/actions/testSend`);
    expect(response.body.errors).toEqual([
      { id: 'testSendFailed', status: '422', title: 'Unprocessable Entity', detail: "The test message was not sent: The SMTP server refused the mailbox's login (535)" },
    ]);
    expect(smtp.logins.at(-1)).toBe('nobody:wrong');
    expect(JSON.stringify(response.body)).not.toContain(SMTP_BANNER);
  });
});

describe('a scheduled mailing', () => {
  it('through a private smtpHost fails with the plain refusal, and its server is never connected to', async () => {
    const org = await freshOrg(api, 'Mailing refused');
    const connectionsBefore = smtp.connections;
    const id = await mailbox(org, { smtpHost: '0x7f000001', smtpPort: smtp.port, smtpSsl: false });
    const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Ada', emails: ['ada@acme.example.test'] });
    const mailing = await create(
      org,
      'mailings',
      'mailing',
      { state: 'scheduled', subject: 'Hello', bodyHtml: '<p>Hello</p>' },
      { mailbox: { type: 'mailbox', id }, prospect: { type: 'prospect', id: prospect } },
    );
    await releaseDueSends(api, clock);
    const failed = await until(`mailing ${mailing} to fail`, async () => {
      const found = await attributesOf(org, `mailings/${mailing}`);
      return found.state === 'failed' ? found : undefined;
    });
    expect(failed.errorReason).toBe(`smtpHost 0x7f000001 is a private address (127.0.0.1); ${RULE_TEXT}`);
    expect(failed.retryAt).toBeNull();
    expect(smtp.connections).toBe(connectionsBefore);
  });
});

describe('testSync', () => {
  it('refuses every private spelling of imapHost without connecting, and says so plainly', async () => {
    const org = await freshOrg(api, 'Test sync refused');
    const id = await mailbox(org, { imapHost: ALLOWED, imapPort: banner.port, imapSsl: false, username: 'rep', password: 'secret' });
    const before = banner.connections;
    const cases: Array<[string, string | undefined]> = [...LITERALS, ...PRIVATE_NAMES.map((name): [string, undefined] => [name, undefined])];
    for (const [host, address] of cases) {
      await patchMailbox(org, id, { imapHost: host });
      const response = await org.request('POST', `/api/v2/mailboxes/${id}/actions/testSync`);
      expect(response.status, host).toBe(422);
      expect(response.body.errors, host).toEqual([refusal('imapHost', host, address)]);
    }
    expect(banner.connections).toBe(before);
  });

  it('tells an allowed host that is no IMAP server in its own words: no banner', async () => {
    const org = await freshOrg(api, 'Test sync banner');
    const id = await mailbox(org, { imapHost: ALLOWED, imapPort: banner.port, imapSsl: false, username: 'rep', password: 'secret' });
    const before = banner.connections;
    const response = await org.request('POST', `/api/v2/mailboxes/${id}/actions/testSync`);
    expect(response.body.errors).toEqual([
      {
        id: 'imapConnectionFailed',
        status: '422',
        title: 'Unprocessable Entity',
        detail: `Could not connect to the IMAP server at ${ALLOWED}:${banner.port}: connection closed by the server`,
      },
    ]);
    expect(JSON.stringify(response.body)).not.toContain('secret-banner');
    expect(banner.connections).toBe(before + 1);
  });
});

describe('the sync task', () => {
  it('does not connect to a private imapHost: the mailbox records the error and the log says why', async () => {
    const org = await freshOrg(api, 'Sync refused');
    const id = await mailbox(org, { imapHost: INTERNAL, imapPort: banner.port, imapSsl: false, username: 'rep', password: 'secret' });
    const before = banner.connections;
    const key = `${SYNC_MAILBOX_TASK}:${org.orgId}:${id}`;
    await api.sql`select graphile_worker.add_job(${SYNC_MAILBOX_TASK}, json_build_object('orgId', ${org.orgId}::int, 'mailboxId', ${id}::int), queue_name := ${key}, job_key := ${key})`;
    const errored = await until('the sync to fail', async () => {
      const found = await attributesOf(org, `mailboxes/${id}`);
      return found.syncErroredAt ? found : undefined;
    });
    expect(errored).toMatchObject({ syncErroredAt: clock.now().toISOString(), syncSuccessAt: null });
    expect(banner.connections).toBe(before);
    const line = logLines.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.msg === 'mailbox sync failed' && entry.mailboxId === id);
    expect(line).toMatchObject({ kind: 'refused', answer: `imapHost ${INTERNAL} resolves to a private address; ${RULE_TEXT}` });
  });
});
