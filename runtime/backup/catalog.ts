import type postgres from 'postgres';

/** A table as the copy commands see it: its qualified name and the columns a copy carries. */
export interface CatalogTable {
  /** `schema.name`, unquoted. */
  readonly table: string;
  readonly schema: string;
  readonly name: string;
  /** Every column but generated ones (PostgreSQL computes those and refuses values for them), in column order. */
  readonly columns: readonly string[];
  /** Whether the table has an `org_id` column: its rows belong to one org. */
  readonly orgScoped: boolean;
}

/**
 * The ledgers of applied migrations: migrations write them, so a restore that runs the
 * migrations gets them back and must not load them again.
 */
export const MIGRATION_LEDGERS: ReadonlySet<string> = new Set(['drizzle.__drizzle_migrations', 'graphile_worker.migrations']);

/** PostgreSQL's own schemas and the ones of temporary tables, which are not the deployment's. */
const SYSTEM_SCHEMA = `(n.nspname in ('pg_catalog', 'information_schema') or n.nspname like 'pg\\_%')`;

/**
 * Every table of the database outside PostgreSQL's own schemas, read from pg_catalog rather
 * than a list kept by hand, so a table a new migration adds is copied without an edit here.
 */
export async function listTables(sql: postgres.Sql | postgres.TransactionSql): Promise<CatalogTable[]> {
  const rows = await sql.unsafe<{ schema: string; name: string; columns: string[]; org_scoped: boolean }[]>(`
    select n.nspname as schema, c.relname as name,
           array_agg(a.attname::text order by a.attnum) filter (where a.attgenerated = '') as columns,
           bool_or(a.attname = 'org_id') as org_scoped
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where c.relkind in ('r', 'p') and not c.relispartition and not ${SYSTEM_SCHEMA}
     group by n.nspname, c.relname
     order by n.nspname, c.relname`);
  return rows
    .map((r) => ({ table: `${r.schema}.${r.name}`, schema: r.schema, name: r.name, columns: r.columns, orgScoped: r.org_scoped }))
    .filter((t) => !MIGRATION_LEDGERS.has(t.table));
}

/** Every sequence outside PostgreSQL's own schemas. */
export async function listSequences(sql: postgres.Sql | postgres.TransactionSql): Promise<{ schema: string; name: string }[]> {
  return sql.unsafe<{ schema: string; name: string }[]>(`
    select n.nspname as schema, c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'S' and not ${SYSTEM_SCHEMA}
     order by 1, 2`);
}

/** How many relations the database has outside PostgreSQL's own schemas: 0 for an empty one. */
export async function userRelationCount(sql: postgres.Sql): Promise<number> {
  const [row] = await sql.unsafe<{ n: number }[]>(`
    select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and not ${SYSTEM_SCHEMA}`);
  return row!.n;
}

/** `name` as a quoted SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `schema.name` of a table or sequence, quoted part by part. */
export function quotedName(schema: string, name: string): string {
  return `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
}

export function quotedColumns(columns: readonly string[]): string {
  return columns.map(quoteIdentifier).join(', ');
}
