import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runCadence } from '../helpers/cli.js';
import { create, freshOrg, newUserId, type OrgClient } from '../helpers/bulk-actions.js';
import { enrol, listOf, sequenceWith, stateOf, stepsSettled } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * `cadence clock show|advance` (issue #28 item 6) as an operator runs them: the real CLI as a
 * process against the test database, beside a sandbox-mode server and a real worker in sandbox
 * mode, which runs what the advanced clock made due.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const SLACK_MS = 60_000;

let api: TestApi;
let worker: StartedWorker;

beforeAll(async () => {
  api = await startTestApi({ sandbox: true });
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    sandbox: true,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
  });
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

const clock = (args: string[], sandbox = 'true') => runCadence(api.databaseUrl, ['clock', ...args], { env: { CADENCE_SANDBOX: sandbox } });

function expectNear(actual: string, expected: number): void {
  expect(Math.abs(new Date(actual).getTime() - expected), `${actual} should be near ${new Date(expected).toISOString()}`).toBeLessThan(SLACK_MS);
}

async function prospect(org: OrgClient): Promise<number> {
  return create(org, 'prospects', 'prospect', { firstName: 'Pat', emails: [`pat${Math.random()}@example.test`] });
}

describe('cadence clock', { timeout: 120_000 }, () => {
  it('advance --by 1d runs the day-later step of a sequence at once; show tells the moved time', async () => {
    const org = await freshOrg(api, 'CLI clock');
    const owner = await newUserId(api, org);
    const fixture = await sequenceWith(org, owner, 'interval', [
      { stepType: 'auto_email', interval: 0 },
      { stepType: 'task', interval: 24 * 60 },
    ]);
    const enrolled = await enrol(org, await prospect(org), fixture);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    const stateId = Number(enrolled.body.data.id);
    await until('step 1 to run', async () => ((await stateOf(org, stateId)).step === fixture.steps[1] ? true : undefined));

    const shown = await clock(['show', '--org', String(org.orgId)]);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    const before = JSON.parse(shown.stdout);
    expect(before).toMatchObject({ orgId: org.orgId, offsetSeconds: 0 });
    expectNear(before.now, Date.now());
    await stepsSettled(api);
    expect(await listOf(org, `tasks?filter[sequenceState][id]=${stateId}`)).toEqual([]);

    const advanced = await clock(['advance', '--org', String(org.orgId), '--by', '1d']);
    expect(advanced.stderr).toBe('');
    expect(advanced.code).toBe(0);
    const after = JSON.parse(advanced.stdout);
    expect(after).toMatchObject({ orgId: org.orgId, offsetSeconds: 86_400 });
    expectNear(after.now, Date.now() + DAY_MS);

    const [task] = await until('step 2 to run', async () => {
      const found = await listOf(org, `tasks?filter[sequenceState][id]=${stateId}`);
      return found.length ? found : undefined;
    });
    expect(task.attributes).toMatchObject({ taskType: 'sequence_step_task', state: 'incomplete' });
    expectNear(task.attributes.createdAt, Date.now() + DAY_MS);

    // Units add up: 90s, 15m and 2h more.
    for (const by of ['90s', '15m', '2h']) expect((await clock(['advance', '--org', String(org.orgId), '--by', by])).code).toBe(0);
    const total = JSON.parse((await clock(['show', '--org', String(org.orgId)])).stdout);
    expect(total.offsetSeconds).toBe(86_400 + 90 + 15 * 60 + 2 * 3600);
    // The API tells the same.
    expect((await org.request('GET', '/api/v2/sandbox/clock')).body.data.attributes.offsetSeconds).toBe(total.offsetSeconds);
  });

  it('refuses without CADENCE_SANDBOX=true, in one line, and touches nothing', async () => {
    const org = await freshOrg(api, 'CLI clock, no sandbox');
    for (const args of [
      ['show', '--org', String(org.orgId)],
      ['advance', '--org', String(org.orgId), '--by', '1d'],
    ]) {
      const result = await clock(args, 'false');
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: 'cadence: the test clock exists only in a sandbox: set CADENCE_SANDBOX=true, for the server and worker too\n',
      });
    }
    expect((await org.request('GET', '/api/v2/sandbox/clock')).body.data.attributes.offsetSeconds).toBe(0);
  });

  it.each([
    [['advance', '--org', '1', '--by', '1w'], '--by must be a duration such as 90s, 15m, 2h or 1d, not "1w"'],
    [['advance', '--org', '1', '--by', '0d'], '--by must be a duration such as 90s, 15m, 2h or 1d, not "0d"'],
    [['advance', '--org', '1'], '--by must be a duration such as 90s, 15m, 2h or 1d, not missing'],
    [['advance', '--org', '1', '--by', '3651d'], '--by must be at most ten years (315360000s), not "3651d"'],
    [['show'], '--org must be a positive integer'],
    [['show', '--org', '1', '--by', '1d'], "unknown option '--by' (run cadence clock show --help)"],
    [['show', '--org', '987654'], 'org 987654 does not exist'],
  ])('cadence clock %j says what is wrong in one line', async (args, message) => {
    const result = await clock(args);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `cadence: ${message}\n` });
  });
});
