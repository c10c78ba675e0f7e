import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadTrackingSecret } from '../../runtime/db/settings.js';
import { createTrackingSigner, FOLD_HITS_TASK, FOLD_SET_HITS, type TrackingSigner } from '../../runtime/mail/tracking/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freshOrg } from '../helpers/bulk-actions.js';
import { hitsFolded } from '../helpers/tracking.js';
import { until } from '../helpers/wait.js';
import { untilWaitingOn, WorkerProcesses, type WorkerProcess } from '../helpers/worker-processes.js';

/**
 * The fold of tracking hits (runtime/mail/tracking/hit-fold.ts) on real `cadence worker`
 * processes, one of them SIGKILLed while it holds a fold job (made to wait on a row lock the test
 * holds, so the kill lands inside the fold). A backlog of more than one fold's
 * set is folded first, in two folds. Then waves of opens and clicks over
 * hundreds of mailings reach the API over HTTP while the workers fold them; the transaction of
 * the fold the kill interrupts dies with it, its hits stay in tracking_hits, and a later fold
 * counts them. In the end every hit the API answered is counted exactly once, mailing by
 * mailing and on their prospects.
 */

const MAILINGS = 300;
const PROSPECTS = 30;
/** Hits per wave; waves go on until a worker has been killed holding a fold job. */
const WAVE = 1500;
const MAX_WAVES = 20;
const CLIENTS = 20;

let api: TestApi;
let signer: TrackingSigner;
const workers = new WorkerProcesses(() => api.databaseUrl);

beforeAll(async () => {
  api = await startTestApi();
  signer = createTrackingSigner(await loadTrackingSecret(api.sql));
});
afterAll(async () => {
  workers.killAll();
  await api?.close();
});

/** The ids of the dead workers whose locked jobs the live ones released, from their log lines. */
function releasedWorkers(survivors: readonly WorkerProcess[]): Set<string> {
  const lines = survivors.flatMap((w) => w.process.stdout().split('\n')).filter((line) => line.includes('released the jobs of workers'));
  return new Set(lines.flatMap((line) => (JSON.parse(line) as { workers: string[] }).workers));
}

interface Tally {
  opens: number;
  clicks: number;
}

/** Sends the hits `CLIENTS` at a time, each client on its own keep-alive connection; every one must be answered. */
async function send(paths: readonly string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < paths.length) {
        const response = await fetch(`${api.baseUrl}${paths[next++]!}`, { redirect: 'manual' });
        await response.arrayBuffer();
        expect([200, 302]).toContain(response.status);
      }
    }),
  );
}

