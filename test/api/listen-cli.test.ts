import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptors } from '../../generated/resources/index.js';
import { restoredPayload } from '../../runtime/engine/index.js';
import { deliveryBody, type StoredEvent } from '../../runtime/webhooks/payload.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runCadence, startCadence, type RunningCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

/**
 * `cadence listen` as an operator runs it: a child process against the test database, a plain
 * HTTP receiver on loopback, records written over the HTTP API by concurrent writers, one of
 * which is held so that it commits after a write whose event has a higher id. Every event that
 * commits after listen is ready is printed and forwarded exactly once, signed with the printed
 * secret, its body byte for byte the delivery a webhook of payload version 2 would get.
 */

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let api: TestApi;
let receiver: Server;
const received: Received[] = [];
let listen: RunningCadence | undefined;

beforeAll(async () => {
  api = await startTestApi({ poolSize: 8 });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body });
      // A receiver that fails: its status is printed, and the event is not sent again.
      const document = JSON.parse(body) as { data: { attributes: { firstName?: string } }; meta: { eventName: string } };
      const refuse = document.meta.eventName === 'prospect.created' && document.data.attributes.firstName === 'Refused';
      response.writeHead(refuse ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  listen?.kill();
  await new Promise((resolve) => receiver?.close(resolve));
  await api?.close();
});

const eventIdsReceived = () => received.map((r) => (JSON.parse(r.body) as { meta: { eventId: number } }).meta.eventId);

