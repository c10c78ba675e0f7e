import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError } from '../../runtime/admin/index.js';
import { createApp, deleteOrg, installApp, lockOrg, uninstallApp, unlockOrg } from '../../runtime/apps/index.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { runCadence } from '../helpers/cli.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { until } from '../helpers/wait.js';
import { makeCertificate } from '../runtime/webhooks/certificates.js';
import { startReceiver, type Handler, type ReceivedRequest, type Receiver } from '../runtime/webhooks/receivers.js';

/**
 * The app lifecycle webhook end to end: install, uninstall and org deletion enqueue a job in
 * their own transaction, a real graphile-worker delivers it over real TLS to receivers on
 * 127.0.0.1 under a fake host name that an injected resolver answers. The worker runs one job
 * at a time, so jobs run in the order they were enqueued: when a later event has arrived, an
 * earlier change that should have announced nothing has had its chance to.
 */

const HOST = 'apps.example.test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let api: TestApi;
let worker: StartedWorker;
let first: Receiver;
let second: Receiver;
const logLines: string[] = [];
// Paths whose first request is dropped before any response, to make the delivery retry.
const dropFirst = new Set<string>();

beforeAll(async () => {
  const certificate = await makeCertificate('*.example.test');
  const handle: Handler = (request, response) => {
    if (request.url && dropFirst.delete(request.url)) request.socket.destroy();
    else response.end('ok');
  };
  first = await startReceiver(certificate, handle);
  second = await startReceiver(certificate, handle);
  api = await startTestApi();
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 1,
    log: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
    delivery: {
      allowedHosts: new Set([HOST]),
      ca: certificate.cert,
      resolver: async (host) => {
        if (host === HOST) return ['127.0.0.1'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    },
  });
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await first?.close();
  await second?.close();
});

interface LifecycleApp {
  appId: string;
  secret: string;
  path: string;
  receiver: Receiver;
}

async function lifecycleApp(receiver: Receiver, path: string): Promise<LifecycleApp> {
  const created = await createApp(api.sql, {
    name: `App ${path}`,
    redirectUris: [],
    oauthScopes: [],
    s2sScopes: ['prospects.read'],
    lifecycleWebhookUrl: `https://${HOST}:${receiver.port}${path}`,
  });
  return { appId: created.appId, secret: created.lifecycleWebhookSecret!, path, receiver };
}

const requestsOf = (app: Pick<LifecycleApp, 'receiver' | 'path'>) => app.receiver.requests.filter((r) => r.path === app.path);

/** Waits for the app's `count`-th delivery and returns them all, parsed. */
async function deliveries(app: Pick<LifecycleApp, 'receiver' | 'path'>, count: number): Promise<{ request: ReceivedRequest; body: any }[]> {
  const requests = await until(`${count} deliveries to ${app.path}`, () => {
    const got = requestsOf(app);
    return got.length >= count ? got : undefined;
  });
  return requests.map((request) => ({ request, body: JSON.parse(request.body.toString('utf8')) }));
}

const event = (type: string, app: LifecycleApp, installId: string, orgId: number, occurredAt: Date | string) => ({
  id: expect.stringMatching(UUID),
  type,
  occurredAt: typeof occurredAt === 'string' ? occurredAt : occurredAt.toISOString(),
  data: { appId: app.appId, installId, orgId: String(orgId) },
});

const signatureOf = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');

const loggedFor = (appId: string) => logLines.map((line) => JSON.parse(line)).filter((entry) => entry.appId === appId);

describe('registration', () => {
  it('a lifecycle URL gets a secret, shown once and stored; no URL, no secret', async () => {
    const app = await lifecycleApp(first, '/registered');
    expect(app.secret).toMatch(/^caw_[A-Za-z0-9_-]{43}$/);
    const [row] = await api.sql`select lifecycle_webhook_url, lifecycle_webhook_secret from cadence_system.apps where guid = ${app.appId}`;
    expect({ ...row }).toEqual({ lifecycle_webhook_url: `https://${HOST}:${first.port}/registered`, lifecycle_webhook_secret: app.secret });

    const plain = await createApp(api.sql, { name: 'Plain', redirectUris: [], oauthScopes: [], s2sScopes: [] });
    expect(Object.keys(plain).sort()).toEqual(['appId', 'clientId', 'clientSecret']);
  });

  it.each([
    ['http://hooks.example.com/lifecycle'],
    // Deliveries are HTTPS only, so a loopback receiver needs https too (unlike redirect URIs).
    ['http://localhost:8080/lifecycle'],
    ['https://hooks.example.com/lifecycle#part'],
    ['https://hooks.example.com/lifecycle#'],
    ['/lifecycle'],
    ['ftp://hooks.example.com/lifecycle'],
    [''],
  ])('refuses %j', async (url) => {
    const registering = createApp(api.sql, { name: 'Bad', redirectUris: [], oauthScopes: [], s2sScopes: [], lifecycleWebhookUrl: url });
    await expect(registering).rejects.toBeInstanceOf(AdminError);
    await expect(registering).rejects.toThrow(`the lifecycle webhook URL must be an absolute https URL without a fragment: ${url}`);
  });
});

