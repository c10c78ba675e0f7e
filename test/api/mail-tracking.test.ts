import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTrackingSecret } from '../../runtime/db/settings.js';
import { SERVICE_ACTOR } from '../../runtime/engine/index.js';
import { createTrackingSigner, trackingTransform, TRANSPARENT_GIF, type TrackingSigner } from '../../runtime/mail/tracking/index.js';
import { standardRecordWriter } from '../../runtime/behaviours/standard-writer.js';
import { orgScopedTransaction, retryingOnConflict } from '../../runtime/tenancy/index.js';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, eventsOf, freshOrg, startTestWorker, type OrgClient } from '../helpers/bulk-actions.js';
import { enrol, pendingSteps, sequenceWith, stateOf } from '../helpers/sequences.js';
import { hitsFolded } from '../helpers/tracking.js';

/**
 * Opens, clicks and unsubscribes (issue #16) over real HTTP: URLs come from the transform the
 * sender runs over a mailing's HTML, and every hit is checked in what the API then serves.
 * The server has two database connections, fewer than the concurrent hits. Opens and clicks
 * are counted by the fold a real worker runs about a second after them (hitsFolded waits for
 * it); an unsubscribe is written before it is answered.
 */

let api: TestApi;
let worker: StartedWorker;
let signer: TrackingSigner;
const logLines: string[] = [];
const writer = standardRecordWriter(() => new Date());

beforeAll(async () => {
  const log = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  );
  api = await startTestApi({ poolSize: 2, log });
  signer = createTrackingSigner(await loadTrackingSecret(api.sql));
  worker = await startTestWorker(api);
});

afterAll(async () => {
  await worker?.stop();
  await api?.close();
});

const html = '<html><body><p>Hi, see <a href="https://docs.example.com/guide?x=1&amp;y=2">the guide</a> or <a href="mailto:rep@example.com">write</a>.</p></body></html>';

/** The URLs the transform puts in a mailing's HTML, as paths on the test server. */
function urlsOf(org: OrgClient, mailingId: number, sequence = false) {
  const transform = trackingTransform({ signer, publicBaseUrl: api.baseUrl });
  const body = transform(html, { orgId: org.orgId, mailingId, prospectId: null, trackOpens: true, trackLinks: true, sequence });
  const path = (pattern: RegExp) => body.match(pattern)?.[1]?.slice(api.baseUrl.length);
  return {
    pixel: path(/<img src="([^"]+)"/)!,
    click: path(/href="([^"]+\/t\/c\/[^"]+)"/)!,
    unsubscribe: path(/href="([^"]+\/t\/u\/[^"]+)"/),
    body,
  };
}

const hit = (path: string, init: RequestInit = {}) => fetch(`${api.baseUrl}${path}`, { redirect: 'manual', ...init });

async function prospectOf(org: OrgClient, attributes: Record<string, unknown> = {}): Promise<number> {
  return create(org, 'prospects', 'prospect', { firstName: 'Ada', emails: [`ada${Math.random()}@example.test`], ...attributes });
}

/** A mailing to the prospect, as the sender leaves it once delivered (written as the service writes). */
async function deliveredMailing(org: OrgClient, prospect: number): Promise<number> {
  const id = await create(
    org,
    'mailings',
    'mailing',
    { subject: 'Hello', bodyHtml: html, state: 'scheduled', trackOpens: true, trackLinks: true },
    { prospect: { type: 'prospect', id: prospect } },
  );
  // The worker's sender may take up the scheduled mailing at the same moment, and the two writes
  // can meet in opposite orders (mailing, prospect); as the API and jobs do, a transaction that
  // PostgreSQL aborted to break a deadlock is run again.
  await retryingOnConflict(() =>
    orgScopedTransaction(api.sql, org.orgId, async (tx) => {
      const effects = writer.effects({ tx, orgId: org.orgId, actor: SERVICE_ACTOR });
      await effects.write([effects.update('mailing', id, { state: 'delivered', deliveredAt: effects.now.toISOString() }, 'delivered')]);
    }),
  );
  return id;
}

