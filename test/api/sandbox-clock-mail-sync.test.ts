import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESUME_OOTO_TASK, SYNC_MAILBOX_TASK } from '../../runtime/mail/sync/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, freshOrg, newUserId } from '../helpers/bulk-actions.js';
import { loopbackImapConnect, passwordFor, startImapServer, type ImapServer } from '../helpers/imap.js';
import { enrol, listOf, sequenceWith, stateOf } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * The sandbox's test clock (issue #28 item 6) and out-of-office resumes: a real IMAP server
 * (dovecot on 127.0.0.1) answers a sequence's e-mail out of office, a real worker in sandbox mode
 * syncs it and pauses the state, and one advance of the org's clock past the ruleset's resume
 * time resumes it at once.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
let api: TestApi;
let worker: StartedWorker;
let imap: ImapServer;

beforeAll(async () => {
  imap = await startImapServer();
  api = await startTestApi({ sandbox: true, imapConnect: loopbackImapConnect });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    sandbox: true,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    imapConnect: loopbackImapConnect,
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await imap?.close();
});

async function resumeJobRunAt(orgId: number, stateId: number): Promise<Date | undefined> {
  const [row] = await api.sql<{ run_at: Date }[]>`select run_at from graphile_worker._private_jobs where key = ${`${RESUME_OOTO_TASK}:${orgId}:${stateId}`}`;
  return row?.run_at;
}

describe('an out-of-office pause', () => {
  it('resumes at once when the clock passes its resume time, and the next step is due from the moved time', async () => {
    const org = await freshOrg(api, 'Out of office');
    const owner = await newUserId(api, org);
    const ruleset = await create(org, 'rulesets', 'ruleset', { name: 'Resume in 2 days', autoResumeOotoProspects: true, autoResumeOotoProspectsIn: 2 });
    const fixture = await sequenceWith(
      org,
      owner,
      'interval',
      [
        { stepType: 'auto_email', interval: 0 },
        { stepType: 'call', interval: 24 * 60 },
      ],
      ruleset,
    );
    const user = `rep${Date.now()}${Math.round(Math.random() * 1e6)}@example.test`;
    const password = passwordFor(user);
    const patched = await org.request('PATCH', `/api/v2/mailboxes/${fixture.mailbox}`, {
      body: { data: { type: 'mailbox', id: fixture.mailbox, attributes: { imapHost: imap.host, imapPort: imap.port, imapSsl: false, username: user, password } } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`] });
    const enrolled = await enrol(org, prospect, fixture);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    const stateId = Number(enrolled.body.data.id);
    const [mailing] = await until('the e-mail step to make its mailing', async () => {
      const found = await listOf(org, `mailings?filter[sequenceState][id]=${stateId}`);
      return found.length ? found : undefined;
    });
    // Sending is not the subject here: the mailing is taken as delivered with a known Message-ID.
    const messageId = `<cadence.${mailing.id}.${Math.random().toString(36).slice(2)}@example.test>`;
    await api.sql`update mailings set message_id = ${messageId}, state = 'delivered' where org_id = ${org.orgId} and id = ${mailing.id}`;

    const answer = [
      'From: Pat <pat@example.test>',
      'To: rep@example.test',
      `Date: ${new Date().toUTCString()}`,
      'Subject: Out of Office: Hello',
      'Message-ID: <ooo-clock@example.test>',
      `In-Reply-To: ${messageId}`,
      'Auto-Submitted: auto-replied',
    ].join('\r\n');
    await imap.deliver(user, password, `${answer}\r\n\r\nAway until Monday.\r\n`);
    const key = `${SYNC_MAILBOX_TASK}:${org.orgId}:${fixture.mailbox}`;
    await api.sql`select graphile_worker.add_job(${SYNC_MAILBOX_TASK}, json_build_object('orgId', ${org.orgId}::int, 'mailboxId', ${fixture.mailbox}::int), queue_name := ${key}, job_key := ${key})`;
    await until('the state to be paused out of office', async () => {
      const state = await stateOf(org, stateId);
      return state.state === 'paused' && state.attributes.pauseReason === 'ooto' ? true : undefined;
    });
    // The resume waits two real days.
    expect((await resumeJobRunAt(org.orgId, stateId))!.getTime()).toBeGreaterThan(Date.now() + 2 * DAY_MS - 60_000);

    const advanced = await org.request('POST', `/api/v2/sandbox/clock/actions/advance?actionParams[seconds]=${2 * 24 * 60 * 60}`);
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    const resumed = await until('the state to resume', async () => {
      const state = await stateOf(org, stateId);
      return state.state === 'active' ? state : undefined;
    });
    expect(resumed.attributes.pauseReason).toBeNull();
    expect(Math.abs(new Date(resumed.attributes.stateChangedAt).getTime() - (Date.now() + 2 * DAY_MS))).toBeLessThan(60_000);
  });
});
