import type { Context, Hono } from 'hono';
import type postgres from 'postgres';
import { requireScope } from '../auth/index.js';
import { chargeAllowance, type AllowanceOptions } from '../bulk/allowance.js';
import { recordResponder } from '../bulk/batch-response.js';
import type { ApiEnv, Behaviours, RecordWriter } from '../engine/index.js';
import { queryParams, rejectUnknownParams } from '../engine/query-params.js';
import { actorOf } from '../engine/responses.js';
import { ApiError, jsonApi, parseRequestBody } from '../jsonapi/index.js';
import { orgScopedTransaction } from '../tenancy/index.js';
import type { HeaderValue } from './csv-summary.js';
import { parseImportRequest } from './import-request.js';
import { createImport } from './import-store.js';
import { IMPORT_ACTIONS, IMPORT_SUBJECTS, type ImportAction } from './import-subjects.js';
import { resolveMappings } from './mappings.js';

export interface ImportRouteOptions {
  readonly sql: postgres.Sql;
  readonly writer: RecordWriter;
  readonly allowance: AllowanceOptions;
  readonly behaviours: Behaviours;
  readonly publicBaseUrl: string | undefined;
  readonly clock: () => Date;
}

export const IMPORT_ACTION_PATHS: Readonly<Record<ImportAction, string>> = {
  prospectsImport: '/imports/actions/prospectsImport',
  accountsImport: '/imports/actions/accountsImport',
};

function refusedUpload(id: string, detail: string, attribute = 'storageKey'): ApiError {
  return new ApiError(422, [{ id, status: '422', title: 'Unprocessable Entity', detail, source: { pointer: `/data/attributes/${attribute}` } }]);
}

interface UploadRow {
  state: string;
  recordCount: number | null;
  headers: HeaderValue[] | null;
  byteSize: number | null;
}

/**
 * POST /api/v2/imports/actions/prospectsImport and /accountsImport (SPEC.md "CSV import" step
 * 4): checks the request against the validated upload (its record count, its headers for the
 * mappings), takes the rows from the org's daily bulk allowance, and creates the import, its
 * batch and its job in one transaction. Answers 200 with the import, `progressing`; the rows
 * are written by the job (import-task.ts). An upload is imported once.
 */
export function mountImportActions(api: Hono<ApiEnv>, options: ImportRouteOptions): void {
  const imports = recordResponder('import', options);
  const start = (action: ImportAction) => async (c: Context<ApiEnv>) => {
    const auth = c.get('auth');
    // SPEC.md "CSV import" rule 6.
    requireScope(auth.scopes, 'imports', 'write');
    requireScope(auth.scopes, 'imports', 'read');
    rejectUnknownParams(queryParams(c.req.url), () => false, 'on an import action');
    const request = parseImportRequest(parseRequestBody(await c.req.text()));
    const subject = IMPORT_SUBJECTS.get(action)!;
    const now = options.clock();
    const { row, headers } = await orgScopedTransaction(options.sql, auth.orgId, async (tx) => {
      const [upload] = await tx<UploadRow[]>`
        select state, record_count as "recordCount", headers, byte_size as "byteSize"
          from uploads where org_id = ${auth.orgId} and storage_key = ${request.storageKey}
           for update`;
      if (!upload) throw refusedUpload('uploadNotFound', `This organisation has no upload with storageKey ${request.storageKey}`);
      if (upload.state === 'awaiting' || upload.state === 'uploaded') {
        throw refusedUpload('uploadNotValidated', 'This upload has not been validated: call validateUpload with its storageKey and hash first');
      }
      if (upload.state !== 'validated') throw refusedUpload('uploadAlreadyImported', 'This upload has been imported already; upload the file again to import it again');
      if (upload.recordCount !== request.recordCount) {
        throw refusedUpload(
          'recordCountMismatch',
          `recordCount is ${request.recordCount}, but validateUpload counted ${upload.recordCount} rows in the file`,
          'recordCount',
        );
      }
      const csvHeaders = (upload.headers ?? []).map((h) => h.header);
      resolveMappings(subject.descriptor, csvHeaders, request.mappings);
      const importId = await createImport(tx, options.writer, {
        orgId: auth.orgId,
        action,
        resourceType: subject.descriptor.type,
        importType: subject.importType,
        storageKey: request.storageKey,
        fileSize: upload.byteSize ?? 0,
        recordCount: request.recordCount,
        dupeMethod: request.dupeMethod,
        mappings: request.mappings,
        descriptive: request.descriptive,
        actor: actorOf(c),
        now,
      });
      // Last, so the allowance's row is locked for as short a time as possible.
      const headers = await chargeAllowance(tx, auth.orgId, request.recordCount, now, options.allowance);
      return { row: await imports.read(tx, auth.orgId, importId), headers };
    });
    return jsonApi(c, 200, { data: imports.render(c, row) }, headers);
  };
  for (const action of IMPORT_ACTIONS) api.post(IMPORT_ACTION_PATHS[action], start(action));
}