describe('the open pixel', () => {
  it('answers the 43-byte GIF, uncached, and records the open', async () => {
    const org = await freshOrg(api, 'Pixel');
    const prospect = await prospectOf(org);
    const mailing = await deliveredMailing(org, prospect);
    const response = await hit(urlsOf(org, mailing).pixel);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes).toHaveLength(43);
    expect(bytes.equals(TRANSPARENT_GIF)).toBe(true);

    await hitsFolded(api, org.orgId);
    const after = await attributesOf(org, `mailings/${mailing}`);
    expect(after).toMatchObject({ state: 'opened', openCount: 1, clickCount: null });
    expect(after.openedAt).toEqual(expect.any(String));
    await hit(urlsOf(org, mailing).pixel);
    await hitsFolded(api, org.orgId);
    const again = await attributesOf(org, `mailings/${mailing}`);
    expect(again).toMatchObject({ state: 'opened', openCount: 2, openedAt: after.openedAt });
    expect(await eventsOf(org, 'mailing', ['mailing_opened'])).toEqual([
      ['mailing_opened', mailing],
      ['mailing_opened', mailing],
    ]);
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ openCount: 2, clickCount: 0 });
  });

  it('loses no open to 20 concurrent hits over 2 connections, on one mailing or two of one prospect', async () => {
    const org = await freshOrg(api, 'Concurrent pixel');
    const prospect = await prospectOf(org);
    const first = await deliveredMailing(org, prospect);
    const second = await deliveredMailing(org, prospect);
    const paths = [urlsOf(org, first), urlsOf(org, second)];
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => hit(i % 4 === 3 ? paths[1]!.click : paths[0]!.pixel)));
    expect(responses.map((r) => r.status).sort()).toEqual([...Array<number>(15).fill(200), ...Array<number>(5).fill(302)]);
    await hitsFolded(api, org.orgId);
    expect(await attributesOf(org, `mailings/${first}`)).toMatchObject({ openCount: 15, clickCount: null });
    // The first click on the second mailing was its open too.
    expect(await attributesOf(org, `mailings/${second}`)).toMatchObject({ openCount: 1, clickCount: 5, state: 'opened' });
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ openCount: 16, clickCount: 5 });
  });
});

describe('a burst of hits on one mailing', () => {
  it('counts 200 opens and 50 clicks from 25 connections exactly, once folded, on the mailing, its prospect and its events', async () => {
    const org = await freshOrg(api, 'Burst');
    const prospect = await prospectOf(org);
    const mailing = await deliveredMailing(org, prospect);
    const urls = urlsOf(org, mailing);
    const paths = Array.from({ length: 250 }, (_, i) => (i % 5 === 4 ? urls.click : urls.pixel));
    const statuses: number[] = [];
    let next = 0;
    // 25 clients at once, each taking the next hit until none is left: 25 keep-alive connections.
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next < paths.length) {
          const response = await hit(paths[next++]!);
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      }),
    );
    expect(statuses.sort()).toEqual([...Array<number>(200).fill(200), ...Array<number>(50).fill(302)]);

    await hitsFolded(api, org.orgId);
    expect(await attributesOf(org, `mailings/${mailing}`)).toMatchObject({
      state: 'opened',
      openCount: 200,
      clickCount: 50,
      openedAt: expect.any(String),
      clickedAt: expect.any(String),
    });
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ openCount: 200, clickCount: 50 });
    // One write per fold: an `updated` event and one domain event (`opened` when the fold counted
    // an open), each carrying the totals so far, so the last one a subscriber gets has them all.
    const events = await api.sql<{ action: string; open_count: number; click_count: number | null }[]>`
      select action, (payload->'data'->'attributes'->>'openCount')::int as open_count, (payload->'data'->'attributes'->>'clickCount')::int as click_count
        from events where org_id = ${org.orgId} and resource_type = 'mailing' and resource_id = ${mailing} and action in ('opened', 'clicked') order by id`;
    const updates =
      await api.sql`select id from events where org_id = ${org.orgId} and name = 'mailing_updated' and resource_id = ${mailing} and payload->'data'->'attributes' ? 'openCount'`;
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.length).toBe(updates.length);
    expect(events.at(-1)).toMatchObject({ open_count: 200, click_count: 50 });
    const opens = events.map((e) => e.open_count);
    expect(opens).toEqual([...opens].sort((a, b) => a - b));
    expect(await api.sql`select 1 from tracking_hits where org_id = ${org.orgId}`).toHaveLength(0);
  });
});