describe('deliveries', () => {
  it('install: one signed application/json delivery; re-installing sends none; uninstall sends app.uninstalled', async () => {
    const app = await lifecycleApp(first, '/install');
    const org = await api.newOrg('Install org');
    const installedAt = new Date('2026-03-01T10:00:00.123Z');
    const issued = await installApp(api.sql, { appId: app.appId, orgId: org.orgId, now: installedAt });

    const [installed] = await deliveries(app, 1);
    const { request, body } = installed!;
    expect(body).toEqual(event('app.installed', app, issued.installId, org.orgId, installedAt));
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['service-webhook-signature']).toBe(signatureOf(app.secret, request.body));
    expect(request.headers['service-webhook-cleanup-token']).toBeUndefined();
    expect(request.servername).toBe(HOST);

    // Installing again only re-issues the setup token of the same install.
    const again = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    expect(again.installId).toBe(issued.installId);
    const uninstalledAt = new Date('2026-03-02T11:00:00.456Z');
    await uninstallApp(api.sql, { appId: app.appId, orgId: org.orgId, now: uninstalledAt });

    const all = await deliveries(app, 2);
    expect(all.map((d) => d.body)).toEqual([
      event('app.installed', app, issued.installId, org.orgId, installedAt),
      event('app.uninstalled', app, issued.installId, org.orgId, uninstalledAt),
    ]);
    expect(all[1]!.body.id).not.toBe(all[0]!.body.id);
    expect(all[1]!.request.headers['service-webhook-signature']).toBe(signatureOf(app.secret, all[1]!.request.body));

    // Installing after an uninstall is a new install, announced again.
    const reinstalled = await installApp(api.sql, { appId: app.appId, orgId: org.orgId, now: installedAt });
    expect(reinstalled.installId).not.toBe(issued.installId);
    const third = (await deliveries(app, 3))[2]!;
    expect(third.body).toEqual(event('app.installed', app, reinstalled.installId, org.orgId, installedAt));
  });

  it('a delivery retried after a network failure sends the same event id and bytes', async () => {
    const app = await lifecycleApp(second, '/flaky');
    dropFirst.add('/flaky');
    const org = await api.newOrg('Flaky org');
    const issued = await installApp(api.sql, { appId: app.appId, orgId: org.orgId });
    const [dropped, retried] = await deliveries(app, 2);
    expect(retried!.request.body.equals(dropped!.request.body)).toBe(true);
    expect(retried!.body).toEqual(event('app.installed', app, issued.installId, org.orgId, retried!.body.occurredAt));
    expect(retried!.request.headers['service-webhook-signature']).toBe(signatureOf(app.secret, retried!.request.body));
    expect([dropped!.request.headers['service-webhook-event-id'], retried!.request.headers['service-webhook-event-id']]).toEqual([retried!.body.id, retried!.body.id]);
    expect(retried!.request.at - dropped!.request.at).toBeGreaterThanOrEqual(900);
  });

  it('org deletion: one org.deleted to each app installed there; locking, deleting again and apps without a URL announce nothing', async () => {
    const org = await api.newOrg('Doomed org');
    const other = await api.newOrg('Surviving org');
    const appA = await lifecycleApp(first, '/delete-a');
    const appB = await lifecycleApp(second, '/delete-b');
    const gone = await lifecycleApp(first, '/delete-gone');
    const silent = await createApp(api.sql, { name: 'No lifecycle URL', redirectUris: [], oauthScopes: [], s2sScopes: [] });

    const installA = await installApp(api.sql, { appId: appA.appId, orgId: org.orgId });
    const installB = await installApp(api.sql, { appId: appB.appId, orgId: org.orgId });
    const installGone = await installApp(api.sql, { appId: gone.appId, orgId: org.orgId });
    await installApp(api.sql, { appId: silent.appId, orgId: org.orgId });
    await uninstallApp(api.sql, { appId: gone.appId, orgId: org.orgId });
    await deliveries(gone, 2);

    await lockOrg(api.sql, org.orgId);
    await unlockOrg(api.sql, org.orgId);
    await lockOrg(api.sql, org.orgId);
    const deleted = await deleteOrg(api.sql, org.orgId);
    expect(deleted.deletedAt).toEqual(expect.any(String));
    expect(await deleteOrg(api.sql, org.orgId)).toEqual(deleted);
    // A later event for appA: once it arrives, everything enqueued before it has run.
    const installOther = await installApp(api.sql, { appId: appA.appId, orgId: other.orgId });

    const toA = await deliveries(appA, 3);
    expect(toA.map((d) => d.body)).toEqual([
      event('app.installed', appA, installA.installId, org.orgId, toA[0]!.body.occurredAt),
      event('org.deleted', appA, installA.installId, org.orgId, deleted.deletedAt!),
      event('app.installed', appA, installOther.installId, other.orgId, toA[2]!.body.occurredAt),
    ]);
    expect(toA[1]!.request.headers['service-webhook-signature']).toBe(signatureOf(appA.secret, toA[1]!.request.body));
    const toB = await deliveries(appB, 2);
    expect(toB.map((d) => d.body)).toEqual([
      event('app.installed', appB, installB.installId, org.orgId, toB[0]!.body.occurredAt),
      event('org.deleted', appB, installB.installId, org.orgId, deleted.deletedAt!),
    ]);
    expect(toB[1]!.request.headers['service-webhook-signature']).toBe(signatureOf(appB.secret, toB[1]!.request.body));
    expect(requestsOf(appB)).toHaveLength(2);
    expect(requestsOf(gone).map((r) => JSON.parse(r.body.toString()).type)).toEqual(['app.installed', 'app.uninstalled']);
    expect(requestsOf(gone).map((r) => JSON.parse(r.body.toString()).data.installId)).toEqual([installGone.installId, installGone.installId]);

    // The worker logs every lifecycle job it runs: none ran for the app without a URL. A job logs
    // after its receiver has answered, so the last line may lag the last delivery a little.
    const loggedForA = await until('the worker to log the third delivery to appA', () => (loggedFor(appA.appId).length >= 3 ? loggedFor(appA.appId) : undefined));
    expect(loggedFor(silent.appId)).toEqual([]);
    expect(loggedForA.map((entry) => [entry.type, entry.outcome, entry.status])).toEqual([
      ['app.installed', 'acknowledged', 200],
      ['org.deleted', 'acknowledged', 200],
      ['app.installed', 'acknowledged', 200],
    ]);
    expect(logLines.filter((line) => line.includes(appA.secret) || line.includes(appB.secret))).toEqual([]);
  });
});

