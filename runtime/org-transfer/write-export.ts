import type postgres from 'postgres';
import { bypassRowSecurity, createArchive, listTables, quotedColumns, quotedName, schemaVersion } from '../backup/index.js';
import { AdminError } from '../operator/index.js';
import { exportedTables, leftOutTables } from './coverage.js';
import { ORG_EXPORT_FORMAT, ORG_EXPORT_FORMAT_VERSION, type OrgExportManifest } from './manifest.js';

export interface ExportSummary {
  readonly out: string;
  readonly orgId: number;
  readonly tables: number;
  readonly rows: number;
}

/** Rows fetched from PostgreSQL at a time while they are written out. */
const ROWS_PER_FETCH = 500;

/**
 * Writes every row of one org to `out`, as of one moment (one REPEATABLE READ READ ONLY
 * transaction): one NDJSON line per row, gzip'd, after a manifest naming the schema version.
 */
export async function writeOrgExport(
  sql: postgres.Sql,
  options: { orgId: number; out: string; withTokens: boolean; cadenceVersion: string; migrationsFolder: string },
): Promise<ExportSummary> {
  const archive = await createArchive(options.out);
  try {
    const manifest = await sql.begin('isolation level repeatable read read only', async (tx) => {
      await bypassRowSecurity(tx);
      const [org] = await tx<{ id: number; name: string; locked_at: string | null; created_at: string; request_limit_per_hour: number | null }[]>`
        select id, name, locked_at::text, created_at::text, request_limit_per_hour from cadence_system.orgs where id = ${options.orgId} and deleted_at is null`;
      if (!org) throw new AdminError(`org ${options.orgId} does not exist`);
      const catalog = await listTables(tx);
      const exported = exportedTables(catalog, options.withTokens);
      const counted = [];
      for (const { table, condition } of exported) {
        const [row] = await tx.unsafe<{ n: number }[]>(`select count(*)::int as n from ${quotedName(table.schema, table.name)} where org_id = $1 and ${condition}`, [
          options.orgId,
        ]);
        counted.push({ table: table.table, columns: table.columns, rows: row!.n });
      }
      const manifest: OrgExportManifest = {
        format: ORG_EXPORT_FORMAT,
        formatVersion: ORG_EXPORT_FORMAT_VERSION,
        cadenceVersion: options.cadenceVersion,
        createdAt: new Date().toISOString(),
        schema: await schemaVersion(tx, options.migrationsFolder),
        org: { id: org.id, name: org.name, lockedAt: org.locked_at, createdAt: org.created_at, requestLimitPerHour: org.request_limit_per_hour },
        withTokens: options.withTokens,
        tables: counted,
        leftOut: leftOutTables(catalog, options.withTokens),
      };
      await archive.writeLine(JSON.stringify(manifest));
      for (const { table, condition } of exported) {
        const prefix = `{"table":${JSON.stringify(table.table)},"row":`;
        const rows = tx
          .unsafe<{ row: string }[]>(
            `select row_to_json(r)::text as row from (select ${quotedColumns(table.columns)} from ${quotedName(table.schema, table.name)} where org_id = $1 and ${condition}) r`,
            [options.orgId],
          )
          .cursor(ROWS_PER_FETCH);
        for await (const batch of rows) await archive.writeLine(batch.map((r) => `${prefix}${r.row}}`).join('\n'));
      }
      return manifest;
    });
    await archive.close();
    return { out: options.out, orgId: options.orgId, tables: manifest.tables.length, rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0) };
  } catch (error) {
    await archive.abandon();
    throw error;
  }
}
