import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCursorSecret } from '../../runtime/db/settings.js';
import { uploadSigningKey } from '../../runtime/imports/upload-url.js';
import { mailViewerQuery, mailViewerSigningKey } from '../../runtime/mail/viewer/viewer-link.js';
import { startWorker, type StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { attributesOf, create, freshOrg, type OrgClient } from '../helpers/bulk-actions.js';
import { CHROMIUM_ARGS, ensureChromium } from '../helpers/chromium.js';
import { runCadence } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

/**
 * The sandbox's mail viewer (issue #28 item 7): mailings sent by a real worker through the local
 * transport (no SMTP_URL, a mailbox without a server of its own), a link printed by the real
 * `cadence mail viewer`, and its pages opened in headless Chromium and over plain HTTP.
 */

let api: TestApi;
let worker: StartedWorker;
let browser: Browser;
let screenshots: string;
let viewer: { orgId: number; viewerUrl: string; expiresAt: string };
let sender: OrgClient;
let other: OrgClient;
let otherMessageId: number;

const HTML = 'text/html; charset=utf-8';
const POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const SCRIPTED = `<p id="greeting">Hello {{first_name}}, the script below must not run.</p>
<script>document.getElementById('greeting').textContent = 'SCRIPT RAN'; parent.document.title = 'SCRIPT RAN';</script>
<img src="data:," onerror="document.body.textContent = 'SCRIPT RAN'" onload="document.body.textContent = 'SCRIPT RAN'">`;

/** An org whose mailbox has no SMTP server, so its mail goes to the local transport, with a prospect to write to. */
async function sendingOrg(name: string, mailboxEmail: string): Promise<{ org: OrgClient; mailbox: number; prospect: number }> {
  const org = await freshOrg(api, name);
  const user = await create(org, 'users', 'user', { email: `sender${Math.random()}@cadence.test`, firstName: 'Grace', lastName: 'Hopper' });
  const mailbox = await create(org, 'mailboxes', 'mailbox', { email: mailboxEmail }, { user: { type: 'user', id: user } });
  const prospect = await create(org, 'prospects', 'prospect', { firstName: 'Ada', lastName: 'Lovelace', emails: ['ada@acme.example.test'] });
  // A new user is sent an invitation, through the local transport too: stored before anything else is sent.
  await until(`org ${org.orgId}'s invitation to be stored`, async () => ((await storedSubjects(org.orgId)).length === 1 ? true : undefined));
  return { org, mailbox, prospect };
}

async function storedSubjects(orgId: number): Promise<string[]> {
  const rows = await api.sql<{ subject: string }[]>`select subject from mail_messages where org_id = ${orgId} order by id`;
  return rows.map((r) => r.subject);
}

/** A mailing scheduled now, which the worker sends; resolves once it is delivered. */
async function sendMailing(
  f: { org: OrgClient; mailbox: number; prospect: number },
  subject: string,
  bodyHtml: string,
  tracking: { trackOpens?: boolean; trackLinks?: boolean } = {},
): Promise<void> {
  const id = await create(
    f.org,
    'mailings',
    'mailing',
    { state: 'scheduled', subject, bodyHtml, ...tracking },
    { mailbox: { type: 'mailbox', id: f.mailbox }, prospect: { type: 'prospect', id: f.prospect } },
  );
  await until(`mailing ${id} to be delivered`, async () => ((await attributesOf(f.org, `mailings/${id}`)).state === 'delivered' ? true : undefined));
}

beforeAll(async () => {
  const executablePath = ensureChromium();
  api = await startTestApi();
  worker = await startWorker({
    databaseUrl: api.databaseUrl,
    concurrency: 2,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    delivery: { allowedHosts: new Set(), resolver: async () => ['127.0.0.1'] },
    // Tracking is the worker's default: links and the open pixel point at this API.
    mail: { mailFrom: 'Cadence <cadence@cadence.test>', publicBaseUrl: api.baseUrl },
  });
  const f = await sendingOrg('Mail viewer', 'grace@sales.example.test');
  sender = f.org;
  // One after another, so that the order they were stored in is the order they were sent in.
  await sendMailing(f, 'First hello', '<p>The first one, for {{first_name}}.</p>');
  await sendMailing(
    f,
    'Second hello',
    '<h1 style="color: #1f5fbf">Hello {{first_name}} {{last_name}}</h1><p>Read <a href="https://example.test/guide">the guide</a>.</p>',
    { trackLinks: true },
  );
  await sendMailing(f, 'Third: a script', SCRIPTED, { trackOpens: true });
  // Another org's message, sent through the API (testSend of a mailbox without an SMTP server).
  const o = await sendingOrg('Other org', 'other@elsewhere.example.test');
  other = o.org;
  const sent = await other.request('POST', `/api/v2/mailboxes/${o.mailbox}/actions/testSend`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const [row] = await api.sql<{ id: string }[]>`select id from mail_messages where org_id = ${other.orgId} and subject = 'Cadence test message'`;
  otherMessageId = Number(row!.id);
  const printed = await runCadence(api.databaseUrl, ['mail', 'viewer', '--org', String(sender.orgId)], { env: { PUBLIC_BASE_URL: api.baseUrl } });
  expect(printed.code, printed.stderr).toBe(0);
  viewer = JSON.parse(printed.stdout);
  screenshots = await mkdtemp(join(tmpdir(), 'cadence-mail-viewer-'));
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await api?.close();
  // Kept when CADENCE_KEEP_SCREENSHOTS is set, for a person to look at.
  if (screenshots && !process.env.CADENCE_KEEP_SCREENSHOTS) await rm(screenshots, { recursive: true, force: true });
});

async function get(url: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A viewer URL on this API for `orgId` until `expires` (epoch seconds), signed with `key`. */
function viewerUrl(path: string, key: Buffer, orgId: number, expires: number): string {
  return `${api.baseUrl}/mail-viewer${path}?${mailViewerQuery(key, { orgId, expires })}`;
}

async function savedScreenshot(page: Page, name: string): Promise<void> {
  const path = join(screenshots, name);
  await page.screenshot({ path, fullPage: true });
  console.log(`mail viewer: screenshot at ${path}`);
  const png = await readFile(path);
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.length).toBeGreaterThan(10_000);
}

describe('cadence mail viewer', () => {
  it('prints a link to the org’s viewer on PUBLIC_BASE_URL, valid for an hour', () => {
    expect(viewer).toEqual({
      orgId: sender.orgId,
      viewerUrl: expect.stringMatching(/\/mail-viewer\?org=\d+&expires=\d+&signature=[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
    });
    expect(viewer.viewerUrl.startsWith(`${api.baseUrl}/mail-viewer?org=${sender.orgId}&`)).toBe(true);
    const lifetime = Date.parse(viewer.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(55 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000);
    expect(new URL(viewer.viewerUrl).searchParams.get('expires')).toBe(String(Date.parse(viewer.expiresAt) / 1000));
  });

  it('refuses an org that does not exist', async () => {
    const printed = await runCadence(api.databaseUrl, ['mail', 'viewer', '--org', '999999']);
    expect(printed).toMatchObject({ code: 2, stdout: '', stderr: 'cadence: org 999999 does not exist\n' });
  }, 60_000);
});

describe('the viewer in a browser', () => {
  it('lists the messages newest first, opens one with its headers and rendered HTML, and runs no script of a message', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(`${api.baseUrl}/mail-viewer`) && !request.url().startsWith('data:') && request.url() !== 'about:srcdoc')
        elsewhere.push(request.url());
    });
    await page.goto(viewer.viewerUrl);
    expect(await page.title()).toBe(`Org ${sender.orgId} · Cadence mail viewer`);
    const rows = page.locator('tbody tr');
    expect(await rows.locator('td:nth-child(4)').allTextContents()).toEqual(['Third: a script', 'Second hello', 'First hello', 'You are invited to Cadence']);
    expect(await rows.first().locator('td:nth-child(2)').textContent()).toBe('grace@sales.example.test');
    expect(await rows.first().locator('td:nth-child(3)').textContent()).toBe('ada@acme.example.test');
    await expect.poll(() => page.locator('body').textContent()).not.toContain('Other org');
    await savedScreenshot(page, 'mail-viewer-list.png');

    await page.getByRole('link', { name: 'Second hello' }).click();
    await page.waitForURL(/\/mail-viewer\/messages\/\d+\?org=/);
    expect(await page.locator('h1').first().textContent()).toBe('Second hello');
    const headers = Object.fromEntries(
      await page.locator('table.headers tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent])),
    );
    expect(headers).toMatchObject({
      From: expect.stringMatching(/<grace@sales\.example\.test>$/),
      To: expect.stringMatching(/<ada@acme\.example\.test>$/),
      Subject: 'Second hello',
      Date: expect.stringMatching(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/),
      'Message-ID': expect.stringMatching(/^<.+@sales\.example\.test>$/),
      'MIME-Version': '1.0',
    });
    const names = await page.locator('table.headers th').allTextContents();
    expect(names.slice(0, 5)).toEqual(['From', 'To', 'Subject', 'Date', 'Message-ID']);
    const frame = page.frameLocator('iframe[sandbox]');
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Hello Ada Lovelace');
    expect(await frame.locator('h1').evaluate((h) => getComputedStyle(h).color)).toBe('rgb(31, 95, 191)');
    expect(await page.locator('pre.text-body').textContent()).toContain('Hello Ada Lovelace');
    await savedScreenshot(page, 'mail-viewer-message.png');
    // Its link goes through tracking (/t/c/…): followed in the frame, the policy refuses it, so no click is recorded.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/^Framing '.*' violates/.test(message.text())) refused.push(message.text());
    });
    await frame.getByRole('link', { name: 'the guide' }).click();
    await until('the policy to refuse the link in the frame', () => (refused.length > 0 ? true : undefined));
    expect(refused[0]).toContain(`${api.baseUrl}/t/`);

    await page.getByRole('link', { name: '← All messages' }).click();
    await page.getByRole('link', { name: 'Third: a script' }).click();
    await page.waitForURL(/\/mail-viewer\/messages\/\d+\?org=/);
    // What the frame shows: the paragraph as written (a script's own source is not shown).
    await expect.poll(async () => (await frame.locator('body').innerText()).trim()).toBe('Hello Ada, the script below must not run.');
    expect(await page.title()).toBe('Third: a script · Cadence mail viewer');
    await savedScreenshot(page, 'mail-viewer-script.png');
    // The tracking pixel and the message's links point at the API's /t/ routes: viewing loads none of them.
    expect(elsewhere).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the viewer over HTTP', () => {
  it('serves its pages as HTML under a policy that allows no script, with no cache', async () => {
    const list = await get(viewer.viewerUrl);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe(HTML);
    expect(list.headers.get('content-security-policy')).toBe(POLICY);
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(list.headers.get('referrer-policy')).toBe('no-referrer');
    const links = [...list.text.matchAll(/href="(\/mail-viewer\/messages\/[^"]+)"/g)].map((m) => m[1]!.replace(/&#38;/g, '&'));
    expect(links).toHaveLength(4);
    const message = await get(`${api.baseUrl}${links[0]}`);
    expect(message.status).toBe(200);
    expect(message.headers.get('content-security-policy')).toBe(POLICY);
    // The message's HTML is only ever in the sandboxed frame's srcdoc, escaped.
    expect(message.text).not.toContain('<script>');
    expect(message.text).toContain('<iframe sandbox title="The message\'s HTML" referrerpolicy="no-referrer" srcdoc="');
    expect(message.text).toContain('&#60;script&#62;document.getElementById(&#39;greeting&#39;)');
    // The tracking pixel stays in the frame's HTML, its source renamed so that nothing fetches it.
    expect(message.text).toMatch(new RegExp(`&#60;img data-blocked-src=&#34;${api.baseUrl.replace(/[.]/g, '\\.')}/t/`));
    expect(message.text).not.toMatch(/&#60;img src=&#34;http/);
  });

  it('refuses an expired, forged or altered link with a 403 page', async () => {
    const key = mailViewerSigningKey(await loadCursorSecret(api.sql));
    const now = Math.floor(Date.now() / 1000);
    const valid = new URL(viewer.viewerUrl);
    const signature = valid.searchParams.get('signature')!;
    const altered = (name: string, value: string) => {
      const url = new URL(viewer.viewerUrl);
      url.searchParams.set(name, value);
      return url.toString();
    };
    const refused = {
      expired: viewerUrl('', key, sender.orgId, now - 1),
      'expired message': viewerUrl('/messages/1', key, sender.orgId, now - 1),
      'another org': altered('org', String(other.orgId)),
      'a later expiry': altered('expires', String(now + 86_400)),
      'a changed signature': altered('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`),
      'no signature': `${api.baseUrl}/mail-viewer?org=${sender.orgId}&expires=${now + 60}`,
      'no query': `${api.baseUrl}/mail-viewer`,
      'a malformed org': altered('org', '01'),
      'the upload key': viewerUrl('', uploadSigningKey(await loadCursorSecret(api.sql)), sender.orgId, now + 60),
    };
    for (const [what, url] of Object.entries(refused)) {
      const page = await get(url);
      expect([what, page.status, page.headers.get('content-type'), page.headers.get('content-security-policy')]).toEqual([what, 403, HTML, POLICY]);
      expect(page.text).toMatch(what.startsWith('expired') ? /This link has expired/ : /Not a valid link/);
      expect(page.text).not.toContain('hello');
    }
  });

  it('never shows another org’s message: a 404 page', async () => {
    const key = mailViewerSigningKey(await loadCursorSecret(api.sql));
    const later = Math.floor(Date.now() / 1000) + 600;
    const theirs = await get(viewerUrl(`/messages/${otherMessageId}`, key, sender.orgId, later));
    expect([theirs.status, theirs.headers.get('content-type')]).toEqual([404, HTML]);
    expect(theirs.text).toContain(`Org ${sender.orgId} has no stored mail message ${otherMessageId}.`);
    expect(theirs.text).not.toContain('Cadence test message');
    // Their own link shows it.
    const own = await get(viewerUrl(`/messages/${otherMessageId}`, key, other.orgId, later));
    expect(own.status).toBe(200);
    expect(own.text).toContain('Cadence test message');
    for (const id of ['0', 'abc', '99999999999999999999']) {
      const page = await get(viewerUrl(`/messages/${id}`, key, sender.orgId, later));
      expect([id, page.status, page.headers.get('content-type')]).toEqual([id, 404, HTML]);
    }
  });
});