describe('a tracked link', () => {
  it('redirects to its target and counts the click', async () => {
    const org = await freshOrg(api, 'Click');
    const prospect = await prospectOf(org);
    const mailing = await deliveredMailing(org, prospect);
    const urls = urlsOf(org, mailing);
    expect(urls.body).toContain('href="mailto:rep@example.com"');
    await hit(urls.pixel);
    // Counted apart: a fold that counts an open records `opened`, else `clicked` (one event per mailing and fold).
    await hitsFolded(api, org.orgId);
    const response = await hit(urls.click);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://docs.example.com/guide?x=1&y=2');
    expect(response.headers.get('cache-control')).toBe('no-store');
    await hitsFolded(api, org.orgId);
    const after = await attributesOf(org, `mailings/${mailing}`);
    expect(after).toMatchObject({ openCount: 1, clickCount: 1, state: 'opened' });
    expect(after.clickedAt).toEqual(expect.any(String));
    expect(await eventsOf(org, 'mailing', ['mailing_opened', 'mailing_clicked'])).toEqual([
      ['mailing_clicked', mailing],
      ['mailing_opened', mailing],
    ]);
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ openCount: 1, clickCount: 1 });
  });

  it('answers forged, altered, cut and misplaced tokens with a 404 that redirects nowhere', async () => {
    const org = await freshOrg(api, 'Forged');
    const mailing = await deliveredMailing(org, await prospectOf(org));
    const { click, pixel, unsubscribe } = urlsOf(org, mailing, true);
    const token = click.slice('/t/c/'.length);
    const flipped = (i: number) => token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
    const forgedUrl = createTrackingSigner('f'.repeat(64)).sign({ kind: 'click', orgId: org.orgId, mailingId: mailing, url: 'https://evil.example/' });
    const paths = [
      `/t/c/${flipped(3)}`,
      `/t/c/${flipped(token.length - 1)}`,
      `/t/c/${token.slice(0, -2)}`,
      `/t/c/${token}x`,
      `/t/c/${forgedUrl}`,
      `/t/c/${pixel.slice('/t/o/'.length, -'.gif'.length)}`,
      `/t/o/${token}.gif`,
      `/t/o/${pixel.slice('/t/o/'.length, -'.gif'.length)}`,
      `/t/u/${token}`,
      `${unsubscribe!}/extra`,
      '/t/c/',
      '/t/c/%2F%2Fevil.example',
    ];
    for (const path of paths) {
      const response = await hit(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('location'), path).toBeNull();
    }
    await hitsFolded(api, org.orgId);
    expect(await attributesOf(org, `mailings/${mailing}`)).toMatchObject({ state: 'delivered', openCount: null, clickCount: null });
  });

  it('still answers for a mailing since deleted, and records nothing', async () => {
    const org = await freshOrg(api, 'Deleted mailing');
    const mailing = await deliveredMailing(org, await prospectOf(org));
    const urls = urlsOf(org, mailing, true);
    expect((await org.request('DELETE', `/api/v2/mailings/${mailing}`)).status).toBe(204);
    const events = (await org.request('GET', '/api/v2/events?count=true')).body.meta.count;
    expect((await hit(urls.pixel)).status).toBe(200);
    expect((await hit(urls.click)).headers.get('location')).toBe('https://docs.example.com/guide?x=1&y=2');
    expect((await hit(urls.unsubscribe!, { method: 'POST' })).status).toBe(200);
    await hitsFolded(api, org.orgId);
    expect((await org.request('GET', '/api/v2/events?count=true')).body.meta.count).toBe(events);
  });
});

describe('prospect counters', () => {
  it('start again from 0 at each touch point (a mailing delivered) and total hits over all mailings after it', async () => {
    const org = await freshOrg(api, 'Touch points');
    const prospect = await prospectOf(org);
    const first = await deliveredMailing(org, prospect);
    const touched = (await attributesOf(org, `prospects/${prospect}`)).touchedAt;
    expect(touched).toEqual(expect.any(String));
    await hit(urlsOf(org, first).pixel);
    await hit(urlsOf(org, first).click);
    await hitsFolded(api, org.orgId);
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ openCount: 1, clickCount: 1, engagedAt: expect.any(String) });

    await deliveredMailing(org, prospect);
    const reset = await attributesOf(org, `prospects/${prospect}`);
    expect(reset).toMatchObject({ openCount: 0, clickCount: 0, replyCount: 0 });
    expect(Date.parse(reset.touchedAt)).toBeGreaterThanOrEqual(Date.parse(touched));
    // An open of the earlier mailing is still an event over the prospect's mailings since then.
    await hit(urlsOf(org, first).pixel);
    await hitsFolded(api, org.orgId);
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ openCount: 1, clickCount: 0 });
    expect(await attributesOf(org, `mailings/${first}`)).toMatchObject({ openCount: 2, clickCount: 1 });
  });
});

