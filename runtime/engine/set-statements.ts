import type postgres from 'postgres';
import type { ResourceDescriptor } from '../model/descriptor.js';
import { partitionPredicate, quoteIdent, selectList, selectListOf } from '../model/sql-text.js';
import type { Transaction } from '../tenancy/index.js';
import { orgNowSql } from '../tenancy/org-time.js';
import type { ColumnValue } from './record-rules.js';
import type { Reference } from './records.js';
import type { Row } from './render.js';
import { mergeRows, rowsFromValues } from './row-view.js';

/**
 * The statements of a set write: each touches every record of the set at once. Values travel
 * as one JSON parameter that PostgreSQL turns into rows (jsonb_to_record), each column read as
 * its own type, named from the catalog, so no cast list is kept here. The JSON is wrapped in an
 * object: postgres.js would send a bare array as a PostgreSQL array.
 */

type Lock = 'update' | 'delete';

/**
 * Reads and locks the org's records among `ids`, in id order so that two set writes over
 * overlapping records take their locks in the same order and cannot deadlock. An update takes
 * FOR NO KEY UPDATE (it changes no key, and does not block foreign-key checks of rows that
 * refer to it); a delete FOR UPDATE, so new references wait until the delete is decided.
 */
export async function lockRows(tx: Transaction, descriptor: ResourceDescriptor, orgId: number, ids: readonly number[], lock: Lock): Promise<Map<number, Row>> {
  if (ids.length === 0) return new Map();
  const rows = await wideRows(
    tx.unsafe(
      `select ${selectList(descriptor)} from ${quoteIdent(descriptor.table)}
        where "org_id" = $1 and "id" = any($2::bigint[])${partitionPredicate(descriptor)}
        order by "id" for ${lock === 'update' ? 'no key update' : 'update'}`,
      [orgId, ids] as never[],
      { prepare: true },
    ),
  );
  return new Map(rows.map((row) => [Number(row.id), row]));
}

/**
 * A statement's rows of whole records, read as arrays and made objects by a compiled literal
 * (rowsFromValues in row-view.ts): a record of 250 columns as postgres.js builds it is slow to
 * build and to read. `nulls`: columns not read, named with null.
 */
async function wideRows(query: postgres.PendingQuery<postgres.Row[]>, nulls?: readonly string[]): Promise<Row[]> {
  const values = await query.values();
  if (values.length === 0) return [];
  return rowsFromValues(
    values.columns.map((c) => c.name),
    values,
    nulls,
  ) as Row[];
}

/** Rows of column values, keyed by column name, in one JSON parameter. */
function jsonRows(rows: readonly (readonly ColumnValue[])[], id?: readonly number[]): { rows: Record<string, unknown>[] } {
  return {
    rows: rows.map((values, i) => {
      const row: Record<string, unknown> = id ? { id: id[i] } : {};
      for (const v of values) row[v.column] = v.value;
      return row;
    }),
  };
}

/**
 * The rows of the JSON parameter $2, as `e` (their order, `e.ord`) and `r` (their values): only
 * the columns named, each of its type. Reading the table's whole row type instead
 * (jsonb_populate_record) builds every column of every row: a prospect has 250, and that took a
 * quarter of a 250-row insert's time. Without the catalog, the whole row type it is.
 */
function rowsOf(table: string, catalog: TableCatalog | undefined, columns: readonly string[]): string {
  const elements = `jsonb_array_elements($2::jsonb->'rows') with ordinality as e(value, ord)`;
  // A record created with nothing given (every column its default) reads no values.
  if (columns.length === 0) return elements;
  const types = catalog && columns.map((c) => catalog.types.get(c));
  if (!types || types.some((t) => t === undefined)) return `${elements} cross join lateral jsonb_populate_record(null::${table}, e.value) as r`;
  return `${elements} cross join lateral jsonb_to_record(e.value) as r(${columns.map((c, i) => `${quoteIdent(c)} ${types[i]!}`).join(', ')})`;
}

/**
 * Inserts rows that set the same `columns` (others take their defaults) and returns them in
 * the order given: rows are inserted in that order and ids drawn as they are, so ascending
 * ids follow it. What comes back is what the insert can have set: the columns given and those
 * PostgreSQL fills itself; every other field of the row is null without being read back (a
 * prospect has 250 columns, an import sets ten: RETURNING all of them took half the insert's
 * time and most of the writer's time parsing rows).
 */
