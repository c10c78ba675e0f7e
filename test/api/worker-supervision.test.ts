import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY } from '../../runtime/jobs/supervisor.js';
import { MEDIA_TYPE, startTestApi, type TestApi } from '../helpers/api.js';
import { startCadence, type RunningCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';
import { FAST_LIVENESS, startWorkerProcess } from '../helpers/worker-processes.js';

/**
 * `cadence serve` runs background work in a `cadence worker` child process that it supervises
 * (runtime/jobs/supervisor.ts): the API never shares its event loop with a job, a worker killed
 * with SIGKILL is back within seconds while the API goes on answering, and the worker stops with
 * the server. With CADENCE_IN_PROCESS_WORKER=false, serve runs no worker at all and separate
 * `cadence worker` processes do the work (README, "Scale out").
 */

let api: TestApi;
const processes: RunningCadence[] = [];

beforeAll(async () => {
  api = await startTestApi();
});
afterEach(() => {
  for (const p of processes.splice(0)) p.kill();
});
afterAll(async () => {
  await api?.close();
});

interface Serving {
  readonly process: RunningCadence;
  readonly url: string;
}

async function serve(env: Record<string, string> = {}): Promise<Serving> {
  const process = startCadence(api.databaseUrl, ['serve'], { PORT: '0', ...FAST_LIVENESS, ...env });
  processes.push(process);
  const line = await process.waitForLine(/"cadence is serving"/);
  return { process, url: JSON.parse(line).url as string };
}

/** Every JSON log line printed so far (serve's and its child worker's share standard output). */
function logLines(process: RunningCadence): any[] {
  return process
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

/** The pid of a worker that has started and whose pid is not in `known`. */
function newWorkerPid(process: RunningCadence, known: ReadonlySet<number>, timeoutMs = 60_000): Promise<number> {
  return until(
    'a new worker process to start',
    () => logLines(process).find((l) => l.msg === 'worker started' && !known.has(l.pid))?.pid as number | undefined,
    timeoutMs,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const headers = () => ({ authorization: `Bearer ${api.org.token}`, 'content-type': MEDIA_TYPE });

/** Starts a bulk upsert of one account through `url`, which some worker must finish; resolves with the batch's id. */
async function upsert(url: string, name: string): Promise<string> {
  const body = JSON.stringify({ data: { attributes: { records: [{ data: { type: 'account', attributes: { name } } }] } } });
  const response = await fetch(`${url}/api/v2/imports/actions/bulkUpsert`, { method: 'POST', headers: headers(), body });
  expect(response.status).toBe(200);
  return (await response.json()).data.id as string;
}

/** The batch once no longer pending. */
function settled(url: string, batchId: string, timeoutMs = 60_000): Promise<any> {
  return until(
    `batch ${batchId} to settle`,
    async () => {
      const batch = await (await fetch(`${url}/api/v2/batches/${batchId}`, { headers: headers() })).json();
      return batch.data.attributes.state === 'pending' ? undefined : batch.data;
    },
    timeoutMs,
  );
}

async function upsertFinishedBy(url: string, name: string, timeoutMs?: number): Promise<any> {
  return settled(url, await upsert(url, name), timeoutMs);
}

it('serve runs jobs in a child worker; a SIGKILLed worker is restarted after half a second while the API keeps answering', async () => {
  const server = await serve();
  const firstPid = await newWorkerPid(server.process, new Set());
  expect(firstPid).not.toBe(server.process.pid);
  expect((await upsertFinishedBy(server.url, 'Before the kill')).attributes).toMatchObject({ state: 'finished', failures: 0 });

  process.kill(firstPid, 'SIGKILL');
  const killedAt = Date.now();
  // The API answers all along: every health check is a 200, each within a second.
  const answers: number[] = [];
  let replaced = false;
  const replacement = newWorkerPid(server.process, new Set([firstPid]));
  replacement.then(
    () => (replaced = true),
    () => (replaced = true),
  );
  while (!replaced) {
    const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(1000) });
    answers.push(response.status);
    await response.arrayBuffer();
  }
  const secondPid = await replacement;
  // How soon it is back is the supervisor's wait (asserted) plus the time a worker takes to load
  // its modules and connect, which is the machine's (printed: 2 to 7 s on a quiet 2-core machine,
  // more while a whole test run shares it).
  console.log(`worker supervision: a SIGKILLed worker was back in ${Date.now() - killedAt} ms`);
  expect(answers.length).toBeGreaterThan(0);
  expect(new Set(answers)).toEqual(new Set([200]));
  expect(isAlive(firstPid)).toBe(false);
  expect(logLines(server.process)).toContainEqual(
    expect.objectContaining({
      msg: 'worker process ended; restarting it',
      pid: firstPid,
      signal: 'SIGKILL',
      restartInMs: DEFAULT_RESTART_POLICY.initialDelayMs,
    }),
  );

  expect((await upsertFinishedBy(server.url, 'After the kill')).attributes).toMatchObject({ state: 'finished', failures: 0 });
  expect((await server.process.stop()).code).toBe(0);
  expect(isAlive(secondPid)).toBe(false);
}, 240_000);

it('SIGTERM to serve stops its worker too, and so does SIGKILL: no orphan keeps running jobs', async () => {
  const stopped = await serve();
  const stoppedWorker = await newWorkerPid(stopped.process, new Set());
  await stopped.process.waitForLine(/looking for jobs/);
  expect((await stopped.process.stop()).code).toBe(0);
  expect(isAlive(stoppedWorker)).toBe(false);

  const killed = await serve();
  const orphan = await newWorkerPid(killed.process, new Set());
  await killed.process.waitForLine(/looking for jobs/);
  killed.process.kill();
  await killed.process.exited();
  // Its IPC channel closed with the server; the worker stops on its own, as on SIGTERM.
  await until('the worker of a killed server to exit', () => (isAlive(orphan) ? undefined : true), 30_000);
}, 180_000);

it('with CADENCE_IN_PROCESS_WORKER=false serve runs no worker, and a separate cadence worker does the work', async () => {
  const server = await serve({ CADENCE_IN_PROCESS_WORKER: 'false' });
  // The supervisor says so before serve is serving.
  expect(logLines(server.process).filter((l) => l.component === 'worker-supervisor' || l.component === 'worker')).toEqual([]);
  const batchId = await upsert(server.url, 'Scaled out');
  const worker = await startWorkerProcess(api.databaseUrl);
  processes.push(worker.process);
  expect((await settled(server.url, batchId)).attributes).toMatchObject({ state: 'finished', failures: 0 });
  expect(logLines(worker.process).find((l) => l.msg === 'worker started')).toMatchObject({ workerIds: worker.workerIds, pid: worker.process.pid });
  // The main runner and the reserved one for due steps (runtime/jobs/runners.ts).
  expect(worker.workerIds).toHaveLength(2);
  expect((await worker.process.stop()).code).toBe(0);
  expect((await server.process.stop()).code).toBe(0);
}, 180_000);
