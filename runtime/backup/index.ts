/**
 * Backup and restore of a whole deployment (`cadence backup`, `cadence restore`): a logical copy
 * made inside one snapshot, so it needs no pg_dump (the embedded server ships none, and a
 * pg_dump older than the server refuses to dump it) and works on any PostgreSQL Cadence runs on.
 * The catalog, archive and schema-version parts are shared with runtime/org-transfer.
 */
import { resolveDatabase, type DatabaseEnv } from '../db/database-url.js';
import { withOperatorDatabase } from '../db/operator-database.js';
import { restoreBackup, type RestoreSummary } from './restore.js';
import { writeBackup, type BackupSummary } from './write-backup.js';

export { createArchive, openArchive, readManifest, type ArchiveReader, type ArchiveWriter } from './archive.js';
export { listSequences, listTables, quotedColumns, quotedName, quoteIdentifier, type CatalogTable } from './catalog.js';
export { bypassRowSecurity, loadWithoutTriggers } from './operator-role.js';
export { requireBuildable, schemaVersion, type SchemaVersion } from './schema-version.js';
export { restoreBackup, writeBackup, type BackupSummary, type RestoreSummary };

/** `cadence backup --out FILE`: the database the server would use, embedded or DATABASE_URL. */
export function backupCommand(env: DatabaseEnv, options: { out: string; cadenceVersion: string; migrationsFolder: string }): Promise<BackupSummary> {
  // Not migrated first: a backup copies the database as it finds it.
  return withOperatorDatabase(env, { connections: 1 }, (sql) => writeBackup(sql, options));
}

/** `cadence restore --in FILE`: into that database, which must be empty. */
export async function restoreCommand(env: DatabaseEnv, options: { in: string; migrationsFolder: string }): Promise<RestoreSummary> {
  const database = await resolveDatabase(env);
  try {
    return await restoreBackup(database.url, options);
  } finally {
    await database.stop();
  }
}