describe('cadence app create --lifecycle-url', () => {
  const cadence = (...args: string[]) => runCadence(api.databaseUrl, args);

  it('prints the lifecycle secret, which signs the deliveries of installs made with the CLI', async () => {
    const url = `https://${HOST}:${first.port}/cli`;
    const created = await cadence('app', 'create', '--name', 'CLI lifecycle', '--s2s-scopes', 'prospects.read', '--lifecycle-url', url);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const app = JSON.parse(created.stdout);
    expect(Object.keys(app).sort()).toEqual(['appId', 'clientId', 'clientSecret', 'lifecycleWebhookSecret']);
    expect(app.lifecycleWebhookSecret).toMatch(/^caw_/);

    const org = await api.newOrg('CLI lifecycle org');
    const installed = await cadence('app', 'install', '--app', app.appId, '--org', String(org.orgId));
    expect(installed).toMatchObject({ code: 0, stderr: '' });
    const [delivery] = await deliveries({ receiver: first, path: '/cli' }, 1);
    expect(delivery!.body).toMatchObject({ type: 'app.installed', data: { appId: app.appId, installId: JSON.parse(installed.stdout).installId } });
    expect(delivery!.request.headers['service-webhook-signature']).toBe(signatureOf(app.lifecycleWebhookSecret, delivery!.request.body));

    const refused = await cadence('app', 'create', '--name', 'Bad', '--lifecycle-url', 'http://hooks.example.com/x');
    expect(refused).toMatchObject({
      code: 2,
      stderr: 'cadence: the lifecycle webhook URL must be an absolute https URL without a fragment: http://hooks.example.com/x\n',
    });
  }, 120_000);
});
