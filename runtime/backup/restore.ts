import type { Writable } from 'node:stream';
import { once } from 'node:events';
import type postgres from 'postgres';
import { connectDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { AdminError } from '../operator/index.js';
import { openArchive, readManifest, type ArchiveReader } from './archive.js';
import { listTables, quotedColumns, quotedName, userRelationCount } from './catalog.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, END_OF_TABLE, type BackupManifest } from './manifest.js';
import { bypassRowSecurity, loadWithoutTriggers } from './operator-role.js';
import { migrationsUpTo, requireBuildable } from './schema-version.js';

export interface RestoreSummary {
  readonly in: string;
  readonly schema: BackupManifest['schema'];
  readonly tables: number;
  readonly rows: number;
}

/** Lines handed to COPY at a time: fewer, larger writes than one per row. */
const LINES_PER_WRITE = 512;

/**
 * Rebuilds a backup in the empty database at `url`: the schema of the backup (Cadence's
 * migrations up to the one it names), then every table in one transaction, with triggers and
 * foreign-key checks off (the rows were consistent when copied), the sequences where they were,
 * and jobs that were running when the copy was made released to run again. Then the migrations
 * this Cadence has beyond the backup's. A failure leaves the schema and no rows.
 */
export async function restoreBackup(url: string, options: { in: string; migrationsFolder: string }): Promise<RestoreSummary> {
  const archive = openArchive(options.in);
  try {
    const manifest = await readManifest<BackupManifest>(archive, options.in, BACKUP_FORMAT, BACKUP_FORMAT_VERSION);
    requireBuildable(manifest.schema, options.migrationsFolder);
    await requireEmptyDatabase(url);
    const upTo = await migrationsUpTo(options.migrationsFolder, manifest.schema.cadence);
    try {
      await runMigrations(url, upTo.folder);
    } finally {
      await upTo.dispose();
    }
    const sql = connectDatabase(url, { max: 1 });
    try {
      await sql.begin(async (tx) => {
        await bypassRowSecurity(tx);
        await loadWithoutTriggers(tx);
        await loadTables(tx, archive, manifest);
        for (const s of manifest.sequences) await tx`select setval(${quotedName(s.schema, s.name)}::regclass, ${s.lastValue}::bigint, ${s.isCalled})`;
        await releaseJobLocks(tx);
      });
    } finally {
      await sql.end({ timeout: 5 });
    }
    await runMigrations(url, options.migrationsFolder);
    return { in: options.in, schema: manifest.schema, tables: manifest.tables.length, rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0) };
  } finally {
    archive.close();
  }
}

/** A restore adds to nothing: the database may hold no table, view or sequence at all. */
async function requireEmptyDatabase(url: string): Promise<void> {
  const sql = connectDatabase(url, { max: 1 });
  try {
    const relations = await userRelationCount(sql);
    if (relations > 0) throw new AdminError(`the database is not empty (${relations} tables, views or sequences); restore into a new, empty database`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function loadTables(tx: postgres.TransactionSql, archive: ArchiveReader, manifest: BackupManifest): Promise<void> {
  const present = new Map((await listTables(tx)).map((t) => [t.table, t]));
  for (const table of manifest.tables) {
    const target = present.get(table.table);
    if (!target) throw new AdminError(`the backup has table ${table.table}, which the migrated database lacks`);
    const copy = await tx.unsafe(`copy ${quotedName(target.schema, target.name)} (${quotedColumns(table.columns)}) from stdin`).writable();
    const rows = await copyRows(archive, copy);
    if (rows !== table.rows) throw new AdminError(`the backup's ${table.table} has ${rows} rows where its manifest says ${table.rows}; the file is damaged`);
  }
  if ((await archive.nextLine()) !== undefined) throw new AdminError('the backup has more data than its manifest names; the file is damaged');
}

/** Feeds one table's lines to its COPY until the end-of-table line; returns how many rows went. */
async function copyRows(archive: ArchiveReader, copy: Writable): Promise<number> {
  const finished = once(copy, 'finish');
  // Surfaced through `finished` or the next write; must not be an unhandled rejection meanwhile.
  finished.catch(() => {});
  let rows = 0;
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const chunk = `${pending.join('\n')}\n`;
    pending = [];
    if (!copy.write(chunk)) await Promise.race([once(copy, 'drain'), finished]);
  };
  for (;;) {
    const line = await archive.nextLine();
    if (line === undefined) {
      copy.destroy();
      throw new AdminError('the backup ends in the middle of a table; the file is truncated');
    }
    if (line === END_OF_TABLE) break;
    pending.push(line);
    rows++;
    if (pending.length >= LINES_PER_WRITE) await flush();
  }
  await flush();
  copy.end();
  await finished;
  return rows;
}

/**
 * A job that was running when the backup was made belongs to a worker of the old deployment
 * that will never finish it: it runs again, as after a worker crash (its task is idempotent or
 * its receiver deduplicates, runtime/worker.ts).
 */
async function releaseJobLocks(tx: postgres.TransactionSql): Promise<void> {
  await tx`update graphile_worker._private_jobs set locked_at = null, locked_by = null where locked_at is not null`;
  await tx`update graphile_worker._private_job_queues set locked_at = null, locked_by = null where locked_at is not null`;
}
