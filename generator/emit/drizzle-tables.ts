import { byCodePoint } from '../compare.js';
import type { AttributeModel, PolymorphicToOneModel, ResourceModel, SchemaModel, ToOneModel } from '../model.js';
import { snakeCase } from '../naming.js';
import { generatedHeader } from './header.js';

/**
 * One Drizzle table per resource. Every table leads with org_id: the primary key is
 * (org_id, id), foreign keys are (org_id, <rel>_id) -> (org_id, id) so a record can only
 * point at records of its own org, and every index starts with org_id. That keeps the schema
 * distributable by org_id (Citus) and lets drizzle-kit derive the migrations.
 */

interface ColumnCode {
  readonly builder: string;
  readonly code: string;
}

function columnCode(name: string, column: string, a: AttributeModel): ColumnCode {
  const timestamp = (col: string) => `timestamp('${col}', { withTimezone: true, precision: 3, mode: 'string' })`;
  const scalar = (type: string, format: string | undefined, col: string): ColumnCode => {
    if (type === 'string' && format === 'date-time') return { builder: 'timestamp', code: timestamp(col) };
    if (type === 'string' && format === 'date') return { builder: 'date', code: `date('${col}', { mode: 'string' })` };
    if (type === 'string') return { builder: 'text', code: `text('${col}')` };
    if (type === 'integer') return { builder: 'integer', code: `integer('${col}')` };
    if (type === 'number') return { builder: 'doublePrecision', code: `doublePrecision('${col}')` };
    if (type === 'boolean') return { builder: 'boolean', code: `boolean('${col}')` };
    return { builder: 'jsonb', code: `jsonb('${col}')` };
  };
  let result: ColumnCode;
  if (a.type === 'array') {
    result = a.items!.type === 'object' ? scalar('object', undefined, column) : scalar(a.items!.type, a.items!.format, column);
    if (a.items!.type !== 'object') result = { builder: result.builder, code: `${result.code}.array()` };
  } else {
    result = scalar(a.type, a.format, column);
  }
  let code = `${name}: ${result.code}`;
  if (a.required || isTimestampMaintained(a)) code += '.notNull()';
  if (isTimestampMaintained(a)) code += '.defaultNow()';
  else if (a.default !== undefined) code += `.default(${JSON.stringify(a.default)})`;
  return { builder: result.builder, code };
}

/** createdAt and updatedAt are set by the database on insert and by the engine on update. */
function isTimestampMaintained(a: AttributeModel): boolean {
  return a.name === 'createdAt' || a.name === 'updatedAt';
}

function toOnes(resource: ResourceModel): ToOneModel[] {
  return resource.relationships.filter((r): r is ToOneModel => r.kind === 'toOne');
}

function polymorphicToOnes(resource: ResourceModel): PolymorphicToOneModel[] {
  return resource.relationships.filter((r): r is PolymorphicToOneModel => r.kind === 'polymorphicToOne');
}

/**
 * No foreign key can name several tables, so the table itself keeps a polymorphic pair whole:
 * both columns null, or a type among the targets with an id. Writes check that the target exists.
 */
function polymorphicCheck(resource: ResourceModel, r: PolymorphicToOneModel): string {
  const types = r.targets.map((type) => `'${type}'`).join(', ');
  const typeColumn = `\${t.${r.name}Type}`;
  const idColumn = `\${t.${r.name}Id}`;
  const condition = `(${typeColumn} is null and ${idColumn} is null) or (${typeColumn} in (${types}) and ${idColumn} is not null)`;
  return `check('${resource.table}_${snakeCase(r.name)}_check', sql\`${condition}\`)`;
}

function tableVariable(resource: ResourceModel): string {
  return resource.collection;
}

