import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../runtime/admin/index.js';
import { LEFT_OUT_TABLES, type OrgExportManifest } from '../../runtime/org-transfer/index.js';
import type { StartedWorker } from '../../runtime/worker.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runCadence } from '../helpers/cli.js';
import { listDocuments, listPaths, populateOrg, tableCounts, type PopulatedOrg } from '../helpers/populated-org.js';
import { MINUTE, pendingSteps, releaseDueSteps, SimulatedClock, startClockedWorker, stepsSettled } from '../helpers/sequences.js';
import { until } from '../helpers/wait.js';

/**
 * `cadence org export` and `cadence org import` (issue #29, item 3): one org of a populated
 * deployment goes to another database as a new org; every list endpoint answers the same
 * documents there, its pending sequence step runs there once, and tokens go along only when asked.
 */

let source: TestApi;
let target: TestApi;
let worker: StartedWorker | undefined;
let populated: PopulatedOrg;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cadence-org-transfer-'));
  source = await startTestApi();
  target = await startTestApi();
  populated = await populateOrg(source);
});

afterAll(async () => {
  await worker?.stop();
  await target?.close();
  await source?.close();
  await rm(folder, { recursive: true, force: true });
});

/** The manifest and the row lines of an export file. */
async function readExport(file: string): Promise<{ manifest: OrgExportManifest; rows: { table: string; row: Record<string, unknown> }[] }> {
  const [first, ...rest] = gunzipSync(await readFile(file))
    .toString('utf8')
    .trimEnd()
    .split('\n');
  return { manifest: JSON.parse(first!), rows: rest.map((line) => JSON.parse(line)) };
}

