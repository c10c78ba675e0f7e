import type postgres from 'postgres';
import {
  bypassRowSecurity,
  listTables,
  loadWithoutTriggers,
  openArchive,
  quotedColumns,
  quotedName,
  readManifest,
  schemaVersion,
  type ArchiveReader,
  type CatalogTable,
} from '../backup/index.js';
import { AdminError } from '../operator/index.js';
import { wakeRunnerAt } from '../sequences/index.js';
import { CREDENTIAL_TABLES } from './coverage.js';
import { ORG_EXPORT_FORMAT, ORG_EXPORT_FORMAT_VERSION, type OrgExportManifest } from './manifest.js';
import { withNewOrg } from './org-references.js';

export interface ImportSummary {
  readonly in: string;
  /** The org's id in the file and its id here. */
  readonly fromOrgId: number;
  readonly orgId: number;
  readonly tables: number;
  readonly rows: number;
  readonly withTokens: boolean;
}

/** Rows inserted per statement. */
const ROWS_PER_INSERT = 500;

const UNIQUE_VIOLATION = '23505';

/**
 * Loads an org export into this deployment as a new org, in one transaction: a new org id,
 * every record keeping its id (see org-references.ts), triggers off as in a restore (the rows
 * come with their counters and import keys). The id sequences are moved past the ids loaded,
 * and the step runner is woken for the steps the org has due, so its sequences go on here.
 */
export async function importOrg(sql: postgres.Sql, options: { in: string; withTokens: boolean; migrationsFolder: string }): Promise<ImportSummary> {
  const archive = openArchive(options.in);
  try {
    const manifest = await readManifest<OrgExportManifest>(archive, options.in, ORG_EXPORT_FORMAT, ORG_EXPORT_FORMAT_VERSION);
    if (options.withTokens && !manifest.withTokens) throw new AdminError(`${options.in} holds no tokens: it was exported without --with-tokens`);
    return await sql.begin(async (tx) => {
      await bypassRowSecurity(tx);
      await loadWithoutTriggers(tx);
      const here = await schemaVersion(tx, options.migrationsFolder);
      if (here.cadence !== manifest.schema.cadence || here.worker !== manifest.schema.worker) {
        throw new AdminError(
          `the export's schema is ${describe(manifest.schema)} and this database's ${describe(here)}; import with the same Cadence version as the export's (${manifest.cadenceVersion}), or export again from one at this database's`,
        );
      }
      const [org] = await tx<{ id: number }[]>`
        insert into cadence_system.orgs (name, locked_at, created_at, request_limit_per_hour)
        values (${manifest.org.name}, ${manifest.org.lockedAt}, ${manifest.org.createdAt}, ${manifest.org.requestLimitPerHour}) returning id`;
      const orgId = org!.id;
      const loaded = await loadRows(tx, archive, manifest, { from: manifest.org.id, to: orgId, withTokens: options.withTokens });
      await moveSequencesPast(tx, loaded);
      const due = await tx<{ due_at: Date }[]>`select distinct due_at from sequence_steps_due where org_id = ${orgId}`;
      await wakeRunnerAt(
        tx,
        orgId,
        due.map((d) => d.due_at),
      );
      const rows = manifest.tables.filter((t) => loaded.some((l) => l.table === t.table)).reduce((sum, t) => sum + t.rows, 0);
      return { in: options.in, fromOrgId: manifest.org.id, orgId, tables: loaded.length, rows, withTokens: options.withTokens };
    });
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      const { detail, table_name: table } = error as { detail?: string; table_name?: string };
      throw new AdminError(`the export cannot be imported here, nothing was imported: ${table ?? 'a table'} is unique and ${detail ?? 'a value is taken'}`);
    }
    throw error;
  } finally {
    archive.close();
  }
}

function describe(version: { cadence: string; worker: number }): string {
  return `migration ${version.cadence} (job queue ${version.worker})`;
}

/** Inserts the file's rows table by table; returns the tables loaded. */
async function loadRows(
  tx: postgres.TransactionSql,
  archive: ArchiveReader,
  manifest: OrgExportManifest,
  org: { from: number; to: number; withTokens: boolean },
): Promise<CatalogTable[]> {
  const present = new Map((await listTables(tx)).map((t) => [t.table, t]));
  const expected = new Map(manifest.tables.map((t) => [t.table, t]));
  const counts = new Map<string, number>();
  const loaded = new Set<string>();
  let batch: { table: string; rows: Record<string, unknown>[] } | undefined;
  const flush = async () => {
    if (!batch || batch.rows.length === 0) return;
    const target = present.get(batch.table)!;
    const columns = quotedColumns(expected.get(batch.table)!.columns);
    const name = quotedName(target.schema, target.name);
    await tx.unsafe(`insert into ${name} (${columns}) overriding system value select ${columns} from jsonb_populate_recordset(null::${name}, $1::text::jsonb)`, [
      JSON.stringify(batch.rows),
    ]);
    batch.rows = [];
  };
  for (let line = await archive.nextLine(); line !== undefined; line = await archive.nextLine()) {
    const { table, row } = parseRowLine(line);
    if (!expected.has(table)) throw new AdminError(`the export has rows of ${table}, which its manifest does not name; the file is damaged`);
    if (!present.has(table)) throw new AdminError(`the export has table ${table}, which this database lacks`);
    counts.set(table, (counts.get(table) ?? 0) + 1);
    if (!org.withTokens && Object.hasOwn(CREDENTIAL_TABLES, table)) continue;
    if (batch?.table !== table) {
      await flush();
      batch = { table, rows: [] };
    }
    loaded.add(table);
    batch.rows.push(withNewOrg(table, row, org.from, org.to));
    if (batch.rows.length >= ROWS_PER_INSERT) await flush();
  }
  await flush();
  for (const t of manifest.tables) {
    if ((counts.get(t.table) ?? 0) !== t.rows)
      throw new AdminError(`the export's ${t.table} has ${counts.get(t.table) ?? 0} rows where its manifest says ${t.rows}; the file is damaged`);
  }
  return [...loaded].map((t) => present.get(t)!);
}

function parseRowLine(line: string): { table: string; row: Record<string, unknown> } {
  try {
    const parsed = JSON.parse(line) as { table?: unknown; row?: unknown };
    if (typeof parsed.table === 'string' && parsed.row && typeof parsed.row === 'object') return parsed as { table: string; row: Record<string, unknown> };
  } catch {
    // Reported below, with the rest of the malformed lines.
  }
  throw new AdminError(`the export has a line that is no {"table","row"} object: ${line.slice(0, 80)}`);
}

/**
 * Ids come from sequences shared by every org of the deployment: each sequence behind a column
 * of a loaded table moves past the largest value loaded, so the records made here later never
 * take an id the imported org already has.
 */
async function moveSequencesPast(tx: postgres.TransactionSql, tables: readonly CatalogTable[]): Promise<void> {
  for (const t of tables) {
    const name = quotedName(t.schema, t.name);
    const owned = await tx<{ column: string; sequence: string }[]>`
      select a.attname as column, pg_get_serial_sequence(${name}, a.attname) as sequence
        from pg_attribute a where a.attrelid = ${name}::regclass and a.attnum > 0 and not a.attisdropped
         and pg_get_serial_sequence(${name}, a.attname) is not null`;
    for (const { column, sequence } of owned) {
      await tx.unsafe(
        `select setval($1::regclass, m) from (select max(${quotedColumns([column])}) as m from ${name}) s
          where m > (select case when is_called then last_value else last_value - 1 end from ${sequence})`,
        [sequence],
      );
    }
  }
}