function indexesOf(resource: ResourceModel): string[] {
  const t = resource.table;
  const lines: string[] = [];
  for (const a of resource.attributes) {
    if (a.relationshipId !== undefined || !a.indexed) continue;
    // Sortable columns get id appended so a keyset page on (column, id) is one index range.
    if (a.sortable) lines.push(`index('${t}_${a.column}_idx').on(t.orgId, t.${a.name}, t.id)`);
    else if (a.filterable && a.type !== 'array' && a.type !== 'object') {
      lines.push(`index('${t}_${a.column}_idx').on(t.orgId, t.${a.name})`);
    }
  }
  for (const a of resource.attributes) {
    // filter[q] matches lower(column) by prefix: text_pattern_ops makes LIKE 'x%' use the index.
    if (a.search) lines.push(`index('${t}_${a.column}_search_idx').on(t.orgId, sql\`lower(\${t.${a.name}}) text_pattern_ops\`)`);
  }
  // A relationship's index holds only the rows that refer to something: every use of it (a
  // filter by the related ids, an include, a foreign key's check when the target is deleted)
  // asks for given ids, which PostgreSQL knows are not null. Rows that refer to nothing, most
  // rows of most relationships (an event names no prospect, a new mailing no task), cost no
  // index entry on insert; a filter for records that refer to nothing reads the org's rows.
  for (const r of toOnes(resource)) {
    lines.push(`index('${t}_${r.column}_idx').on(t.orgId, t.${r.name}Id, t.id).where(sql\`\${t.${r.name}Id} is not null\`)`);
  }
  // Leads with the type: a deleted record's referrers are found by (type, id).
  for (const r of polymorphicToOnes(resource)) {
    lines.push(`index('${t}_${snakeCase(r.name)}_idx').on(t.orgId, t.${r.name}Type, t.${r.name}Id, t.id).where(sql\`\${t.${r.name}Id} is not null\`)`);
  }
  return lines.sort(byCodePoint);
}

export function emitTable(resource: ResourceModel, model: SchemaModel): string {
  // x-foreignKeys: false (a table only the service writes): no foreign key to orgs or of its relationships.
  const foreignKeys = resource.foreignKeys !== false;
  const builders = new Set(['bigint', 'index', 'pgTable', 'primaryKey', ...(foreignKeys ? ['foreignKey'] : [])]);
  const orgId = `orgId: bigint('org_id', { mode: 'number' }).notNull()${foreignKeys ? '.references(() => orgs.id)' : ''}`;
  const columns = [orgId, `id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity()`];
  for (const a of resource.attributes) {
    if (a.relationshipId !== undefined) continue;
    const column = columnCode(a.name, a.column, a);
    builders.add(column.builder);
    columns.push(column.code);
  }
  for (const r of toOnes(resource)) columns.push(`${r.name}Id: bigint('${r.column}', { mode: 'number' })`);
  for (const r of polymorphicToOnes(resource)) {
    builders.add('check').add('text');
    columns.push(`${r.name}Type: text('${r.typeColumn}')`, `${r.name}Id: bigint('${r.column}', { mode: 'number' })`);
  }

  const targets = new Map(model.resources.map((r) => [r.type, r]));
  const imports = new Set<string>();
  const constraints = [`primaryKey({ name: '${resource.table}_pkey', columns: [t.orgId, t.id] })`];
  for (const r of foreignKeys ? toOnes(resource) : []) {
    const target = targets.get(r.target)!;
    // A table refers to itself through the callback's own columns: its variable is not yet defined.
    const targetVar = target.type === resource.type ? 't' : tableVariable(target);
    if (target.type !== resource.type) imports.add(`import { ${targetVar} } from './${target.type}.js';`);
    constraints.push(
      `foreignKey({ name: '${resource.table}_${snakeCase(r.name)}_fk', columns: [t.orgId, t.${r.name}Id], foreignColumns: [${targetVar}.orgId, ${targetVar}.id] })`,
    );
  }
  constraints.push(...polymorphicToOnes(resource).map((r) => polymorphicCheck(resource, r)));
  constraints.push(...indexesOf(resource));

  return [
    generatedHeader(resource.file),
    `import { ${[...builders].sort(byCodePoint).join(', ')}, type PgTableExtraConfigValue } from 'drizzle-orm/pg-core';`,
    ...(resource.attributes.some((a) => a.search) || toOnes(resource).length > 0 || polymorphicToOnes(resource).length > 0 ? [`import { sql } from 'drizzle-orm';`] : []),
    ...(foreignKeys ? [`import { orgs } from '../../runtime/db/system-tables.js';`] : []),
    ...[...imports].sort(byCodePoint),
    '',
    `export const ${tableVariable(resource)} = pgTable(`,
    `  '${resource.table}',`,
    `  { ${columns.join(',\n')} },`,
    // The annotated return type lets TypeScript type tables that refer to each other in a cycle.
    `  (t): PgTableExtraConfigValue[] => [${constraints.join(',\n')}],`,
    `);`,
    '',
  ].join('\n');
}

export function emitTablesIndex(model: SchemaModel): string {
  return [generatedHeader('schema/'), ...model.resources.map((r) => `export { ${tableVariable(r)} } from './${r.type}.js';`), ''].join('\n');
}