it('a worker SIGKILLed while it folds: every hit is still counted exactly once', async () => {
  const org = await freshOrg(api, 'Tracking crash org');
  // Fixtures (one statement each): prospects, and delivered mailings spread over them.
  const prospects = await api.sql<{ id: number }[]>`
    insert into prospects (org_id, first_name, emails)
    select ${org.orgId}, 'Prospect', array['p' || g || '@tracking-crash.test'] from generate_series(1, ${PROSPECTS}) g returning id`;
  const mailings = await api.sql<{ id: number; prospect_id: number }[]>`
    insert into mailings (org_id, prospect_id, state, subject, track_opens, track_links, delivered_at)
    select ${org.orgId}, (${prospects.map((p) => p.id)}::int8[])[1 + g % ${PROSPECTS}], 'delivered', 'Hello', true, true, now()
      from generate_series(1, ${MAILINGS}) g returning id, prospect_id`;
  const pixel = (id: number) => `/t/o/${signer.sign({ kind: 'open', orgId: org.orgId, mailingId: id })}.gif`;
  const click = (id: number) => `/t/c/${signer.sign({ kind: 'click', orgId: org.orgId, mailingId: id, url: 'https://example.test/' })}`;
  const sent = new Map<number, Tally>(mailings.map((m) => [m.id, { opens: 0, clicks: 0 }]));

  // Opens first, counted before any click, so that no click below is a mailing's first hit
  // (which would count as its open too). More than one fold's set of them, sent before any
  // worker runs: the first fold leaves the rest to the next one it enqueues.
  const opensFirst = Math.ceil((FOLD_SET_HITS + 1) / MAILINGS);
  await send(mailings.flatMap((m) => Array.from({ length: opensFirst }, () => pixel(m.id))));
  for (const m of mailings) sent.get(m.id)!.opens += opensFirst;
  const started = [await workers.start(), await workers.start()];
  await hitsFolded(api, org.orgId, 60_000);

  let killed = false;
  let waves = 0;
  const sending = (async () => {
    while (!killed && waves < MAX_WAVES) {
      const paths = Array.from({ length: WAVE }, (_, i) => {
        const mailing = mailings[(i * 7 + waves * 13) % MAILINGS]!;
        const tally = sent.get(mailing.id)!;
        if (i % 4 === 3) {
          tally.clicks++;
          return click(mailing.id);
        }
        tally.opens++;
        return pixel(mailing.id);
      });
      waves++;
      await send(paths);
    }
  })();
  // The kill point is made, not waited for: with a prospect of the org held locked by the test, a
  // fold that has claimed hits waits, uncommitted, to add them to that prospect's counts. The
  // worker holding the fold job then is killed. Its transaction lives on, holding its hits, until
  // the lock is let go: folds run meanwhile must leave them to a later fold, not drop them.
  const holder = postgres(api.databaseUrl, { max: 1, onnotice: () => {} });
  let victim: WorkerProcess;
  let survivors: WorkerProcess[];
  try {
    const lock = await holder.reserve();
    await lock`begin`;
    const [{ pid }] = await lock<[{ pid: number }]>`select pg_backend_pid() as pid`;
    await lock`select 1 from prospects where org_id = ${org.orgId} and id = ${prospects[0]!.id} for update`;
    await untilWaitingOn(api.sql, pid, 'a fold waiting on the locked prospect');
    victim = await until('a worker holding a fold job', () => workers.holding(api.sql, FOLD_HITS_TASK), 60_000);
    await workers.kill(victim);
    killed = true;
    await sending;
    // Another worker in its place: the survivors release the dead one's job (stale after 2 s) and fold what it had claimed.
    survivors = [...started.filter((w) => w !== victim), await workers.start()];
    // The job was still the dead worker's: its fold had not finished, and a survivor takes it back.
    await until("a survivor to release the dead worker's jobs", () => (victim.workerIds.some((id) => releasedWorkers(survivors).has(id)) ? true : undefined), 60_000);
    await lock`rollback`;
    lock.release();
  } finally {
    await holder.end({ timeout: 5 });
  }
  await hitsFolded(api, org.orgId, 90_000);

  const counted = await api.sql<{ id: number; open_count: number | null; click_count: number | null; state: string }[]>`
    select id, open_count, click_count, state from mailings where org_id = ${org.orgId}`;
  const countsById = (rows: readonly { id: number; open_count: number | null; click_count: number | null }[]) =>
    Object.fromEntries(rows.map((r) => [r.id, { opens: r.open_count ?? 0, clicks: r.click_count ?? 0 }]));
  expect(countsById(counted)).toEqual(Object.fromEntries(sent));
  expect(new Set(counted.map((r) => r.state))).toEqual(new Set(['opened']));
  const perProspect = new Map<number, Tally>();
  for (const m of mailings) {
    const sum = perProspect.get(m.prospect_id) ?? { opens: 0, clicks: 0 };
    perProspect.set(m.prospect_id, { opens: sum.opens + sent.get(m.id)!.opens, clicks: sum.clicks + sent.get(m.id)!.clicks });
  }
  const prospectCounts = await api.sql<{ id: number; open_count: number | null; click_count: number | null }[]>`
    select id, open_count, click_count from prospects where org_id = ${org.orgId}`;
  expect(countsById(prospectCounts)).toEqual(Object.fromEntries(perProspect));
  const total = [...sent.values()].reduce((sum, t) => sum + t.opens + t.clicks, 0);
  console.info(`${total} hits in ${waves} waves; worker ${victim.workerIds.join('/')} killed holding a fold job`);
}, 300_000);
