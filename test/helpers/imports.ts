import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { OrgClient } from './bulk-actions.js';
import type { TestApi } from './api.js';
import { until } from './wait.js';

/**
 * CSV imports (issue #14) as a client does them, for test/api/import*.test.ts: the upload link,
 * the PUT of the file, its validation, the import action, and the wait for it to end.
 */

export const sha512 = (bytes: string) => createHash('sha512').update(bytes).digest('hex');

/** A file uploaded through a new link and validated: its storage key and record count. */
export interface ValidatedUpload {
  readonly storageKey: string;
  readonly recordCount: string;
}

/**
 * A new upload link. Fetched without the test client's JSON:API document check: the answer is
 * a resource without an id (SPEC.md "Upload and validation results"), which JSON:API 1.0 does not allow.
 */
export async function generateUploadLink(api: TestApi, org: OrgClient): Promise<{ uploadUrl: string; storageKey: string; uploadHeaders: Record<string, string> }> {
  const response = await fetch(`${api.baseUrl}/api/v2/imports/actions/generateUploadLink`, { method: 'POST', headers: { authorization: `Bearer ${org.token}` } });
  expect(response.status).toBe(200);
  return (await response.json()).data.attributes;
}

export async function uploadAndValidate(api: TestApi, org: OrgClient, csv: string, base = api.baseUrl): Promise<ValidatedUpload> {
  const { uploadUrl, storageKey, uploadHeaders } = await generateUploadLink(api, org);
  const uploadAt = new URL(uploadUrl);
  const put = await fetch(`${base}${uploadAt.pathname}${uploadAt.search}`, { method: 'PUT', headers: uploadHeaders, body: csv });
  expect(put.status).toBe(200);
  const validated = await fetch(`${api.baseUrl}/api/v2/imports/actions/validateUpload?actionParams[storageKey]=${storageKey}&actionParams[hash]=${sha512(csv)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.token}` },
  });
  expect(validated.status).toBe(200);
  const body = await validated.json();
  return { storageKey, recordCount: body.data.attributes.recordCount };
}

export interface StartImport {
  readonly action?: 'prospectsImport' | 'accountsImport';
  readonly mappings: Record<string, string | null>;
  readonly dupeMethod?: string;
  readonly extra?: Record<string, unknown>;
}

export function startImport(org: OrgClient, upload: ValidatedUpload, options: StartImport) {
  const attributes = {
    storageKey: upload.storageKey,
    recordCount: upload.recordCount,
    mappings: options.mappings,
    ...(options.dupeMethod && { dupeMethod: options.dupeMethod }),
    ...options.extra,
  };
  return org.request('POST', `/api/v2/imports/actions/${options.action ?? 'prospectsImport'}`, { body: { data: { type: 'import', attributes } } });
}

/** The import's attributes once it has ended (finished or failed). */
export async function importEnded(org: OrgClient, importId: string, timeoutMs = 60_000): Promise<Record<string, any>> {
  return until(
    `import ${importId} ended`,
    async () => {
      const { status, body } = await org.request('GET', `/api/v2/imports/${importId}`);
      expect(status).toBe(200);
      return body.data.attributes.state === 'progressing' ? undefined : body.data.attributes;
    },
    timeoutMs,
  );
}

/** Uploads, validates and imports `csv`, and waits for the import to end. */
export async function importCsv(api: TestApi, org: OrgClient, csv: string, options: StartImport): Promise<{ id: string; attributes: Record<string, any> }> {
  const upload = await uploadAndValidate(api, org, csv);
  const started = await startImport(org, upload, options);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.data.id as string;
  return { id, attributes: await importEnded(org, id) };
}

/** The items of the import's batch, in row order. */
export async function importItems(org: OrgClient, importId: string): Promise<any[]> {
  const batches = await org.request('GET', `/api/v2/batches?filter[contextId]=${importId}`);
  expect(batches.status).toBe(200);
  expect(batches.body.data).toHaveLength(1);
  const items: any[] = [];
  let next: string | undefined = `/api/v2/batchItems?filter[batch][id]=${batches.body.data[0].id}&page[size]=1000&sort=id`;
  while (next) {
    const page = await org.request('GET', next);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    items.push(...page.body.data.map((d: any) => d.attributes));
    next = page.body.links?.next ? new URL(page.body.links.next).pathname + new URL(page.body.links.next).search : undefined;
  }
  return items;
}
