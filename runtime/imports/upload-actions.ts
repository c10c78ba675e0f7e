import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type postgres from 'postgres';
import { requireScope } from '../auth/index.js';
import type { ApiEnv } from '../engine/index.js';
import { actionParams, queryParams } from '../engine/query-params.js';
import { actionFailed, invalidQueryParameter, jsonApi } from '../jsonapi/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import { InvalidCsv, summarizeCsv, type CsvSummary, type HeaderValue } from './csv-summary.js';
import { uploadedChunks } from './upload-chunks.js';
import { UPLOAD_HEADERS } from './upload-route.js';
import { signUploadUrl, STORAGE_KEY, UPLOAD_LINK_LIFETIME_MS } from './upload-url.js';

export const UPLOAD_ACTION_PATHS = {
  generateUploadLink: '/imports/actions/generateUploadLink',
  validateUpload: '/imports/actions/validateUpload',
} as const;

export interface UploadActionOptions {
  readonly sql: postgres.Sql;
  readonly signingKey: Buffer;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
}

const SHA512_HEX = /^[0-9a-f]{128}$/i;

/**
 * POST /api/v2/imports/actions/generateUploadLink and /validateUpload (SPEC.md "CSV import"
 * steps 1 and 3), on the /api/v2 router behind bearer authentication. The upload between them
 * (upload-route.ts) needs no token: its URL is signed.
 */
export function mountUploadActions(api: Hono<ApiEnv>, options: UploadActionOptions): void {
  api.post(UPLOAD_ACTION_PATHS.generateUploadLink, (c) => generateUploadLink(c, options));
  api.post(UPLOAD_ACTION_PATHS.validateUpload, (c) => validateUpload(c, options));
}

/** A new upload link, good once for an hour. Any body is ignored: the action takes nothing. */
async function generateUploadLink(c: Context<ApiEnv>, options: UploadActionOptions): Promise<Response> {
  const { orgId, scopes } = c.get('auth');
  requireScope(scopes, 'imports', 'write');
  actionParams(queryParams(c.req.url), { requiredParams: [], optionalParams: [] });
  const storageKey = randomUUID();
  const now = options.clock();
  const expiresAt = new Date(now.getTime() + UPLOAD_LINK_LIFETIME_MS);
  await orgScopedTransaction(
    options.sql,
    orgId,
    (tx) => tx`
      insert into uploads (org_id, storage_key, state, created_at, expires_at)
      values (${orgId}, ${storageKey}, 'awaiting', ${now.toISOString()}, ${expiresAt.toISOString()})`,
  );
  const base = options.publicBaseUrl ?? new URL(c.req.url).origin;
  const uploadUrl = signUploadUrl(options.signingKey, base, { orgId, storageKey, expires: Math.floor(expiresAt.getTime() / 1000) });
  return jsonApi(c, 200, { data: { type: 'upload', attributes: { uploadUrl, storageKey, uploadHeaders: UPLOAD_HEADERS } } });
}

function uploadNotFound(detail: string) {
  return actionFailed('uploadNotFound', detail);
}

/** The storage key and hash of a validateUpload request, both required and well formed. */
function validateParams(c: Context<ApiEnv>): { storageKey: string; hash: string } {
  const params = actionParams(queryParams(c.req.url), { requiredParams: ['hash', 'storageKey'], optionalParams: [] });
  const storageKey = params.get('storageKey')!;
  const hash = params.get('hash')!;
  if (!STORAGE_KEY.test(storageKey))
    throw invalidQueryParameter('actionParams[storageKey]', 'actionParams[storageKey] must be the storageKey generateUploadLink gave, a UUID');
  if (!SHA512_HEX.test(hash)) throw invalidQueryParameter('actionParams[hash]', 'actionParams[hash] must be the SHA-512 of the file, as 128 hexadecimal digits');
  return { storageKey: storageKey.toLowerCase(), hash: hash.toLowerCase() };
}

interface UploadRow {
  state: string;
  sha512: string | null;
  recordCount: number | null;
  headers: HeaderValue[] | null;
}

/**
 * The upload's summary: from what was stored when it was validated before (and perhaps
 * imported since), else parsed from its chunks, with no transaction open while the file is
 * read, and then stored.
 */
async function summaryOf(options: UploadActionOptions, orgId: number, storageKey: string, hash: string): Promise<CsvSummary> {
  const [upload] = await orgScopedTransaction(
    options.sql,
    orgId,
    (tx) => tx<UploadRow[]>`
      select state, sha512, record_count as "recordCount", headers from uploads where org_id = ${orgId} and storage_key = ${storageKey}`,
    { readOnly: true },
  );
  if (!upload) throw uploadNotFound(`This organisation has no upload with storageKey ${storageKey}`);
  if (upload.state === 'awaiting' || upload.state === 'receiving') {
    throw uploadNotFound(`Nothing has been uploaded with storageKey ${storageKey} yet: PUT the file to its uploadUrl first, and wait for its answer`);
  }
  if (upload.sha512 !== hash) throw actionFailed('hashMismatch', `The uploaded file's SHA-512 is not ${hash}: the file was changed or cut short on the way`);
  if (upload.state !== 'uploaded' && upload.headers && upload.recordCount !== null) {
    // jsonb keeps its own key order: each pair is rebuilt in the order first answered.
    return { headerValue: upload.headers.map(({ header, value }) => ({ header, value })), recordCount: upload.recordCount };
  }
  let found: CsvSummary;
  try {
    found = await summarizeCsv(uploadedChunks(options.sql, orgId, storageKey));
  } catch (error) {
    if (error instanceof InvalidCsv) throw actionFailed('invalidCsv', error.message);
    throw error;
  }
  // Two validations at once parse alike; the first to finish stores the summary.
  await orgScopedTransaction(
    options.sql,
    orgId,
    (tx) => tx`
      update uploads set state = 'validated', record_count = ${found.recordCount}, headers = ${tx.json(found.headerValue as unknown as postgres.JSONValue)},
             validated_at = ${options.clock().toISOString()}
       where org_id = ${orgId} and storage_key = ${storageKey} and state = 'uploaded'`,
  );
  return found;
}

/**
 * Checks the uploaded file against the client's hash and parses it as CSV: 422 for an upload
 * this org does not have (another org's is the same as none), one not uploaded yet, a hash
 * that differs, or a file that is not CSV. A validated upload answers the same again from what
 * was stored.
 */
async function validateUpload(c: Context<ApiEnv>, options: UploadActionOptions): Promise<Response> {
  const { orgId, scopes } = c.get('auth');
  requireScope(scopes, 'imports', 'write');
  requireScope(scopes, 'imports', 'read');
  const { storageKey, hash } = validateParams(c);
  const summary = await summaryOf(options, orgId, storageKey, hash);
  return jsonApi(c, 200, { data: { type: 'validateUpload', attributes: { headerValue: summary.headerValue, recordCount: String(summary.recordCount) } } });
}
