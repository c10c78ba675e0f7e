import type { SchemaVersion } from '../backup/index.js';

export const ORG_EXPORT_FORMAT = 'cadence-org-export';
export const ORG_EXPORT_FORMAT_VERSION = 1;

/**
 * The first line of an org export. Every later line is one row, `{"table":"public.prospects",
 * "row":{...}}`, the row as PostgreSQL's row_to_json writes it (column names as keys, generated
 * columns left out), the rows of a table together, in the manifest's order of tables.
 */
export interface OrgExportManifest {
  readonly format: typeof ORG_EXPORT_FORMAT;
  readonly formatVersion: number;
  readonly cadenceVersion: string;
  readonly createdAt: string;
  /** The schema the rows are in; an import needs a database at the same one. */
  readonly schema: SchemaVersion;
  /** The org as it was: its id where it came from, name, limits and lock. */
  readonly org: { readonly id: number; readonly name: string; readonly lockedAt: string | null; readonly createdAt: string; readonly requestLimitPerHour: number | null };
  /** Whether the sign-in credentials (tokens, password hashes, invitations) are in the file. */
  readonly withTokens: boolean;
  readonly tables: readonly { readonly table: string; readonly columns: readonly string[]; readonly rows: number }[];
  /** Tables with an org_id column whose rows the file leaves out, and why. */
  readonly leftOut: Readonly<Record<string, string>>;
}