// Each CLI run starts a Node process with tsx, several seconds on a busy machine.
describe('org export and import', () => {
  it('carries every record of the org into another database as a new org, without its tokens', async () => {
    const from = source.org.orgId;
    const paths = listPaths(populated.customObject);
    const documents = await listDocuments(source, source.org.token, paths);
    const counts = await tableCounts(source.sql, from);

    const file = join(folder, 'org.cadence-export.gz');
    const exported = await runCadence(source.databaseUrl, ['org', 'export', '--org', String(from), '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const { manifest, rows } = await readExport(file);
    expect(manifest).toMatchObject({ format: 'cadence-org-export', formatVersion: 1, org: { id: from, name: 'Test org' }, withTokens: false });
    expect(manifest.schema.cadence).toMatch(/^\d{4}_/);
    // Every table with an org_id column is either in the file or left out with a reason.
    expect([...manifest.tables.map((t) => t.table), ...Object.keys(manifest.leftOut)].sort()).toEqual(Object.keys(counts).sort());
    expect(Object.keys(manifest.leftOut)).toEqual(expect.arrayContaining(Object.keys(LEFT_OUT_TABLES)));
    expect(Object.keys(manifest.leftOut)).toContain('cadence_system.access_tokens');
    for (const t of manifest.tables) expect(t.rows, t.table).toBe(counts[t.table]);
    expect(rows).toHaveLength(manifest.tables.reduce((sum, t) => sum + t.rows, 0));
    expect(new Set(rows.map((r) => r.row.org_id))).toEqual(new Set([from]));

    const imported = await runCadence(target.databaseUrl, ['org', 'import', '--in', file]);
    expect(imported.code, imported.stderr).toBe(0);
    const summary = JSON.parse(imported.stdout);
    expect(summary).toMatchObject({ fromOrgId: from, rows: rows.length, withTokens: false });
    const to = summary.orgId as number;
    expect(to).not.toBe(from);
    expect(to).not.toBe(target.org.orgId);
    console.log(
      `org round trip: org ${from} -> ${to}, ${manifest.tables.length} tables, ${rows.length} rows`,
      JSON.stringify(Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))),
    );

    const countsThere = await tableCounts(target.sql, to);
    for (const t of manifest.tables) expect(countsThere[t.table], t.table).toBe(t.rows);
    for (const t of Object.keys(manifest.leftOut)) expect(countsThere[t], t).toBe(0);

    // The old token stays behind; a token made there for the same user reads the same documents.
    expect((await target.request('GET', '/api/v2/prospects', { token: source.org.token })).status).toBe(401);
    const [{ scopes }] = await source.sql<
      [{ scopes: string[] }]
    >`select scopes from cadence_system.access_tokens where org_id = ${from} and user_id = ${source.org.userId}`;
    const { token } = await createToken(target.sql, { orgId: to, userId: source.org.userId, scopes });
    expect(await listDocuments(target, token, paths)).toEqual(documents);
    // The org's settings record has the org's id (runtime/admin/org-records.ts): here, the new one.
    const settings = await source.request('GET', `/api/v2/orgSettings/${from}`);
    const settingsThere = await target.request('GET', `/api/v2/orgSettings/${to}`, { token });
    expect(settingsThere.status).toBe(200);
    const relocated = JSON.stringify(settings.body).replaceAll(source.baseUrl, target.baseUrl).replaceAll(`/orgSettings/${from}`, `/orgSettings/${to}`);
    expect(settingsThere.body).toEqual({ ...JSON.parse(relocated), data: { ...JSON.parse(relocated).data, id: to } });

    // New records there take ids past the imported ones.
    const created = await target.request('POST', '/api/v2/prospects', { token, body: { data: { type: 'prospect', attributes: { firstName: 'Grace' } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    // The pending call step was due an hour after enrolment; two hours on, a worker there runs it, once.
    expect((await pendingSteps(target)).has(populated.stateId)).toBe(true);
    const clock = new SimulatedClock(Date.now() + 120 * MINUTE);
    worker = await startClockedWorker(target, clock);
    expect(await releaseDueSteps(target, clock)).toBeGreaterThan(0);
    const tasksOfState = async () => (await target.request('GET', `/api/v2/tasks?filter[sequenceState][id]=${populated.stateId}`, { token })).body.data;
    await until('the pending call step to make its task', async () => ((await tasksOfState()).length > 0 ? true : undefined));
    await stepsSettled(target);
    const tasks = await tasksOfState();
    expect(tasks.map((t: any) => [t.attributes.taskType, t.relationships.sequenceStep.data.id])).toEqual([['sequence_step_call', populated.callStep]]);
  }, 300_000);

  it('carries the tokens when asked, in the export and the import', async () => {
    const from = source.org.orgId;
    const without = join(folder, 'org.cadence-export.gz');
    const refused = await runCadence(target.databaseUrl, ['org', 'import', '--in', without, '--with-tokens']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^cadence: .*holds no tokens: it was exported without --with-tokens\n/);

    const file = join(folder, 'org-with-tokens.cadence-export.gz');
    const exported = await runCadence(source.databaseUrl, ['org', 'export', '--org', String(from), '--out', file, '--with-tokens']);
    expect(exported.code, exported.stderr).toBe(0);
    const imported = await runCadence(target.databaseUrl, ['org', 'import', '--in', file, '--with-tokens']);
    expect(imported.code, imported.stderr).toBe(0);
    const to = JSON.parse(imported.stdout).orgId as number;
    const read = await target.request('GET', '/api/v2/prospects', { token: source.org.token });
    expect(read.status).toBe(200);
    expect(read.body.data.length).toBeGreaterThan(0);
    const [{ org }] = await target.sql<[{ org: number }]>`select org_id::int as org from prospects where id = ${read.body.data[0].id} and org_id = ${to}`;
    expect(org).toBe(to);

    // The same tokens cannot be imported twice into one deployment: nothing is, and the message says why.
    const twice = await runCadence(target.databaseUrl, ['org', 'import', '--in', file, '--with-tokens']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(
      /^cadence: the export cannot be imported here, nothing was imported: access_tokens is unique and Key \(token_hash\)=\(\w+\) already exists\.\n/,
    );
  }, 300_000);
});