describe('unsubscribing', () => {
  it('asks on GET, and on POST opts the prospect out of e-mail and out of their live sequences', async () => {
    const org = await freshOrg(api, 'Unsubscribe');
    const prospect = await prospectOf(org);
    const fixture = await sequenceWith(org, org.userId, 'interval', [{ stepType: 'call', interval: 60 }]);
    const enrolled = await enrol(org, prospect, fixture);
    expect(enrolled.status).toBe(201);
    const stateId = Number(enrolled.body.data.id);
    expect((await pendingSteps(api)).has(stateId)).toBe(true);
    const mailing = await deliveredMailing(org, prospect);
    const { unsubscribe } = urlsOf(org, mailing, true);

    const page = await hit(unsubscribe!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<form method="post">');
    expect(await attributesOf(org, `prospects/${prospect}`)).toMatchObject({ emailOptedOut: null });
    expect((await stateOf(org, stateId)).state).toBe('active');

    // RFC 8058's one-click POST, as a mail client sends it.
    const done = await hit(unsubscribe!, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You are unsubscribed');
    const after = await attributesOf(org, `prospects/${prospect}`);
    expect(after).toMatchObject({ emailOptedOut: true, emailsOptStatus: 'opted_out', emailsOptedAt: expect.any(String) });
    expect((await attributesOf(org, `mailings/${mailing}`)).unsubscribedAt).toEqual(expect.any(String));
    expect((await stateOf(org, stateId)).state).toBe('opted_out');
    expect((await pendingSteps(api)).has(stateId)).toBe(false);

    // Twice is once.
    expect((await hit(unsubscribe!, { method: 'POST' })).status).toBe(200);
    expect((await attributesOf(org, `prospects/${prospect}`)).emailsOptedAt).toBe(after.emailsOptedAt);
  });

  it('follows any opt-out: a PATCH of optedOut or emailOptedOut moves live states to opted_out, and leaves others', async () => {
    const org = await freshOrg(api, 'Opt-out by PATCH');
    const fixture = await sequenceWith(org, org.userId, 'interval', [{ stepType: 'call', interval: 60 }]);
    const [one, two, three] = [await prospectOf(org), await prospectOf(org), await prospectOf(org)];
    const states = [];
    for (const p of [one, two, three]) states.push(Number((await enrol(org, p, fixture)).body.data.id));
    expect((await org.request('POST', `/api/v2/sequenceStates/${states[1]}/actions/finish`)).status).toBe(200);
    for (const [p, attribute] of [
      [one, 'optedOut'],
      [two, 'emailOptedOut'],
    ] as const) {
      const response = await org.request('PATCH', `/api/v2/prospects/${p}`, { body: { data: { type: 'prospect', id: String(p), attributes: { [attribute]: true } } } });
      expect(response.status).toBe(200);
    }
    expect((await stateOf(org, states[0]!)).state).toBe('opted_out');
    expect((await stateOf(org, states[1]!)).state).toBe('finished');
    expect((await stateOf(org, states[2]!)).state).toBe('active');
  });
});

describe('logs', () => {
  it('never carry a token', async () => {
    const org = await freshOrg(api, 'Logs');
    const mailing = await deliveredMailing(org, await prospectOf(org));
    const urls = urlsOf(org, mailing, true);
    await hit(urls.pixel);
    await hit(urls.click);
    await hit(urls.unsubscribe!, { method: 'POST' });
    const tokens = [urls.pixel, urls.click, urls.unsubscribe!].map((path) => path.split('/')[3]!.replace(/\.gif$/, ''));
    const text = logLines.join('');
    expect(text).toContain('"/t/o/[token]"');
    expect(text).toContain('tracking hit');
    for (const token of tokens) expect(text).not.toContain(token.slice(-12));
  });
});
