import type { AttributeDescriptor, PolymorphicToOneDescriptor, ResourceDescriptor, ResourceIdentifier, ToOneDescriptor } from './descriptor.js';

/**
 * SQL text built from a descriptor. Identifiers come from schema names that the meta-schema
 * limits to [A-Za-z0-9], so quoting them is enough; values always travel as parameters.
 * Timestamps are rendered by PostgreSQL straight into the API's format, which spares a Date
 * round trip per value on the hot path.
 */

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const ISO_MILLIS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

function selectExpression(a: AttributeDescriptor): string {
  const column = quoteIdent(a.column);
  if (a.format === 'date-time') return `to_char(${column} at time zone 'UTC', ${ISO_MILLIS})`;
  if (a.format === 'date') return `to_char(${column}, 'YYYY-MM-DD')`;
  return column;
}

/**
 * Result column alias of a to-one relationship's id, kept apart from attribute names. The
 * aliases and the relationship lists below are worked out once per descriptor: the record
 * writer reads them for every row of a set, and a string built anew for each property lookup
 * must be hashed each time.
 */
export function relationshipAlias(rel: ToOneDescriptor | PolymorphicToOneDescriptor): string {
  let alias = aliases.get(rel);
  if (alias === undefined) aliases.set(rel, (alias = `rel:${rel.name}`));
  return alias;
}

/** Result column alias of a polymorphic to-one's target type. */
export function relationshipTypeAlias(rel: PolymorphicToOneDescriptor): string {
  let alias = typeAliases.get(rel);
  if (alias === undefined) typeAliases.set(rel, (alias = `rel:${rel.name}:type`));
  return alias;
}

const aliases = new WeakMap<ToOneDescriptor | PolymorphicToOneDescriptor, string>();
const typeAliases = new WeakMap<PolymorphicToOneDescriptor, string>();

interface RelationshipLists {
  readonly toOnes: readonly ToOneDescriptor[];
  readonly polymorphicToOnes: readonly PolymorphicToOneDescriptor[];
}

const relationshipLists = new WeakMap<ResourceDescriptor, RelationshipLists>();

function listsOf(descriptor: ResourceDescriptor): RelationshipLists {
  let lists = relationshipLists.get(descriptor);
  if (!lists) {
    lists = {
      toOnes: descriptor.relationships.filter((r): r is ToOneDescriptor => r.kind === 'toOne'),
      polymorphicToOnes: descriptor.relationships.filter((r): r is PolymorphicToOneDescriptor => r.kind === 'polymorphicToOne'),
    };
    relationshipLists.set(descriptor, lists);
  }
  return lists;
}

export function toOnes(descriptor: ResourceDescriptor): readonly ToOneDescriptor[] {
  return listsOf(descriptor).toOnes;
}

export function polymorphicToOnes(descriptor: ResourceDescriptor): readonly PolymorphicToOneDescriptor[] {
  return listsOf(descriptor).polymorphicToOnes;
}

/** The identifier a row's polymorphic to-one holds, or null. */
export function polymorphicTarget(rel: PolymorphicToOneDescriptor, row: Readonly<Record<string, unknown>>): ResourceIdentifier | null {
  const id = row[relationshipAlias(rel)];
  const type = row[relationshipTypeAlias(rel)];
  return id == null || typeof type !== 'string' ? null : { type, id: Number(id) };
}

/** `"id", "first_name" as "firstName", ...`: every public field of a row. */
export function selectList(descriptor: ResourceDescriptor): string {
  return selectListOf(descriptor, () => true).list;
}

/**
 * The select list of the public fields whose column `returned` names, and the aliases of the
 * others (every field a row of selectList has, but these). A polymorphic to-one is returned
 * when either of its two columns is.
 */
export function selectListOf(descriptor: ResourceDescriptor, returned: (column: string) => boolean): { list: string; omitted: readonly string[] } {
  const list = [`"id"`];
  const omitted: string[] = [];
  for (const a of descriptor.attributes) {
    if (returned(a.column)) list.push(`${selectExpression(a)} as ${quoteIdent(a.name)}`);
    else omitted.push(a.name);
  }
  for (const r of toOnes(descriptor)) {
    if (returned(r.column)) list.push(`${quoteIdent(r.column)} as ${quoteIdent(relationshipAlias(r))}`);
    else omitted.push(relationshipAlias(r));
  }
  for (const r of polymorphicToOnes(descriptor)) {
    if (returned(r.column) || returned(r.typeColumn)) {
      list.push(`${quoteIdent(r.typeColumn)} as ${quoteIdent(relationshipTypeAlias(r))}`, `${quoteIdent(r.column)} as ${quoteIdent(relationshipAlias(r))}`);
    } else omitted.push(relationshipTypeAlias(r), relationshipAlias(r));
  }
  return { list: list.join(', '), omitted };
}

/** Cast for a parameter bound to a column, so PostgreSQL parses ISO strings and JSON text. */
export function parameterCast(a: AttributeDescriptor | undefined): string {
  if (!a) return '';
  if (a.type === 'object' || (a.type === 'array' && a.itemType === 'object')) return '::jsonb';
  return '';
}

/**
 * ` and <alias>."definition_id" = 12` for a resource that shares its table, else nothing. The
 * value comes from the database as an integer, never from a request, so it is inlined.
 */
export function partitionPredicate(descriptor: ResourceDescriptor, alias?: string): string {
  if (!descriptor.partition) return '';
  const column = `${alias ? `${alias}.` : ''}${quoteIdent(descriptor.partition.column)}`;
  return ` and ${column} = ${Number(descriptor.partition.value)}`;
}
