import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { DEFAULT_SYNC_FREQUENCY_SECONDS, FINISH_PAUSED_REPLY_TASK, RESUME_OOTO_TASK, SYNC_MAILBOX_TASK, SYNC_MAILBOXES_TASK } from '../../runtime/mail/sync/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, eventsOf, freshOrg, newUserId, type OrgClient } from '../helpers/bulk-actions.js';
import { loopbackImapConnect, passwordFor, startImapServer, type ImapServer } from '../helpers/imap.js';
import { advance, enrol, listOf, MINUTE, pendingSteps, SimulatedClock, sequenceWith, stateOf } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * Replies by mailbox sync (issue #16) against a real IMAP server (dovecot on 127.0.0.1), with
 * the API and a real worker on one simulated clock. Mailings get their messageId directly:
 * sending is another part of the issue.
 */

const DAY = 24 * 60 * MINUTE;
let api: TestApi;
let worker: StartedWorker;
let imap: ImapServer;
const clock = new SimulatedClock();
const logLines: string[] = [];

function capturingLog() {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  return pino({ level: 'debug' }, sink);
}

beforeAll(async () => {
  imap = await startImapServer();
  const log = capturingLog();
  api = await startTestApi({ clock: clock.now, imapConnect: loopbackImapConnect, log });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    clock: clock.now,
    log,
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    imapConnect: loopbackImapConnect,
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await imap?.close();
});

interface Fixture {
  org: OrgClient;
  sequence: number;
  mailbox: number;
  mailing: number;
  messageId: string;
  state: number;
  prospect: number;
  login: { user: string; password: string };
}

/**
 * An org whose prospect is enrolled in a sequence (an e-mail, then a call a day later) through
 * a mailbox syncing from the IMAP server, with the e-mail's mailing delivered as `messageId`.
 */
async function fixture(rulesetAttributes?: Record<string, unknown>, sequenceAttributes?: Record<string, unknown>): Promise<Fixture> {
  const org = await freshOrg(api, 'Mail sync');
  const owner = await newUserId(api, org);
  const ruleset = rulesetAttributes ? await create(org, 'rulesets', 'ruleset', { name: `Rules ${Math.random()}`, ...rulesetAttributes }) : undefined;
  const sequence = await sequenceWith(
    org,
    owner,
    'interval',
    [
      { stepType: 'auto_email', interval: 0 },
      { stepType: 'call', interval: DAY / MINUTE },
    ],
    ruleset,
  );
  if (sequenceAttributes) {
    const body = { data: { type: 'sequence', id: sequence.sequence, attributes: sequenceAttributes } };
    const patched = await org.request('PATCH', `/api/v2/sequences/${sequence.sequence}`, { body });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  }
  const user = `rep${Date.now()}${Math.round(Math.random() * 1e6)}@example.test`;
  const login = { user, password: passwordFor(user) };
  const patched = await org.request('PATCH', `/api/v2/mailboxes/${sequence.mailbox}`, {
    body: {
      data: {
        type: 'mailbox',
        id: sequence.mailbox,
        attributes: { imapHost: imap.host, imapPort: imap.port, imapSsl: false, username: login.user, password: login.password },
      },
    },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`] });
  const enrolled = await enrol(org, prospect, sequence);
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
  const state = Number(enrolled.body.data.id);
  await advance(api, clock, 0);
  const [mailing] = await until('the e-mail step to make its mailing', async () => {
    const found = await listOf(org, `mailings?filter[sequenceState][id]=${state}`);
    return found.length ? found : undefined;
  });
  const messageId = `<cadence.${mailing.id}.${Math.random().toString(36).slice(2)}@example.test>`;
  await api.sql`update mailings set message_id = ${messageId}, state = 'delivered' where org_id = ${org.orgId} and id = ${mailing.id}`;
  return { org, sequence: sequence.sequence, mailbox: sequence.mailbox, mailing: Number(mailing.id), messageId, state, prospect, login };
}

function message(headers: Record<string, string>, body = 'Sounds good, let us talk.'): string {
  const lines = Object.entries({ From: 'Pat <pat@example.test>', To: 'rep@example.test', Date: new Date().toUTCString(), Subject: 'Re: Hello', ...headers }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `${lines.join('\r\n')}\r\n\r\n${body}\r\n`;
}

async function deliver(f: Fixture, headers: Record<string, string>): Promise<void> {
  await imap.deliver(f.login.user, f.login.password, message(headers));
}

/** Until no job of `task` is left to run or running. */
async function settled(task: string): Promise<void> {
  await until(`${task} jobs to have run`, async () => {
    // A locked job is running whatever its attempts: graphile-worker sets a running job's attempts
    // to max_attempts when a new job takes over its key, so that it is not retried.
    const [row] = await api.sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier = ${task} and (j.locked_at is not null or (j.run_at <= now() and j.attempts < j.max_attempts))`;
    return row!.n === 0 ? true : undefined;
  });
}

/** The mailbox's sync job, run now, as the crontab's fan-out would enqueue it. */
async function syncNow(f: Fixture): Promise<void> {
  const key = `${SYNC_MAILBOX_TASK}:${f.org.orgId}:${f.mailbox}`;
  await api.sql`select graphile_worker.add_job(${SYNC_MAILBOX_TASK}, json_build_object('orgId', ${f.org.orgId}::int, 'mailboxId', ${f.mailbox}::int), queue_name := ${key}, job_key := ${key})`;
  await settled(SYNC_MAILBOX_TASK);
}

/** Makes the jobs of `task` (the resume jobs unless said) due by the simulated clock runnable now, and waits for them. */
async function releaseResumes(task = RESUME_OOTO_TASK): Promise<void> {
  await api.sql`
    update graphile_worker._private_jobs j set run_at = now() from graphile_worker._private_tasks t
     where t.id = j.task_id and t.identifier = ${task} and j.run_at <= ${clock.now().toISOString()}::timestamptz and j.run_at > now()`;
  await settled(task);
}

/** The fixture's resume jobs, run or not (a run job is gone: count before running them). */
async function resumeJobs(f: Fixture): Promise<number> {
  const [row] = await api.sql<{ n: number }[]>`
    select count(*)::int as n from graphile_worker._private_jobs where key = ${`${RESUME_OOTO_TASK}:${f.org.orgId}:${f.state}`}`;
  return row!.n;
}

describe('replies', () => {
  it('a reply by In-Reply-To marks the mailing replied, counts once on the prospect and finishes the sequence state', async () => {
    const f = await fixture();
    await deliver(f, { 'Message-ID': '<reply-1@example.test>', 'In-Reply-To': f.messageId, References: f.messageId });
    await syncNow(f);

    const mailing = await attributesOf(f.org, `mailings/${f.mailing}`);
    expect(mailing).toMatchObject({ state: 'replied', repliedAt: clock.now().toISOString(), messageId: f.messageId });
    expect((await attributesOf(f.org, `prospects/${f.prospect}`)).replyCount).toBe(1);
    const state = await stateOf(f.org, f.state);
    expect(state.state).toBe('finished');
    expect(state.attributes.repliedAt).toBe(clock.now().toISOString());
    expect((await pendingSteps(api)).get(f.state)).toBeUndefined();
    expect(await eventsOf(f.org, 'mailing', ['mailing_replied'])).toEqual([['mailing_replied', f.mailing]]);
    expect(await eventsOf(f.org, 'sequenceState', ['sequenceState_finished'])).toEqual([['sequenceState_finished', f.state]]);
    const mailbox = await attributesOf(f.org, `mailboxes/${f.mailbox}`);
    expect(mailbox).toMatchObject({ syncSuccessAt: clock.now().toISOString(), syncFinishedAt: clock.now().toISOString(), syncErroredAt: null });

    // Synced again (nothing new), read again from the start, and delivered again: still one reply.
    await syncNow(f);
    await api.sql`delete from mailbox_sync_states where org_id = ${f.org.orgId}`;
    await syncNow(f);
    await deliver(f, { 'Message-ID': '<reply-1@example.test>', 'In-Reply-To': f.messageId });
    await syncNow(f);
    expect((await attributesOf(f.org, `prospects/${f.prospect}`)).replyCount).toBe(1);
    expect(await eventsOf(f.org, 'mailing', ['mailing_replied'])).toEqual([['mailing_replied', f.mailing]]);
  });

  it('a reply found by References alone counts the same', async () => {
    const f = await fixture();
    await deliver(f, { 'Message-ID': '<reply-2@example.test>', 'In-Reply-To': '<someone-else@example.test>', References: `<older@example.test> ${f.messageId}` });
    await syncNow(f);

    expect(await attributesOf(f.org, `mailings/${f.mailing}`)).toMatchObject({ state: 'replied', repliedAt: clock.now().toISOString() });
    expect((await attributesOf(f.org, `prospects/${f.prospect}`)).replyCount).toBe(1);
    expect((await stateOf(f.org, f.state)).state).toBe('finished');
  });

  it('an unrelated message changes nothing but the sync times', async () => {
    const f = await fixture();
    await deliver(f, { 'Message-ID': '<news@example.test>', 'In-Reply-To': '<not-ours@example.test>', References: '<not-ours@example.test>' });
    await deliver(f, { 'Message-ID': '<hello@example.test>', Subject: 'Hello there' });
    await syncNow(f);

    expect(await attributesOf(f.org, `mailings/${f.mailing}`)).toMatchObject({ state: 'delivered', repliedAt: null });
    expect((await attributesOf(f.org, `prospects/${f.prospect}`)).replyCount).toBe(0);
    expect((await stateOf(f.org, f.state)).state).toBe('active');
    expect(await eventsOf(f.org, 'mailing', ['mailing_replied'])).toEqual([]);
    expect((await attributesOf(f.org, `mailboxes/${f.mailbox}`)).syncSuccessAt).toBe(clock.now().toISOString());
  });

  it("the crontab's fan-out syncs the mailboxes due, and not those with syncDisabled", async () => {
    const f = await fixture();
    const g = await fixture();
    expect(
      (await g.org.request('PATCH', `/api/v2/mailboxes/${g.mailbox}`, { body: { data: { type: 'mailbox', id: g.mailbox, attributes: { syncDisabled: true } } } })).status,
    ).toBe(200);
    // The worker's own crontab fans out too, every real minute. One that ran before the reply
    // arrived left f's mailbox synced "now" and so not yet due: the clock moves past its
    // frequency. And one may have synced g before its PATCH: g's stamp is compared, not assumed null.
    const gFinishedAt = (await attributesOf(g.org, `mailboxes/${g.mailbox}`)).syncFinishedAt;
    await deliver(f, { 'Message-ID': '<reply-3@example.test>', 'In-Reply-To': f.messageId });
    await deliver(g, { 'Message-ID': '<reply-4@example.test>', 'In-Reply-To': g.messageId });
    clock.set(new Date(clock.now().getTime() + (DEFAULT_SYNC_FREQUENCY_SECONDS + 1) * 1000));
    await api.sql`select graphile_worker.add_job(${SYNC_MAILBOXES_TASK})`;
    await settled(SYNC_MAILBOXES_TASK);
    await settled(SYNC_MAILBOX_TASK);

    expect((await attributesOf(f.org, `mailings/${f.mailing}`)).state).toBe('replied');
    expect((await attributesOf(g.org, `mailings/${g.mailing}`)).state).toBe('delivered');
    expect((await attributesOf(g.org, `mailboxes/${g.mailbox}`)).syncFinishedAt).toBe(gFinishedAt);
  });
});

describe("replies as the sequence's settings say", () => {
  const reply = (f: Fixture, id: string) => deliver(f, { 'Message-ID': `<${id}-${f.state}@example.test>`, 'In-Reply-To': f.messageId });

  it.each([
    ['primaryReplyAction continue', { primaryReplyAction: 'continue' }],
    ['finishOnReply false', { finishOnReply: false }],
    ['primaryReplyAction continue over finishOnReply true', { primaryReplyAction: 'continue', finishOnReply: true }],
  ])('%s: the state runs on, marked replied, its next step still due', async (_name, settings) => {
    const f = await fixture(undefined, settings);
    const due = (await pendingSteps(api)).get(f.state);
    expect(due).toHaveLength(1);
    await reply(f, 'continue');
    await syncNow(f);

    const state = await stateOf(f.org, f.state);
    expect([state.state, state.attributes.repliedAt, state.attributes.replyCount]).toEqual(['active', clock.now().toISOString(), 1]);
    expect((await pendingSteps(api)).get(f.state)).toEqual(due);
    expect(await attributesOf(f.org, `mailings/${f.mailing}`)).toMatchObject({ state: 'replied', repliedAt: clock.now().toISOString() });
    expect((await attributesOf(f.org, `prospects/${f.prospect}`)).replyCount).toBe(1);
    expect(await eventsOf(f.org, 'mailing', ['mailing_replied'])).toEqual([['mailing_replied', f.mailing]]);
    expect(await eventsOf(f.org, 'sequenceState', ['sequenceState_finished'])).toEqual([]);
    expect(await eventsOf(f.org, 'sequenceState', ['sequenceState_updated'])).toContainEqual(['sequenceState_updated', f.state]);
  });

  it('finishOnReply true, and primaryReplyAction finish over finishOnReply false, finish the state', async () => {
    for (const settings of [{ finishOnReply: true }, { primaryReplyAction: 'finish', finishOnReply: false }]) {
      const f = await fixture(undefined, settings);
      await reply(f, 'finish');
      await syncNow(f);
      const state = await stateOf(f.org, f.state);
      expect([state.state, state.attributes.repliedAt]).toEqual(['finished', clock.now().toISOString()]);
      expect(await eventsOf(f.org, 'sequenceState', ['sequenceState_finished'])).toEqual([['sequenceState_finished', f.state]]);
    }
  });

  it('pause: paused with reason reply and no step due, then finished once primaryReplyPauseDuration has passed, in simulated time', async () => {
    const f = await fixture(undefined, { primaryReplyAction: 'pause', primaryReplyPauseDuration: 2 * 24 * 60 * 60 });
    await reply(f, 'pause');
    await syncNow(f);

    const paused = await stateOf(f.org, f.state);
    expect([paused.state, paused.attributes.pauseReason, paused.attributes.repliedAt, paused.attributes.replyCount]).toEqual([
      'paused',
      'reply',
      clock.now().toISOString(),
      1,
    ]);
    expect((await pendingSteps(api)).get(f.state)).toBeUndefined();

    await advance(api, clock, 1.5 * DAY);
    await releaseResumes(FINISH_PAUSED_REPLY_TASK);
    expect((await stateOf(f.org, f.state)).state).toBe('paused');
    await advance(api, clock, 0.5 * DAY);
    await releaseResumes(FINISH_PAUSED_REPLY_TASK);
    expect((await stateOf(f.org, f.state)).state).toBe('finished');
    expect(await eventsOf(f.org, 'sequenceState', ['sequenceState_finished'])).toEqual([['sequenceState_finished', f.state]]);
  });

  it('pause without a duration stays paused; one resumed by hand before its pause is over is not finished', async () => {
    const f = await fixture(undefined, { primaryReplyAction: 'pause' });
    await reply(f, 'pause-forever');
    await syncNow(f);
    await advance(api, clock, 30 * DAY);
    await releaseResumes(FINISH_PAUSED_REPLY_TASK);
    expect((await stateOf(f.org, f.state)).state).toBe('paused');

    const g = await fixture(undefined, { primaryReplyAction: 'pause', primaryReplyPauseDuration: 60 * 60 });
    await reply(g, 'pause-resumed');
    await syncNow(g);
    expect((await stateOf(g.org, g.state)).state).toBe('paused');
    await advance(api, clock, MINUTE);
    expect((await g.org.request('POST', `/api/v2/sequenceStates/${g.state}/actions/resume`)).status).toBe(200);
    await advance(api, clock, 2 * 60 * MINUTE);
    await releaseResumes(FINISH_PAUSED_REPLY_TASK);
    expect((await stateOf(g.org, g.state)).state).toBe('active');
  });

  it('a reply to a state paused out of office pauses it for the reply: the out-of-office resume leaves it paused', async () => {
    const f = await fixture({ autoResumeOotoProspects: true, autoResumeOotoProspectsIn: 1 }, { primaryReplyAction: 'pause' });
    await deliver(f, { 'Message-ID': `<ooo-then-reply-${f.state}@example.test>`, 'In-Reply-To': f.messageId, 'Auto-Submitted': 'auto-replied' });
    await syncNow(f);
    expect((await stateOf(f.org, f.state)).attributes.pauseReason).toBe('ooto');
    await reply(f, 'after-ooo');
    await syncNow(f);
    expect((await stateOf(f.org, f.state)).attributes.pauseReason).toBe('reply');

    await advance(api, clock, 2 * DAY);
    await releaseResumes();
    expect((await stateOf(f.org, f.state)).state).toBe('paused');
  });
});

describe('out of office', () => {
  it('pauses the sequence state and resumes it when the ruleset says, in simulated time', async () => {
    const f = await fixture({ autoResumeOotoProspects: true, autoResumeOotoProspectsIn: 2 });
    await deliver(f, { 'Message-ID': '<ooo-1@example.test>', 'In-Reply-To': f.messageId, 'Auto-Submitted': 'auto-replied', Subject: 'Out of Office: Hello' });
    await syncNow(f);

    const paused = await stateOf(f.org, f.state);
    expect([paused.state, paused.attributes.pauseReason]).toEqual(['paused', 'ooto']);
    expect((await attributesOf(f.org, `mailings/${f.mailing}`)).state).toBe('delivered');
    expect((await attributesOf(f.org, `prospects/${f.prospect}`)).replyCount).toBe(0);
    expect((await pendingSteps(api)).get(f.state)).toBeUndefined();
    expect(await resumeJobs(f)).toBe(1);

    // A day and a half later, still paused; two days after the answer, running again.
    await advance(api, clock, 1.5 * DAY);
    await releaseResumes();
    expect((await stateOf(f.org, f.state)).state).toBe('paused');
    await advance(api, clock, 0.5 * DAY);
    await releaseResumes();
    const resumed = await stateOf(f.org, f.state);
    expect([resumed.state, resumed.attributes.pauseReason]).toEqual(['active', null]);
    expect((await pendingSteps(api)).get(f.state)).toEqual([new Date(clock.now().getTime() + DAY).toISOString()]);
  });

  it('stays paused without autoResumeOotoProspects, and an automatic reply by subject alone is no reply', async () => {
    const f = await fixture({ autoResumeOotoProspects: false });
    await deliver(f, { 'Message-ID': '<ooo-2@example.test>', 'In-Reply-To': f.messageId, Subject: 'Automatic reply: Hello' });
    await syncNow(f);
    expect((await stateOf(f.org, f.state)).state).toBe('paused');
    expect((await attributesOf(f.org, `prospects/${f.prospect}`)).replyCount).toBe(0);
    expect(await resumeJobs(f)).toBe(0);

    await advance(api, clock, 30 * DAY);
    await releaseResumes();
    expect((await stateOf(f.org, f.state)).state).toBe('paused');
  });

  it('an answer seen again does not pause again, and a state changed meanwhile is not resumed', async () => {
    const f = await fixture({ autoResumeOotoProspects: true });
    await deliver(f, { 'Message-ID': '<ooo-3@example.test>', 'In-Reply-To': f.messageId, 'X-Autoreply': 'yes' });
    await syncNow(f);
    expect((await stateOf(f.org, f.state)).state).toBe('paused');

    await advance(api, clock, MINUTE);
    expect((await f.org.request('POST', `/api/v2/sequenceStates/${f.state}/actions/resume`)).status).toBe(200);
    await api.sql`delete from mailbox_sync_states where org_id = ${f.org.orgId}`;
    await syncNow(f);
    expect((await stateOf(f.org, f.state)).state).toBe('active');

    // Paused by hand: when the resume job runs (seven days, the default), the pause is not its own.
    await advance(api, clock, MINUTE);
    expect((await f.org.request('POST', `/api/v2/sequenceStates/${f.state}/actions/pause`)).status).toBe(200);
    await advance(api, clock, 7 * DAY);
    await releaseResumes();
    expect((await stateOf(f.org, f.state)).state).toBe('paused');
  });
});

describe('testSync', () => {
  it('answers 200 with the mailbox when the login works, 422 saying the login was refused when it does not', async () => {
    const f = await fixture();
    const ok = await f.org.request('POST', `/api/v2/mailboxes/${f.mailbox}/actions/testSync`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ type: 'mailbox', id: f.mailbox, attributes: { imapHost: '127.0.0.1', username: f.login.user } });
    expect(ok.body.data.attributes).not.toHaveProperty('password');

    const wrong = `wrong-${f.login.password}`;
    await f.org.request('PATCH', `/api/v2/mailboxes/${f.mailbox}`, { body: { data: { type: 'mailbox', id: f.mailbox, attributes: { password: wrong } } } });
    const refused = await f.org.request('POST', `/api/v2/mailboxes/${f.mailbox}/actions/testSync`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        id: 'imapLoginFailed',
        status: '422',
        title: 'Unprocessable Entity',
        detail: `The IMAP server at 127.0.0.1:${imap.port} refused the login: authentication failed [AUTHENTICATIONFAILED]`,
      },
    ]);

    // A failed sync stamps syncErroredAt.
    await syncNow(f);
    const mailbox = await attributesOf(f.org, `mailboxes/${f.mailbox}`);
    expect(mailbox).toMatchObject({ syncErroredAt: clock.now().toISOString(), syncSuccessAt: null, syncFinishedAt: clock.now().toISOString() });
    expect(JSON.stringify(refused.body)).not.toContain(wrong);
  });

  it('is 422 when nothing listens, and 404 for a mailbox of another org', async () => {
    const f = await fixture();
    await f.org.request('PATCH', `/api/v2/mailboxes/${f.mailbox}`, { body: { data: { type: 'mailbox', id: f.mailbox, attributes: { imapPort: 1 } } } });
    const refused = await f.org.request('POST', `/api/v2/mailboxes/${f.mailbox}/actions/testSync`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({
      id: 'imapConnectionFailed',
      detail: 'Could not connect to the IMAP server at 127.0.0.1:1: connection refused',
    });
    const other = await freshOrg(api, 'Other org');
    expect((await other.request('POST', `/api/v2/mailboxes/${f.mailbox}/actions/testSync`)).status).toBe(404);
  });
});

describe('secrets', () => {
  it('no IMAP password appears in a log line, an event, a job or a response', async () => {
    const f = await fixture();
    await deliver(f, { 'Message-ID': '<reply-5@example.test>', 'In-Reply-To': f.messageId });
    await syncNow(f);
    expect((await f.org.request('POST', `/api/v2/mailboxes/${f.mailbox}/actions/testSync`)).status).toBe(200);
    const mailbox = await f.org.request('GET', `/api/v2/mailboxes/${f.mailbox}`);

    expect(logLines.join('\n')).not.toContain('imap-secret-');
    const events = await api.sql`select * from events`;
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain('imap-secret-');
    const jobs = await api.sql`select payload from graphile_worker._private_jobs`;
    expect(JSON.stringify(jobs)).not.toContain('imap-secret-');
    expect(JSON.stringify(mailbox.body)).not.toContain('imap-secret-');
  });
});