export async function insertRows(
  tx: Transaction,
  descriptor: ResourceDescriptor,
  orgId: number,
  columns: readonly string[],
  rows: readonly (readonly ColumnValue[])[],
): Promise<Row[]> {
  const table = quoteIdent(descriptor.table);
  const partition = descriptor.partition;
  const stamped = stampedColumns(descriptor, columns);
  const targets = ['"org_id"', ...(partition ? [quoteIdent(partition.column)] : []), ...columns.map(quoteIdent), ...stamped.map(quoteIdent)];
  const sources = ['$1', ...(partition ? [String(Number(partition.value))] : []), ...columns.map((c) => `r.${quoteIdent(c)}`), ...stamped.map(() => orgNowSql())];
  const catalog = await tableCatalog(tx, descriptor.table);
  const given = new Set([...columns, ...stamped]);
  const { list, omitted } =
    catalog?.rewrittenOnInsert === false ? selectListOf(descriptor, (c) => given.has(c) || catalog.filledOnInsert.has(c)) : { list: selectList(descriptor), omitted: [] };
  const inserted = await wideRows(
    tx.unsafe(
      `insert into ${table} (${targets.join(', ')}) select ${sources.join(', ')} from ${rowsOf(table, catalog, columns)} order by e.ord returning ${list}`,
      [orgId, jsonRows(rows)] as never[],
      { prepare: true },
    ),
    omitted,
  );
  return inserted.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * What PostgreSQL itself writes into a table's rows, read from the catalog once per table and
 * process: only a migration changes it, and the service runs after its migrations.
 */
interface TableCatalog {
  /** Columns filled on insert without being given: a default, an identity, a generated column. */
  readonly filledOnInsert: ReadonlySet<string>;
  /** Each column's type, as SQL names it (`text[]`, `timestamp(3) with time zone`). */
  readonly types: ReadonlyMap<string, string>;
  /** Generated columns, which an update of the columns they are computed from changes. */
  readonly generated: ReadonlySet<string>;
  /** A BEFORE INSERT (UPDATE) row trigger could set any column: such rows are read back whole. */
  readonly rewrittenOnInsert: boolean;
  readonly rewrittenOnUpdate: boolean;
}

const catalogs = new Map<string, Promise<TableCatalog>>();

/** The table's catalog; undefined when it could not be read (every field is then read back). */
async function tableCatalog(tx: Transaction, table: string): Promise<TableCatalog | undefined> {
  let catalog = catalogs.get(table);
  if (!catalog) {
    // pg_trigger.tgtype bits: 1 row, 2 before, 4 insert, 16 update.
    catalog = tx
      .unsafe<[{ filled: string[]; generated: string[]; types: Record<string, string>; on_insert: boolean; on_update: boolean }]>(
        `select (select json_object_agg(attname, format_type(atttypid, atttypmod)) from pg_attribute
                  where attrelid = $1::regclass and attnum > 0 and not attisdropped) as types,
                array(select attname::text from pg_attribute
                       where attrelid = $1::regclass and attnum > 0 and not attisdropped
                         and (atthasdef or attidentity <> '' or attgenerated <> '')) as filled,
                array(select attname::text from pg_attribute
                       where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated <> '') as generated,
                exists(select 1 from pg_trigger where tgrelid = $1::regclass and not tgisinternal and tgtype & 7 = 7) as on_insert,
                exists(select 1 from pg_trigger where tgrelid = $1::regclass and not tgisinternal and tgtype & 19 = 19) as on_update`,
        [quoteIdent(table)] as never[],
      )
      .then(([row]) => ({
        types: new Map(Object.entries(row.types)),
        filledOnInsert: new Set(row.filled),
        generated: new Set(row.generated),
        rewrittenOnInsert: row.on_insert,
        rewrittenOnUpdate: row.on_update,
      }));
    catalogs.set(table, catalog);
    catalog.catch(() => catalogs.delete(table));
  }
  return catalog.catch(() => undefined);
}

/**
 * The record's own times that an insert writes itself: none in real time (the columns' default,
 * the transaction's time, stamps them); created and updated at in an org whose sandbox clock is
 * ahead (tenancy/org-time.ts), which no column default knows of.
 */
function stampedColumns(descriptor: ResourceDescriptor, columns: readonly string[]): string[] {
  if (orgNowSql() === 'now()') return [];
  return descriptor.attributes.filter((a) => (a.name === 'createdAt' || a.name === 'updatedAt') && !columns.includes(a.column)).map((a) => a.column);
}

/**
 * Updates records that set the same `columns`, each to its own values (`rows`, in the order of
 * `current`); updatedAt becomes the transaction's time. `current` holds each record's row as
 * locked and read in this transaction: the update reads back only what it changes (the columns
 * set, updated_at, generated columns) and the rest of each row is the locked one's, which nothing
 * else can have changed meanwhile. Returns the rows as stored, by id. Each record appears at most once.
 */
export async function updateRows(
  tx: Transaction,
  descriptor: ResourceDescriptor,
  orgId: number,
  columns: readonly string[],
  rows: readonly (readonly ColumnValue[])[],
  current: readonly Row[],
): Promise<Map<number, Row>> {
  const ids = current.map((row) => Number(row.id));
  const table = quoteIdent(descriptor.table);
  // The source's columns are renamed so that RETURNING's unqualified names mean the table's.
  const sets = columns.map((c, i) => `${quoteIdent(c)} = s."__v${i}"`);
  const touched = new Set(columns);
  if (descriptor.attributes.some((a) => a.name === 'updatedAt')) {
    sets.push(`"updated_at" = ${orgNowSql()}`);
    touched.add('updated_at');
  }
  const catalog = await tableCatalog(tx, descriptor.table);
  const { list } = catalog?.rewrittenOnUpdate === false ? selectListOf(descriptor, (c) => touched.has(c) || catalog.generated.has(c)) : { list: selectList(descriptor) };
  const source = [`r."id" as "__id"`, ...columns.map((c, i) => `r.${quoteIdent(c)} as "__v${i}"`)].join(', ');
  const updated = await tx.unsafe<Row[]>(
    `update ${table} set ${sets.join(', ')} from (select ${source} from ${rowsOf(table, catalog, ['id', ...columns])}) as s
      where ${table}."org_id" = $1 and ${table}."id" = s."__id"${partitionPredicate(descriptor, table)}
      returning ${list}`,
    [orgId, jsonRows(rows, ids)] as never[],
    { prepare: true },
  );
  // RETURNING gives the rows in no set order: each is laid over its locked row.
  const returned = new Map(updated.map((row) => [Number(row.id), row]));
  const present = current.filter((row) => returned.has(Number(row.id)));
  const merged = mergeRows(
    present,
    present.map((row) => returned.get(Number(row.id))!),
  );
  return new Map(merged.map((row) => [Number(row.id), row]));
}

/**
 * Deletes the org's records among `ids` with one statement. Returns their last values by id,
 * read back whole: the delete's references to them were cleared just before, and a record of
 * the set may have been one of those (a user and the manager it refers to, deleted together).
 */
export async function deleteRows(tx: Transaction, descriptor: ResourceDescriptor, orgId: number, ids: readonly number[]): Promise<Map<number, Row>> {
  const deleted = await wideRows(
    tx.unsafe(
      `delete from ${quoteIdent(descriptor.table)} where "org_id" = $1 and "id" = any($2::bigint[])${partitionPredicate(descriptor)} returning ${selectList(descriptor)}`,
      [orgId, ids] as never[],
      { prepare: true },
    ),
  );
  return new Map(deleted.map((row) => [Number(row.id), row]));
}

/** The ids of the org's records whose `reference` points at one of `targets`, in id order: one statement. */
export async function referringIds(tx: Transaction, reference: Reference, orgId: number, targets: readonly number[], targetType: string): Promise<number[]> {
  const { descriptor, relationship } = reference;
  const rows = await tx.unsafe<{ id: number }[]>(
    `select "id" from ${quoteIdent(descriptor.table)}
      where "org_id" = $1 and ${quoteIdent(relationship.column)} = any($2::bigint[])${typePredicate(relationship, '$3')}${partitionPredicate(descriptor)} order by "id"`,
    (relationship.kind === 'polymorphicToOne' ? [orgId, targets, targetType] : [orgId, targets]) as never[],
    { prepare: true },
  );
  return rows.map((row) => Number(row.id));
}

/** ` and "<rel>_type" = <param>` for a polymorphic to-one: its id column alone names no table. */
function typePredicate(relationship: Reference['relationship'], param: string): string {
  return relationship.kind === 'polymorphicToOne' ? ` and ${quoteIdent(relationship.typeColumn)} = ${param}::text` : '';
}

/**
 * Points `reference` of the records among `ids` that still point at one of `targets` at
 * nothing, with no event: only for records the writer refused to update that way, so that the
 * delete of their targets is not blocked (the foreign keys carry org_id, so ON DELETE SET NULL
 * would null org_id too).
 */
export async function clearReference(
  tx: Transaction,
  reference: Reference,
  orgId: number,
  ids: readonly number[],
  targets: readonly number[],
  targetType: string,
): Promise<void> {
  const { descriptor, relationship } = reference;
  const table = quoteIdent(descriptor.table);
  const column = quoteIdent(relationship.column);
  const touch = descriptor.attributes.some((a) => a.name === 'updatedAt') ? `, "updated_at" = ${orgNowSql()}` : '';
  const polymorphic = relationship.kind === 'polymorphicToOne';
  const clearType = polymorphic ? `, ${quoteIdent(relationship.typeColumn)} = null` : '';
  await tx.unsafe(
    `update ${table} set ${column} = null${clearType}${touch}
      where "org_id" = $1 and "id" = any($2::bigint[]) and ${column} = any($3::bigint[])${typePredicate(relationship, '$4')}${partitionPredicate(descriptor)}`,
    (polymorphic ? [orgId, ids, targets, targetType] : [orgId, ids, targets]) as never[],
    { prepare: true },
  );
}

/**
 * Which of the referenced records exist in the org, asked of every target resource in one
 * statement: `targets` maps each target descriptor to the ids referenced. Returns "type:id" keys.
 */
export async function existingTargets(tx: Transaction, orgId: number, targets: ReadonlyMap<ResourceDescriptor, ReadonlySet<number>>): Promise<Set<string>> {
  const parts: string[] = [];
  const params: unknown[] = [orgId];
  for (const [target, ids] of targets) {
    params.push([...ids]);
    parts.push(
      `select ${parts.length}::int as "target", "id" from ${quoteIdent(target.table)} where "org_id" = $1 and "id" = any($${params.length}::bigint[])${partitionPredicate(target)}`,
    );
  }
  if (parts.length === 0) return new Set();
  const found = await tx.unsafe<{ target: number; id: number }[]>(parts.join(' union all '), params as never[], { prepare: true });
  const types = [...targets.keys()].map((d) => d.type);
  return new Set(found.map((f) => `${types[f.target]}:${Number(f.id)}`));
}

/** A value compared with a column, as the text PostgreSQL casts to the column's type. */
function asText(value: unknown): string | null {
  if (value == null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  throw new TypeError(`records are read by ids, strings or booleans, not by ${typeof value}`);
}

/**
 * Reads the org's records of `descriptor` whose columns each hold one of the values given
 * (`where`: each column, its type and values), in id order: one statement for a whole set's question.
 */
export async function selectRows(
  tx: Transaction,
  descriptor: ResourceDescriptor,
  orgId: number,
  where: readonly { column: string; cast: 'bigint' | 'text' | 'boolean'; values: readonly unknown[] }[],
): Promise<Row[]> {
  if (where.some((w) => w.values.length === 0)) return [];
  const params: unknown[] = [orgId];
  const conditions = where.map((w) => {
    // The values travel as one text array, cast to the column's own type by PostgreSQL. An
    // array parameter, not a subquery over a JSON one: `= any(<parameter>)` is a leakproof
    // comparison, which row-level security lets the planner use as an index condition. A
    // subquery is not, so PostgreSQL applied it as a filter after the policy's, and a read of
    // 500 states by id read every row of the org (246 ms per read in the bench, against 4 ms).
    params.push(w.values.map(asText));
    return `${quoteIdent(w.column)} = any($${params.length}::text[]::${w.cast}[])`;
  });
  return wideRows(
    tx.unsafe(
      `select ${selectList(descriptor)} from ${quoteIdent(descriptor.table)}
        where "org_id" = $1${conditions.map((c) => ` and ${c}`).join('')}${partitionPredicate(descriptor)} order by "id"`,
      params as never[],
      { prepare: true },
    ),
  );
}
