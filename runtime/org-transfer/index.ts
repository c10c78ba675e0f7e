/**
 * One org out of a deployment and into another (`cadence org export`, `cadence org import`):
 * moving a tenant between databases, or handing a customer their data. The file is gzip'd
 * NDJSON (manifest.ts); which tables it carries is coverage.ts's, how ids are kept
 * org-references.ts's.
 */
import type { DatabaseEnv } from '../db/database-url.js';
import { withOperatorDatabase } from '../db/operator-database.js';
import { importOrg, type ImportSummary } from './read-import.js';
import { writeOrgExport, type ExportSummary } from './write-export.js';

export { CREDENTIAL_TABLES, LEFT_OUT_TABLES } from './coverage.js';
export { ORG_EXPORT_FORMAT, type OrgExportManifest } from './manifest.js';
export { importOrg, writeOrgExport, type ExportSummary, type ImportSummary };

export function orgExportCommand(
  env: DatabaseEnv,
  options: { orgId: number; out: string; withTokens: boolean; cadenceVersion: string; migrationsFolder: string },
): Promise<ExportSummary> {
  return withOperatorDatabase(env, { migrationsFolder: options.migrationsFolder, connections: 1 }, (sql) => writeOrgExport(sql, options));
}

export function orgImportCommand(env: DatabaseEnv, options: { in: string; withTokens: boolean; migrationsFolder: string }): Promise<ImportSummary> {
  return withOperatorDatabase(env, { migrationsFolder: options.migrationsFolder, connections: 1 }, (sql) => importOrg(sql, options));
}
