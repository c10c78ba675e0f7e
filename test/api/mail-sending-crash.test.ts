import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEND_MAILINGS_TASK } from '../../runtime/mail/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, freshOrg, type OrgClient } from '../helpers/bulk-actions.js';
import { everyPage } from '../helpers/sequences.js';
import { startSmtpServer, type SmtpAnswer, type TestSmtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';
import { FAST_LIVENESS, untilWaitingOn, WorkerProcesses } from '../helpers/worker-processes.js';

/**
 * Mailings sent by real `cadence worker` processes to a real SMTP server on 127.0.0.1. The
 * server accepts the first messages and then holds its answer to the next: the worker sending
 * them is SIGKILLed while it waits, with messages handed over, messages on the wire and messages
 * not yet sent. Another worker takes over. In the end no message reached the server twice, and
 * every mailing is recorded: `delivered` (the server said so), or `failed` with the reason that
 * says it may have been sent; none is left `scheduled` or `delivering`.
 *
 * Then a worker SIGKILLed inside its claim, before any message of its set went out: the claim's
 * transaction outlives it, holding the set's rows, while every sender job left runs and ends. Once
 * that transaction rolls back, the set is still sent, each message once.
 */

const MAILINGS = 300;
/** Messages the server accepts at once before it holds the rest: more than one set (set-sender.ts's SET_SIZE is 200). */
const ACCEPTED_AT_ONCE = 250;
const LOGIN = { username: 'crash-rep', password: 'crash-smtp-password' };
const WORKER_ENV = { ...FAST_LIVENESS, WORKER_CONCURRENCY: '1', MAIL_ALLOWED_HOSTS: '127.0.0.1' };

let api: TestApi;
let smtp: TestSmtpServer;
const workers = new WorkerProcesses(() => api.databaseUrl);

beforeAll(async () => {
  api = await startTestApi();
  smtp = await startSmtpServer(LOGIN);
});
afterAll(async () => {
  workers.killAll();
  await api?.close();
  await smtp?.close();
});

/** How often each value occurs. */
function tally(values: readonly unknown[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

/** The org's mailings in each state. */
async function statesOf(orgId: number): Promise<Record<string, number>> {
  const rows = await api.sql<{ state: string }[]>`select state from mailings where org_id = ${orgId}`;
  return tally(rows.map((r) => r.state));
}

/** A new org with an SMTP mailbox on the test server and `count` mailings due now, one to each of as many prospects. */
async function orgWithScheduledMailings(name: string, domain: string, count: number): Promise<OrgClient> {
  const org = await freshOrg(api, name);
  const mailbox = await create(org, 'mailboxes', 'mailbox', {
    email: `rep@${domain}.example.test`,
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpUsername: LOGIN.username,
    smtpPassword: LOGIN.password,
    smtpSsl: false,
  });
  // The prospects are fixtures (one statement); the mailings go through the API.
  const rows = await api.sql<{ id: string }[]>`
    insert into prospects (org_id, first_name, last_name, emails)
    select ${org.orgId}, 'Prospect' || g, 'N', array['p' || g || ${`@${domain}.test`}] from generate_series(1, ${count}) g returning id`;
  await scheduleAll(
    org,
    mailbox,
    rows.map((r) => Number(r.id)),
  );
  return org;
}

async function scheduleAll(org: OrgClient, mailbox: number, prospects: readonly number[]): Promise<void> {
  for (let i = 0; i < prospects.length; i += 10) {
    await Promise.all(
      prospects
        .slice(i, i + 10)
        .map((prospect) =>
          create(
            org,
            'mailings',
            'mailing',
            { state: 'scheduled', subject: 'Hello {{first_name}}', bodyHtml: '<p>Hi {{first_name}}</p>' },
            { mailbox: { type: 'mailbox', id: mailbox }, prospect: { type: 'prospect', id: prospect } },
          ),
        ),
    );
  }
}

it('a worker SIGKILLed while it sends: no message reaches the server twice, and every mailing is recorded', async () => {
  const org = await orgWithScheduledMailings('Mail crash org', 'crash', MAILINGS);

  let answered = 0;
  let held = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  smtp.answer = async (): Promise<SmtpAnswer> => {
    if (++answered <= ACCEPTED_AT_ONCE) return 'accept';
    held += 1;
    await released;
    return 'accept';
  };

  const first = await workers.start(WORKER_ENV);
  await until('a message the server holds its answer to', async () => (held > 0 ? true : undefined), 90_000);
  expect(await workers.holding(api.sql, SEND_MAILINGS_TASK)).toBe(first);
  await workers.kill(first);
  // What the server was given counts as received, answered or not: the sender cannot tell.
  release();
  await workers.start(WORKER_ENV);
  try {
    await until(
      'every mailing recorded',
      async () => {
        const [row] = await api.sql<{ n: number }[]>`select count(*)::int as n from mailings where org_id = ${org.orgId} and state in ('scheduled', 'delivering')`;
        return row!.n === 0 ? true : undefined;
      },
      90_000,
    );
  } finally {
    await workers.stopAll();
  }

  const mailings = await everyPage(org, 'mailings');
  expect(mailings).toHaveLength(MAILINGS);
  const states = tally(mailings.map((m) => m.attributes.state));
  expect(Object.keys(states).sort()).toEqual(['delivered', 'failed']);
  // The kill landed in the middle: some were recorded delivered before it, some were cut off.
  expect(states.delivered).toBeGreaterThan(0);
  expect(states.failed).toBeGreaterThan(0);
  const failed = mailings.filter((m) => m.attributes.state === 'failed');
  expect(failed.filter((m) => !String(m.attributes.errorReason).includes('it may have been sent'))).toEqual([]);

  // No message reached the server twice: not by Message-ID, not by recipient.
  const messageIdOf = (raw: string) => /^Message-ID: (\S+)\r$/m.exec(raw)?.[1];
  const received = smtp.received.map((m) => ({ id: messageIdOf(m.raw), to: m.to.join(',') }));
  expect(Object.values(tally(received.map((r) => r.id))).filter((n) => n > 1)).toEqual([]);
  expect(Object.values(tally(received.map((r) => r.to))).filter((n) => n > 1)).toEqual([]);
  // Every delivered mailing's message is among them; every message received is a mailing's.
  const receivedIds = new Set(received.map((r) => r.id));
  for (const m of mailings.filter((m) => m.attributes.state === 'delivered')) expect(receivedIds.has(m.attributes.messageId)).toBe(true);
  const messageIds = new Set(mailings.map((m) => m.attributes.messageId));
  for (const id of receivedIds) expect(messageIds.has(id)).toBe(true);
  console.info(`${MAILINGS} mailings: ${states.delivered} delivered, ${states.failed} failed as interrupted; the server received ${received.length}, held ${held}`);
}, 180_000);

it('a worker SIGKILLed inside its claim: the set its dead transaction held is sent once it lets go, each message once', async () => {
  const CLAIMED = 40;
  const org = await orgWithScheduledMailings('Mail claim crash org', 'claim-crash', CLAIMED);
  const receivedBefore = smtp.received.length;
  smtp.answer = (): SmtpAnswer => 'accept';

  // The kill point is made, not waited for: with the org's first mailing held locked by the test,
  // the claim (which locks its mailings in id order) waits there, uncommitted, holding the due rows
  // of its whole set. The worker is killed then; its transaction lives on until the lock is let go.
  const [first] = await api.sql<{ id: string }[]>`select min(id) as id from mailings where org_id = ${org.orgId}`;
  const holder = postgres(api.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const lock = await holder.reserve();
    await lock`begin`;
    const [{ pid }] = await lock<[{ pid: number }]>`select pg_backend_pid() as pid`;
    await lock`select 1 from mailings where org_id = ${org.orgId} and id = ${first!.id} for update`;
    const victim = await workers.start(WORKER_ENV);
    await untilWaitingOn(api.sql, pid, 'a claim waiting on the locked mailing', { queryLike: '%from mailings%for no key update%' });
    expect(await workers.holding(api.sql, SEND_MAILINGS_TASK)).toBe(victim);
    await workers.kill(victim);
    // Another worker runs every sender job left, the dead one's included once it is released
    // (stale after 2 s): each finds the set's rows held, and ends.
    await workers.start(WORKER_ENV);
    await until(
      'no sender job of the org due now or running',
      async () => {
        const [row] = await api.sql<{ n: number }[]>`
          select count(*)::int as n from graphile_worker.jobs
           where task_identifier = ${SEND_MAILINGS_TASK} and (locked_by is not null or (run_at <= now() and attempts < max_attempts))
             and key is distinct from ${`${SEND_MAILINGS_TASK}:${org.orgId}:skipped`}`;
        return row!.n === 0 ? true : undefined;
      },
      60_000,
    );
    expect(await statesOf(org.orgId)).toEqual({ scheduled: CLAIMED });
    await lock`rollback`;
    lock.release();
  } finally {
    await holder.end({ timeout: 5 });
  }
  try {
    await until('every mailing delivered', async () => ((await statesOf(org.orgId)).delivered === CLAIMED ? true : undefined), 90_000);
  } finally {
    await workers.stopAll();
  }
  const received = smtp.received.slice(receivedBefore).map((m) => m.to.join(','));
  expect(received).toHaveLength(CLAIMED);
  expect(new Set(received).size).toBe(CLAIMED);
}, 240_000);
