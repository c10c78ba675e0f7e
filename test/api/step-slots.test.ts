import type { Job } from 'graphile-worker';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEND_MAILINGS_TASK } from '../../runtime/mail/index.js';
import { STEP_RUNNER_TASK } from '../../runtime/sequences/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, freshOrg } from '../helpers/bulk-actions.js';
import { enrol, releaseDueSteps, sequenceWith, SimulatedClock } from '../helpers/sequences.js';
import { loopbackTransports, releaseDueSends, sendsSettled, startSmtpServer, type SmtpAnswer, type TestSmtpServer } from '../helpers/smtp.js';
import { until } from '../helpers/wait.js';

/**
 * Reserved worker slots (issue #26, runtime/jobs/runners.ts): a due sequence step runs while
 * every ordinary slot of the worker is held by a send set that waits on a slow SMTP server. The
 * worker has two ordinary slots and one reserved; sets of one send each, so three mailings due
 * at once make a set for each ordinary slot and one more waiting. The SMTP server holds every
 * answer until the test lets it go, so the send sets hold their slots for as long as the test
 * needs: without a reserved slot the step would wait for them.
 */

const SECRET = 'slow-smtp-secret';
const SMTP_USER = 'rep-login';

let api: TestApi;
let worker: StartedWorker;
let smtp: TestSmtpServer;
const clock = new SimulatedClock(Date.parse('2099-05-04T09:00:00.000Z'));
/** The tasks of the jobs each runner (main, reserved) has started, in order. */
const started: string[][] = [[], []];

beforeAll(async () => {
  smtp = await startSmtpServer({ username: SMTP_USER, password: SECRET });
  api = await startTestApi({ clock: clock.now, mailTransports: (sql) => loopbackTransports(sql, clock.now) });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    reservedConcurrency: 1,
    clock: clock.now,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    mail: { transports: loopbackTransports(api.sql, clock.now), setSize: 1 },
  });
  worker.runners.forEach((runner, i) => runner.events.on('job:start', ({ job }: { job: Job }) => started[i]!.push(job.task_identifier)));
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await smtp?.close();
});

/** Send jobs locked now, by the pool that holds them. */
async function lockedSendJobs(): Promise<string[]> {
  const rows = await api.sql<{ locked_by: string }[]>`
    select locked_by from graphile_worker.jobs where task_identifier = ${SEND_MAILINGS_TASK} and locked_by is not null`;
  return rows.map((r) => r.locked_by);
}

it('runs a due step while every ordinary slot is held by a send set waiting on a slow SMTP server', async () => {
  expect(worker.runners).toHaveLength(2);
  const [mainPool] = worker.workerIds;
  let letGo!: () => void;
  const slowAnswer = new Promise<SmtpAnswer>((resolve) => (letGo = () => resolve('accept')));
  let answering = 0;
  smtp.answer = () => {
    answering += 1;
    return slowAnswer;
  };

  const org = await freshOrg(api, 'Reserved slots org');
  const owner = await create(org, 'users', 'user', { email: 'rep@slots.example.test', firstName: 'Grace', lastName: 'Hopper' });
  const smtpSettings = { smtpHost: 'smtp.example.test', smtpPort: smtp.port, smtpUsername: SMTP_USER, smtpPassword: SECRET, smtpSsl: false };
  const mailbox = await create(org, 'mailboxes', 'mailbox', { email: 'grace@slots.example.test', ...smtpSettings }, { user: { type: 'user', id: owner } });
  const prospects: number[] = [];
  for (const n of [1, 2, 3, 4]) prospects.push(await create(org, 'prospects', 'prospect', { firstName: `P${n}`, emails: [`p${n}@acme.example.test`] }));
  for (const prospect of prospects.slice(0, 3)) {
    await create(
      org,
      'mailings',
      'mailing',
      { state: 'scheduled', subject: 'Hello', bodyHtml: '<p>Hi</p>' },
      { mailbox: { type: 'mailbox', id: mailbox }, prospect: { type: 'prospect', id: prospect } },
    );
  }
  await releaseDueSends(api, clock);
  await until('both ordinary slots to hold a send set waiting on the SMTP server', async () => {
    const locked = await lockedSendJobs();
    return answering === 2 && locked.length === 2 && locked.every((id) => id === mainPool) ? true : undefined;
  });

  // A step comes due now: a `call` step, so it sends nothing itself.
  const fixture = await sequenceWith(org, owner, 'interval', [{ stepType: 'call', interval: 0 }]);
  const enrolled = await enrol(org, prospects[3]!, fixture);
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
  await releaseDueSteps(api, clock);
  await until('the due step to have run', async () => {
    const [row] = await api.sql<{ n: number }[]>`select count(*)::int as n from sequence_step_runs where org_id = ${org.orgId}`;
    return row!.n === 1 ? true : undefined;
  });

  // It ran in the reserved slot, with the send sets still holding the ordinary ones.
  expect(started[1]).toEqual([STEP_RUNNER_TASK]);
  expect(started[0]!.filter((task) => task === STEP_RUNNER_TASK)).toEqual([]);
  expect(await lockedSendJobs()).toEqual([mainPool, mainPool]);
  expect(smtp.received).toHaveLength(0);
  expect(answering).toBe(2);

  letGo();
  await until('every mailing to be sent', () => (smtp.received.length === 3 ? true : undefined));
  await sendsSettled(api);
});
