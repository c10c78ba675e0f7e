import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runCadence, startCadence, type RunningCadence } from '../helpers/cli.js';

/**
 * Operators run `cadence` commands, and start more servers and workers, while the API takes
 * writes. Every command migrates first; with nothing to migrate that must take no lock a write
 * could wait for or deadlock with, so no write fails and every command succeeds.
 */

const WRITERS = 4;

let api: TestApi;
const started: RunningCadence[] = [];

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  for (const process of started) process.kill();
  await api?.close();
});

interface WriteLoad {
  stop(): Promise<{ succeeded: number; failed: string[] }>;
}

/** Writers creating prospects and accounts (each write also records its event) until stopped. */
function startWrites(): WriteLoad {
  let running = true;
  let succeeded = 0;
  const failed: string[] = [];
  const writer = async (n: number) => {
    for (let i = 0; running; i++) {
      const body =
        i % 2 === 0
          ? { data: { type: 'prospect', attributes: { firstName: `Writer ${n}`, lastName: `No. ${i}` } } }
          : { data: { type: 'account', attributes: { name: `Writer ${n} account ${i}` } } };
      const response = await api.request('POST', i % 2 === 0 ? '/api/v2/prospects' : '/api/v2/accounts', { body });
      if (response.status === 201) succeeded++;
      else failed.push(`${response.status} ${JSON.stringify(response.body)}`);
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
  return {
    async stop() {
      running = false;
      await Promise.all(writers);
      return { succeeded, failed };
    },
  };
}

it('CLI commands and a second serve and worker start while writes flow: no write fails', async () => {
  const writes = startWrites();
  const outcomes: Record<string, number> = {};
  try {
    const token = await runCadence(api.databaseUrl, ['token', 'create', '--org', String(api.org.orgId), '--user', String(api.org.userId), '--scopes', 'prospects.read']);
    outcomes['token create'] = token.code;
    expect(token.stderr).toBe('');
    const migrate = await runCadence(api.databaseUrl, ['migrate']);
    outcomes.migrate = migrate.code;

    const serve = startCadence(api.databaseUrl, ['serve'], { PORT: '0' });
    started.push(serve);
    const serving = JSON.parse(await serve.waitForLine(/cadence is serving/));
    const read = await fetch(`${serving.url}/api/v2/prospects?page[size]=1`, {
      headers: { authorization: `Bearer ${JSON.parse(token.stdout).token}`, accept: 'application/vnd.api+json' },
    });
    outcomes['serve answers'] = read.status;
    outcomes.serve = (await serve.stop()).code;

    const worker = startCadence(api.databaseUrl, ['worker']);
    started.push(worker);
    await worker.waitForLine(/looking for jobs/);
    outcomes.worker = (await worker.stop()).code;
  } finally {
    const { succeeded, failed } = await writes.stop();
    expect(failed).toEqual([]);
    expect(succeeded).toBeGreaterThan(WRITERS);
  }
  expect(outcomes).toEqual({ 'token create': 0, migrate: 0, 'serve answers': 200, serve: 0, worker: 0 });
}, 120_000);