async function createProspect(firstName: string): Promise<number> {
  const response = await api.request('POST', '/api/v2/prospects', { body: { data: { type: 'prospect', attributes: { firstName } } } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return Number(response.body.data.id);
}

async function lastEventId(resourceType: string, resourceId: number): Promise<number> {
  const [row] = await api.sql<{ id: string }[]>`
    select max(id) as id from events where org_id = ${api.org.orgId} and resource_type = ${resourceType} and resource_id = ${resourceId}`;
  return Number(row!.id);
}

/** Sets the events' id sequence so that the next event id starts a new run of 64 (a new delivery job key). */
async function nextEventsStartABlock(): Promise<number> {
  const [row] = await api.sql<{ next: string }[]>`
    select setval(pg_get_serial_sequence('events', 'id'), ((select last_value from events_id_seq) / 64 + 1) * 64) + 1 as next`;
  return Number(row!.next);
}

describe('cadence listen', () => {
  it('prints and forwards every event that commits after it is ready exactly once, signed, with late commits included', { timeout: 120_000 }, async () => {
    const { orgId } = api.org;
    // A webhook in the org gives every prospect write a keyed delivery job to enqueue last;
    // holding that job's row holds a write after it has drawn its event id.
    const webhook = await api.request('POST', '/api/v2/webhooks', {
      body: { data: { type: 'webhook', attributes: { resource: 'prospect', url: 'https://hooks.example.test/real' } } },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    const webhookId = Number(webhook.body.data.id);
    await createProspect('Before listen');
    const [before] = await api.sql<{ id: string }[]>`select max(id) as id from events where org_id = ${orgId}`;
    const lastBeforeReady = Number(before!.id);

    const port = (receiver.address() as AddressInfo).port;
    listen = startCadence(
      api.databaseUrl,
      ['listen', '--org', String(orgId), '--forward-to', `http://127.0.0.1:${port}/hook`, '--events', 'prospect.*', '--version', '2', '--json'],
      { LOG_LEVEL: 'warn' },
    );
    const ready = JSON.parse(await listen.waitForLine(/"ready":true/)) as { secret: string; payloadVersion: number; events: string };
    expect(ready).toMatchObject({ orgId, payloadVersion: 2, events: 'prospect.*' });
    expect(ready.secret).toMatch(/^[0-9a-f]{48}$/);

    // A write that draws its event id, then waits on the job row this transaction holds.
    const firstId = await nextEventsStartABlock();
    const held = await createProspect('Held');
    expect(await lastEventId('prospect', held)).toBe(firstId);
    const locker = await api.sql.reserve();
    let heldUpdate: Promise<unknown> | undefined;
    let passingEvent = 0;
    try {
      await locker`begin`;
      const locked = await locker`select id from graphile_worker._private_jobs where key = ${`webhook:${orgId}:${webhookId}:${Math.floor(firstId / 64)}`} for update`;
      expect(locked).toHaveLength(1);
      heldUpdate = api.request('PATCH', `/api/v2/prospects/${held}`, { body: { data: { type: 'prospect', id: held, attributes: { firstName: 'Held, updated' } } } });
      await until('the held update to wait for the job row', async () => {
        const [row] = await api.sql<{ waiting: number }[]>`
          select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
        return row!.waiting > 0 ? true : undefined;
      });
      // Meanwhile a write with a higher event id (another job key) commits, and is forwarded.
      await nextEventsStartABlock();
      const passing = await createProspect('Passing');
      passingEvent = await lastEventId('prospect', passing);
      expect(passingEvent).toBeGreaterThan(firstId + 1);
      await until('the passing write to be forwarded', () => (eventIdsReceived().includes(passingEvent) ? true : undefined));
      await locker`commit`;
    } finally {
      locker.release();
    }
    expect(((await heldUpdate) as { status: number }).status).toBe(200);
    const heldEvent = await lastEventId('prospect', held);
    expect(heldEvent).toBe(firstId + 1);
    await until('the late commit to be forwarded', () => (eventIdsReceived().includes(heldEvent) ? true : undefined));
    // Committed after an event with a higher id, and forwarded all the same.
    expect(heldEvent).toBeLessThan(passingEvent);
    expect(eventIdsReceived().indexOf(heldEvent)).toBeGreaterThan(eventIdsReceived().indexOf(passingEvent));

    // Concurrent writers: prospects created and updated (forwarded), accounts (not: --events).
    await Promise.all(
      Array.from({ length: 6 }, async (_, n) => {
        for (let i = 0; i < 4; i++) {
          const id = await createProspect(n === 0 && i === 0 ? 'Refused' : `Writer ${n}.${i}`);
          const updated = await api.request('PATCH', `/api/v2/prospects/${id}`, { body: { data: { type: 'prospect', id, attributes: { lastName: `No. ${i}` } } } });
          expect(updated.status).toBe(200);
          const account = await api.request('POST', '/api/v2/accounts', { body: { data: { type: 'account', attributes: { name: `Account ${n}.${i}` } } } });
          expect(account.status).toBe(201);
        }
      }),
    );
    const sentinel = await lastEventId('prospect', await createProspect('Sentinel'));
    await until('the last write to be forwarded', () => (eventIdsReceived().includes(sentinel) ? true : undefined), 30_000);

    const stopped = await listen.stop();
    expect(stopped.code, stopped.stderr).toBe(0);

    const expected = await api.sql<{ id: string; resource_type: string; resource_id: number; action: string; payload: unknown }[]>`
      select id, resource_type, resource_id, action, payload from events where org_id = ${orgId} and id > ${lastBeforeReady} and resource_type = 'prospect' order by id`;
    const expectedIds = expected.map((e) => Number(e.id));
    // 1 held create, its update, 1 passing, 24 creates and 24 updates, the sentinel.
    expect(expectedIds).toHaveLength(52);
    expect([...eventIdsReceived()].sort((a, b) => a - b)).toEqual(expectedIds);
    const lines = stopped.stdout
      .split('\n')
      .filter((line) => line.includes('"eventName"'))
      .map((line) => JSON.parse(line) as { eventId: number; eventName: string; resourceId: number; status?: number; attempts: number });
    expect(lines.map((l) => l.eventId).sort((a, b) => a - b)).toEqual(expectedIds);
    const refused = lines.filter((l) => l.status === 503);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ eventName: 'prospect.created', attempts: 1 });
    expect(lines.filter((l) => l.status !== 503).every((l) => l.status === 200)).toBe(true);

    // Each request is the delivery a webhook with the printed secret would get, checked as a receiver checks one.
    const byId = new Map(expected.map((e) => [Number(e.id), e]));
    for (const { headers, body } of received) {
      expect(headers['service-webhook-signature']).toBe(createHmac('sha256', ready.secret).update(body, 'utf8').digest('hex'));
      expect(headers['content-type']).toBe('application/vnd.api+json');
      expect(headers['service-webhook-cleanup-token']).toMatch(new RegExp(`^whc_${orgId}_`));
      const document = JSON.parse(body) as { meta: { eventId: number; deliveredAt: string; jobId: string } };
      expect(headers['service-webhook-event-id']).toBe(String(document.meta.eventId));
      expect(document.meta.jobId).toBe(`${document.meta.eventId}-0`);
      const row = byId.get(document.meta.eventId)!;
      const event: StoredEvent = {
        id: Number(row.id),
        resourceType: row.resource_type,
        resourceId: Number(row.resource_id),
        action: row.action,
        payload: restoredPayload((type) => descriptors.get(type), {
          resourceType: row.resource_type,
          action: row.action,
          payload: row.payload,
        }) as StoredEvent['payload'],
      };
      expect(body).toBe(deliveryBody(event, 2, new Date(document.meta.deliveredAt), document.meta.jobId));
    }
    const heldUpdateDelivery = JSON.parse(received.find((r) => JSON.parse(r.body).meta.eventId === heldEvent)!.body);
    expect(heldUpdateDelivery.beforeUpdate).toMatchObject({ type: 'prospect', id: held, attributes: { firstName: 'Held' } });
  });

  it('names the bad argument: a remote plain-http receiver, an unknown pattern, an unknown org, a payload version', { timeout: 120_000 }, async () => {
    const forward = ['--forward-to', 'http://127.0.0.1:9/hook'];
    const cases: [string[], RegExp][] = [
      [['--org', String(api.org.orgId), '--forward-to', 'http://hooks.example.test/hook'], /--forward-to: plain http is only sent to this machine/],
      [['--org', String(api.org.orgId), ...forward, '--events', 'prospect.exploded'], /--events: prospect has no webhook action "exploded"/],
      [['--org', '999999', ...forward], /org 999999 does not exist/],
      [['--org', String(api.org.orgId), ...forward, '--version', '3'], /--version is the payload version, 1 or 2/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCadence(api.databaseUrl, ['listen', ...args])));
    cases.forEach(([args, message], i) => {
      expect(results[i]!.stderr, args.join(' ')).toMatch(message);
      expect(results[i]!.code).toBe(2);
    });
  });
});
