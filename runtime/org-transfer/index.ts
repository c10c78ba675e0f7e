/**
 * One org out of a deployment and into another (`cadence org export`, `cadence org import`):
 * moving a tenant between databases, or handing a customer their data. The file is gzip'd
 * NDJSON (manifest.ts); which tables it carries is coverage.ts's, how ids are kept
 * org-references.ts's.
 */
import { connectDatabase } from '../db/client.js';
import { resolveDatabase, type DatabaseEnv } from '../db/database-url.js';
import { runMigrations } from '../db/migrate.js';
import { importOrg, type ImportSummary } from './read-import.js';
import { writeOrgExport, type ExportSummary } from './write-export.js';

export { CREDENTIAL_TABLES, LEFT_OUT_TABLES } from './coverage.js';
export { ORG_EXPORT_FORMAT, type OrgExportManifest } from './manifest.js';
export { importOrg, writeOrgExport, type ExportSummary, type ImportSummary };

/** Runs `work` on the database the server would use, migrated as every command's is. */
async function onDatabase<T>(env: DatabaseEnv, migrationsFolder: string, work: (sql: ReturnType<typeof connectDatabase>) => Promise<T>): Promise<T> {
  const database = await resolveDatabase(env);
  try {
    await runMigrations(database.url, migrationsFolder);
    const sql = connectDatabase(database.url, { max: 1 });
    try {
      return await work(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  } finally {
    await database.stop();
  }
}

export function orgExportCommand(
  env: DatabaseEnv,
  options: { orgId: number; out: string; withTokens: boolean; cadenceVersion: string; migrationsFolder: string },
): Promise<ExportSummary> {
  return onDatabase(env, options.migrationsFolder, (sql) => writeOrgExport(sql, options));
}

export function orgImportCommand(env: DatabaseEnv, options: { in: string; withTokens: boolean; migrationsFolder: string }): Promise<ImportSummary> {
  return onDatabase(env, options.migrationsFolder, (sql) => importOrg(sql, options));
}
