import type postgres from 'postgres';
import { createArchive } from './archive.js';
import { listSequences, listTables, quotedColumns, quotedName } from './catalog.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, END_OF_TABLE, type BackupManifest } from './manifest.js';
import { bypassRowSecurity } from './operator-role.js';
import { schemaVersion } from './schema-version.js';

export interface BackupSummary {
  readonly out: string;
  readonly schema: BackupManifest['schema'];
  readonly tables: number;
  readonly rows: number;
}

/**
 * Writes every table of the database to `out`, all of it as of one moment: one REPEATABLE READ
 * READ ONLY transaction counts and copies each table (COPY ... TO STDOUT, streamed through gzip
 * to the file), so what a write commits during the copy is either wholly in it or not at all.
 * Writers are not blocked; the copy sees none of their changes.
 */
export async function writeBackup(sql: postgres.Sql, options: { out: string; cadenceVersion: string; migrationsFolder: string }): Promise<BackupSummary> {
  const archive = await createArchive(options.out);
  try {
    const manifest = await sql.begin('isolation level repeatable read read only', async (tx) => {
      await bypassRowSecurity(tx);
      const tables = await listTables(tx);
      const counted = [];
      for (const t of tables) {
        const [row] = await tx.unsafe<{ n: number }[]>(`select count(*)::int as n from ${quotedName(t.schema, t.name)}`);
        counted.push({ table: t.table, columns: t.columns, rows: row!.n });
      }
      const sequences = [];
      for (const s of await listSequences(tx)) {
        const [state] = await tx.unsafe<{ last_value: string; is_called: boolean }[]>(`select last_value::text, is_called from ${quotedName(s.schema, s.name)}`);
        sequences.push({ ...s, lastValue: state!.last_value, isCalled: state!.is_called });
      }
      const [server] = await tx<{ version: string }[]>`select current_setting('server_version') as version`;
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        formatVersion: BACKUP_FORMAT_VERSION,
        cadenceVersion: options.cadenceVersion,
        createdAt: new Date().toISOString(),
        postgresVersion: server!.version,
        schema: await schemaVersion(tx, options.migrationsFolder),
        tables: counted,
        sequences,
      };
      await archive.writeLine(JSON.stringify(manifest));
      for (const t of tables) {
        const rows = await tx.unsafe(`copy ${quotedName(t.schema, t.name)} (${quotedColumns(t.columns)}) to stdout`).readable();
        await archive.writeStream(rows);
        await archive.writeLine(END_OF_TABLE);
      }
      return manifest;
    });
    await archive.close();
    return { out: options.out, schema: manifest.schema, tables: manifest.tables.length, rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0) };
  } catch (error) {
    await archive.abandon();
    throw error;
  }
}
