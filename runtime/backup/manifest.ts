import type { SchemaVersion } from './schema-version.js';

export const BACKUP_FORMAT = 'cadence-backup';
export const BACKUP_FORMAT_VERSION = 1;

/**
 * The first line of a backup file. Each table then follows in this order: its rows as lines of
 * PostgreSQL's COPY text format, then a line `\.`.
 */
export interface BackupManifest {
  readonly format: typeof BACKUP_FORMAT;
  readonly formatVersion: number;
  /** The Cadence (package.json version) that wrote the file. */
  readonly cadenceVersion: string;
  readonly createdAt: string;
  /** The server's version, for the reader's information: the copy does not depend on it. */
  readonly postgresVersion: string;
  readonly schema: SchemaVersion;
  readonly tables: readonly { readonly table: string; readonly columns: readonly string[]; readonly rows: number }[];
  /** Each sequence's state as of the copy, `setval`'s arguments. */
  readonly sequences: readonly { readonly schema: string; readonly name: string; readonly lastValue: string; readonly isCalled: boolean }[];
}

/** The end of a table's rows, as COPY's text format writes it. */
export const END_OF_TABLE = '\\.';
